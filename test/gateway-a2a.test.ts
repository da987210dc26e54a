import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentConnector, agentTarget } from '../src/connector/index.js';
import { bearer, buildTestApp, json, type TestApp } from './helpers/app.js';
import { startSdkAgent, type SdkAgent } from './helpers/a2a-sdk-agent.js';
import { createWorld, type World } from './helpers/factories.js';
import { GUARDED, INJECTION, LEAKED_KEY } from './helpers/gateway-agents.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';

/**
 * The A2A gateway (docs/gateway.md, "A2A") and A2A as the official SDK speaks it: agents built on
 * `@a2a-js/sdk` 1.3 on loopback (JSON-RPC on `/a2a/jsonrpc`, A2A 1.0), imported by their base URL.
 */

let t: TestApp;
let world: World;
let sdk: SdkAgent;
let legacy: SdkAgent;
let older: TestAgent;
let base: string;

const token = () => world.teamA.member.token;

async function call(method: string, url: string, payload?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.inject({ method, url, headers: { ...bearer(token()), ...headers }, payload: payload as object });
  return { status: res.statusCode, headers: res.headers, body: res.body ? json(res) : null, raw: res.body };
}

async function importAgent(agentUrl: string) {
  const res = await call('POST', `/v1/agent-configurations/import?team_id=${world.teamA.id}`, { agent_url: agentUrl });
  expect(res.status, res.raw).toBe(201);
  return res.body as { agent: Record<string, any>; warnings: string[] };
}

async function applyConfig(agentId: string, config: Record<string, unknown>) {
  const made = await call('POST', `/v1/dome-configs?team_id=${world.teamA.id}`, { agent_id: agentId, config_body: config });
  expect(made.status).toBe(201);
  expect((await call('POST', `/v1/dome-configs/${made.body.id}/apply?team_id=${world.teamA.id}`)).status).toBe(200);
}

const rpc = (method: string, params: unknown, id: string | number = 1) => ({ jsonrpc: '2.0', id, method, params });
const message10 = (text: string) => ({ message: { role: 'ROLE_USER', parts: [{ text }], messageId: crypto.randomUUID() } });
const message03 = (text: string) => ({ message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text }], messageId: crypto.randomUUID() } });

/** The text of a JSON-RPC answer's task artifacts or message parts, either spelling. */
function answerText(result: any): string {
  const task = result?.task ?? result;
  const parts = [...(task?.artifacts ?? []).flatMap((a: any) => a.parts ?? []), ...(result?.message?.parts ?? result?.parts ?? [])];
  return parts.map((p: any) => p.text ?? '').join('');
}

/** The `data` of each server-sent event of a body. */
const events = (body: string) =>
  body
    .split('\n\n')
    .map((block) => block.split('\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n'))
    .filter((data) => data !== '')
    .map((data) => JSON.parse(data) as Record<string, any>);

beforeAll(async () => {
  sdk = await startSdkAgent();
  legacy = await startSdkAgent({ name: 'Legacy SDK Agent', legacy: true });
  older = await startTestAgent('compliant');
  t = await buildTestApp({ app: { gateway: { timeoutMs: 5_000 } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  world = await createWorld(t.app);
});

afterAll(async () => {
  await t?.close();
  await sdk?.close();
  await legacy?.close();
  await older?.close();
});

describe('A2A as the official SDK speaks it (issue 29: four faults)', () => {
  it('an agent imported by its base URL is registered at the JSON-RPC endpoint its card names', async () => {
    const imported = await importAgent(sdk.base);
    expect(imported.agent.protocol).toBe('a2a');
    expect(imported.agent.agent_url).toBe(sdk.endpoint);
    // …and a prompt through it answers (it used to fail with 404 on the base URL).
    const target = agentTarget({ ...imported.agent, agent_params: null } as never, null);
    const answer = await createAgentConnector().send(target, [{ role: 'user', content: 'hello there' }]);
    expect(answer).toMatchObject({ ok: true, text: 'You said: hello there' });
  });

  it('the first call speaks the protocol version the card declared (no -32009 / -32601 round first)', async () => {
    const imported = await importAgent(sdk.base);
    const row = await t.database.db.selectFrom('agents').selectAll().where('id', '=', imported.agent.id).executeTakeFirstOrThrow();
    const before = sdk.requests.length;
    const answer = await createAgentConnector().send(agentTarget(row, null), [{ role: 'user', content: 'first call' }]);
    expect(answer.ok).toBe(true);
    expect(sdk.requests.slice(before)).toEqual([{ method: 'SendMessage', version: '1.0', authorization: undefined }]);
  });

  it('a skill whose input and output modes are empty lists takes the card’s defaults', async () => {
    const imported = await importAgent(sdk.base);
    expect(imported.agent.skills).toEqual([
      expect.objectContaining({ id: 'echo', input_modes: ['text/plain'], output_modes: ['text/plain', 'application/json'] }),
    ]);
  });

  it('a trailing slash alone raises no “different endpoint” warning', async () => {
    const imported = await importAgent(`${sdk.endpoint}/`);
    expect(imported.agent.agent_url).toBe(sdk.endpoint);
    expect(imported.warnings.filter((w) => w.includes('endpoint'))).toEqual([]);
  });
});

describe('POST /v1/gateway/{agent_id}/a2a', () => {
  it('passes SendMessage and GetTask (A2A 1.0) through to an SDK agent', async () => {
    const { agent } = await importAgent(sdk.base);
    await applyConfig(agent.id, GUARDED);
    const sent = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('SendMessage', message10('hello gateway')), { 'a2a-version': '1.0' });
    expect(sent.status).toBe(200);
    expect(sent.body.error).toBeUndefined();
    expect(answerText(sent.body.result)).toBe('You said: hello gateway');
    const taskId = sent.body.result.task.id as string;
    const got = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('GetTask', { id: taskId }, 2), { 'a2a-version': '1.0' });
    expect(got.body.id).toBe(2);
    expect(answerText(got.body.result)).toBe('You said: hello gateway');
  });

  it('passes message/send and tasks/get (A2A 0.3) through', async () => {
    const { agent } = await importAgent(legacy.base);
    const sent = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('message/send', message03('hello old friend')));
    expect(sent.status).toBe(200);
    expect(sent.body.result.kind).toBe('task');
    expect(answerText(sent.body.result)).toBe('You said: hello old friend');
    const got = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('tasks/get', { id: sent.body.result.id }, 2));
    expect(answerText(got.body.result)).toBe('You said: hello old friend');
    expect(legacy.requests.slice(-2).map((r) => [r.method, r.version])).toEqual([
      ['message/send', undefined],
      ['tasks/get', undefined],
    ]);
  });

  it('passes message/send to an agent that is not built on the SDK', async () => {
    const created = await call('POST', `/v1/agent-configurations/?team_id=${world.teamA.id}`, {
      agent_name: 'older',
      model_name: 'a2a',
      agent_url: older.a2aUrl,
      protocol: 'a2a',
    });
    const sent = await call('POST', `/v1/gateway/${created.body.id}/a2a`, rpc('message/send', message03('What is the capital of France?')));
    expect(sent.status).toBe(200);
    expect(answerText(sent.body.result)).toContain('Paris');
  });

  it('streams message/stream (0.3, through the SDK’s compatibility layer) and SendStreamingMessage (1.0)', async () => {
    for (const [agentUnder, method, params, headers] of [
      [legacy, 'message/stream', message03('stream this'), {}],
      [sdk, 'SendStreamingMessage', message10('stream this'), { 'a2a-version': '1.0' }],
    ] as const) {
      const { agent } = await importAgent(agentUnder.base);
      await applyConfig(agent.id, GUARDED);
      const res = await fetch(`${base}/v1/gateway/${agent.id}/a2a`, {
        method: 'POST',
        headers: { ...bearer(token()), 'content-type': 'application/json', ...headers },
        body: JSON.stringify(rpc(method, params)),
      });
      expect(res.headers.get('content-type')).toContain('text/event-stream');
      const frames = events(await res.text());
      expect(frames.length).toBeGreaterThan(1);
      expect(frames.every((f) => f.error === undefined)).toBe(true);
      expect(JSON.stringify(frames)).toContain('You said: stream this');
    }
  });

  it('blocks an injection with a JSON-RPC error; the agent is not called', async () => {
    const { agent } = await importAgent(sdk.base);
    await applyConfig(agent.id, GUARDED);
    const before = sdk.requests.length;
    const res = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('SendMessage', message10(INJECTION), 'req-7'), { 'a2a-version': '1.0' });
    expect(res.status).toBe(200);
    expect(res.headers['x-warden-guard']).toBe('blocked; guard=injection');
    expect(res.body).toEqual({
      jsonrpc: '2.0',
      id: 'req-7',
      error: {
        code: -32050,
        message: "I'm sorry, but I can't help with that request.",
        data: { type: 'content_filter', guard: 'injection', direction: 'input' },
      },
    });
    expect(sdk.requests.length).toBe(before);
  });

  it('blocks a leaking answer, plain and streamed', async () => {
    const { agent } = await importAgent(sdk.base);
    await applyConfig(agent.id, GUARDED);
    const plain = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('SendMessage', message10('please leak it')), { 'a2a-version': '1.0' });
    expect(plain.body.error).toMatchObject({ code: -32050, data: { guard: 'secrets', direction: 'output' } });
    expect(plain.raw).not.toContain(LEAKED_KEY);
    const res = await fetch(`${base}/v1/gateway/${agent.id}/a2a`, {
      method: 'POST',
      headers: { ...bearer(token()), 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: JSON.stringify(rpc('SendStreamingMessage', message10('please leak it'))),
    });
    const body = await res.text();
    expect(body).not.toContain(LEAKED_KEY);
    expect(events(body).at(-1)!.error).toMatchObject({ code: -32050 });
  });

  it('answers an unknown method, and a caller without a credential, with JSON-RPC errors', async () => {
    const { agent } = await importAgent(sdk.base);
    const unknown = await call('POST', `/v1/gateway/${agent.id}/a2a`, rpc('tasks/pushNotificationConfig/set', {}));
    expect(unknown.body.error.code).toBe(-32601);
    const anonymous = await t.app.inject({ method: 'POST', url: `/v1/gateway/${agent.id}/a2a`, payload: rpc('SendMessage', message10('hi')) });
    expect(anonymous.statusCode).toBe(401);
    expect(json(anonymous)).toMatchObject({ jsonrpc: '2.0', error: { message: 'Not authenticated' } });
    const url = `/v1/gateway/${agent.id}/a2a`;
    const other = await t.app.inject({ method: 'POST', url, headers: bearer(world.teamB.member.token), payload: rpc('SendMessage', message10('hi')) });
    expect(other.statusCode).toBe(404);
  });

  it('serves the agent card pointing at the gateway', async () => {
    const { agent } = await importAgent(sdk.base);
    const res = await fetch(`${base}/v1/gateway/${agent.id}/.well-known/agent-card.json`, { headers: bearer(token()) });
    expect(res.status).toBe(200);
    const card = (await res.json()) as Record<string, any>;
    const gateway = `${base}/v1/gateway/${agent.id}/a2a`;
    expect(card.url).toBe(gateway);
    expect(card.supportedInterfaces).toEqual([{ url: gateway, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }]);
    expect(card.name).toBe('SDK Agent');
    expect(card.skills).toEqual([expect.objectContaining({ id: 'echo', inputModes: ['text/plain'] })]);
    expect(JSON.stringify(card)).not.toContain(sdk.base);
  });
});
