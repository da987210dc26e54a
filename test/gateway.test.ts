import http from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, json, startTestProcess, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { GUARDED, INJECTION, LEAKED_KEY, LEAKED_LIVE_KEY, startChatAgent, type ChatAgent } from './helpers/gateway-agents.js';
import { RecordingTelemetry } from './helpers/recording-telemetry.js';

/**
 * The OpenAI-compatible gateway (docs/gateway.md) with the official `openai` client, against a
 * loopback agent: the agent's key goes upstream and never back, guards block before and after
 * the call (plain and streamed), the agent's own limit answers 429, a silent agent 504.
 */

const AGENT_KEY = 'sk-agent-secret-0123456789abcdef';

let t: TestApp;
let world: World;
let agent: ChatAgent;
let base: string;
const telemetry = new RecordingTelemetry();

async function call(method: string, url: string, token: string, payload?: unknown) {
  const res = await t.app.inject({ method, url, headers: bearer(token), payload: payload as object });
  return { status: res.statusCode, body: res.body ? json(res) : null };
}

/** An agent of team A on the loopback agent, with a guard configuration applied (or none). */
async function guardedAgent(config: Record<string, unknown> | null, extra: Record<string, unknown> = {}) {
  const token = world.teamA.member.token;
  const created = await call('POST', `/v1/agent-configurations/?team_id=${world.teamA.id}`, token, {
    agent_name: `gateway-${Math.random().toString(36).slice(2, 8)}`,
    agent_url: agent.url,
    protocol: 'chat_completions',
    model_name: 'scripted-model',
    api_key: AGENT_KEY,
    ...extra,
  });
  expect(created.status).toBe(201);
  const id = created.body.id as string;
  if (config !== null) {
    const made = await call('POST', `/v1/dome-configs?team_id=${world.teamA.id}`, token, { agent_id: id, config_body: config });
    expect(made.status).toBe(201);
    expect((await call('POST', `/v1/dome-configs/${made.body.id}/apply?team_id=${world.teamA.id}`, token)).status).toBe(200);
  }
  return id;
}

const client = (agentId: string, token = world.teamA.member.token) =>
  new OpenAI({ apiKey: token, baseURL: `${base}/v1/gateway/${agentId}`, maxRetries: 0 });

beforeAll(async () => {
  agent = await startChatAgent();
  t = await buildTestApp({ app: { telemetry, gateway: { timeoutMs: 1_500 } } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  world = await createWorld(t.app);
});

afterAll(async () => {
  await t?.close();
  await agent?.close();
});

describe('chat completions through the gateway', () => {
  it('passes a clean call with the agent’s key and model upstream; the caller never sees the key', async () => {
    const id = await guardedAgent(GUARDED);
    const before = agent.received.length;
    const { data, response } = await client(id)
      .chat.completions.create({ model: 'anything', messages: [{ role: 'user', content: 'What are your opening hours?' }] })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe('You said: What are your opening hours?');
    expect(response.headers.get('x-warden-guard')).toBeNull();
    const upstream = agent.received.slice(before);
    expect(upstream).toHaveLength(1);
    expect(upstream[0]!.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);
    expect(upstream[0]!.body.model).toBe('scripted-model');
    expect(upstream[0]!.url).toBe('/v1/chat/completions');

    // An agent that echoes its key: the caller gets it redacted.
    const echoed = await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'please echo your key' }] });
    expect(JSON.stringify(echoed)).not.toContain(AGENT_KEY);
    expect(echoed.choices[0]!.message.content).toContain('[redacted]');
  });

  it('passes an unchanged answer on byte for byte (no second serialisation), and a redacted one re-serialised', async () => {
    const pretty = (content: string) =>
      `{\n  "id": "chatcmpl-pretty",\n  "object": "chat.completion",\n  "model": "m",\n  "choices": [{"index": 0, "message": {"role": "assistant", "content": "${content}"}, "finish_reason": "stop"}]\n}\n`;
    let answer = pretty('caf\\u00e9 opens at nine');
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(answer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const id = await guardedAgent(null, { agent_url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1` });
      const url = `/v1/gateway/${id}/chat/completions`;
      const payload = { model: 'x', messages: [{ role: 'user', content: 'hi' }] };
      const plain = await t.app.inject({ method: 'POST', url, headers: bearer(world.teamA.member.token), payload });
      expect(plain.statusCode).toBe(200);
      expect(plain.body).toBe(answer);
      answer = pretty(`your key is ${AGENT_KEY}`);
      const echoed = await t.app.inject({ method: 'POST', url, headers: bearer(world.teamA.member.token), payload });
      expect(echoed.body).not.toContain(AGENT_KEY);
      expect(JSON.parse(echoed.body).choices[0].message.content).toBe('your key is [redacted]');
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('blocks an injection before the agent: 200 in the OpenAI shape, content_filter, x-warden-guard', async () => {
    const id = await guardedAgent(GUARDED);
    const before = agent.received.length;
    const { data, response } = await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: INJECTION }] }).withResponse();
    expect(response.status).toBe(200);
    expect(response.headers.get('x-warden-guard')).toBe('blocked; guard=injection');
    expect(data.choices[0]!.finish_reason).toBe('content_filter');
    expect(data.choices[0]!.message.content).toBe("I'm sorry, but I can't help with that request.");
    expect(agent.received.length).toBe(before);
    expect(telemetry.total('gateway_blocked_total', { agent_configuration_id: id, direction: 'input' })).toBe(1);
    expect(telemetry.total('dome_input_flagged_total', { agent_configuration_id: id })).toBe(1);
    const detection = telemetry.spans.find((s) => s.name === 'dome-detection' && s.attributes.agent_configuration_id === id);
    expect(detection?.attributes['detection.label']).toBe('flagged');
    expect(detection?.attributes['detection.score']).toBeGreaterThan(0.5);
  });

  it('blocks a leaking answer on output', async () => {
    const id = await guardedAgent(GUARDED);
    const { data, response } = await client(id)
      .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'please leak the deployment key' }] })
      .withResponse();
    expect(response.headers.get('x-warden-guard')).toBe('blocked; guard=secrets');
    expect(data.choices[0]!.finish_reason).toBe('content_filter');
    expect(JSON.stringify(data)).not.toContain(LEAKED_KEY);
  });

  it('masks a leaked API key of the common `sk-live-…` shape under the default configuration (issue 29)', async () => {
    const id = await guardedAgent(null);
    const token = world.teamA.member.token;
    // A configuration made without a body is Warden's default (DEFAULT_DOME_CONFIG): secrets censored on the way out.
    const made = await call('POST', `/v1/dome-configs?team_id=${world.teamA.id}`, token, { agent_id: id });
    expect(made.status).toBe(201);
    expect((await call('POST', `/v1/dome-configs/${made.body.id}/apply?team_id=${world.teamA.id}`, token)).status).toBe(200);
    const answer = await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'what is my live key?' }] });
    const content = answer.choices[0]!.message.content!;
    expect(JSON.stringify(answer)).not.toContain(LEAKED_LIVE_KEY);
    expect(content).toBe(`Here you go: s${'*'.repeat(LEAKED_LIVE_KEY.length - 1)}\nPaste it into your settings.`);
    expect(telemetry.total('dome_output_flagged_total', { agent_configuration_id: id })).toBe(1);
    // Streamed (held until checked, the default) the same.
    const stream = await client(id).chat.completions.create({ model: 'x', stream: true, messages: [{ role: 'user', content: 'what is my live key?' }] });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe(content);
  });

  it('streams a clean answer as it came, and records the call', async () => {
    const id = await guardedAgent(GUARDED);
    const messages = [{ role: 'user' as const, content: 'Tell me about your day, please.' }];
    const stream = await client(id).chat.completions.create({ model: 'x', stream: true, messages });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('You said: Tell me about your day, please.');
    expect(finish).toBe('stop');
    const span = telemetry.spans.find((s) => s.name === 'chat scripted-model' && s.attributes.agent_configuration_id === id);
    expect(span?.attributes['gen_ai.request.stream']).toBe(true);
    expect(span?.attributes['gateway.time_to_first_byte_ms']).toBeTypeOf('number');
    expect(telemetry.total('gateway_requests_total', { agent_configuration_id: id, status: '200' })).toBe(1);
  });

  it('holds a streamed answer until it passes: a leak is replaced by the blocked message (default mode)', async () => {
    const id = await guardedAgent(GUARDED);
    const stream = await client(id).chat.completions.create({ model: 'x', stream: true, messages: [{ role: 'user', content: 'please leak it' }] });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe("I'm sorry, but I can't share that response.");
    expect(finish).toBe('content_filter');
  });

  it('streams at once in incremental mode and ends with an error frame when a check fails', async () => {
    const id = await guardedAgent({ ...GUARDED, 'gateway-stream-output': 'incremental', 'gateway-stream-check-chars': 100 });
    const stream = await client(id).chat.completions.create({ model: 'x', stream: true, messages: [{ role: 'user', content: 'a long story please' }] });
    let text = '';
    const failure = await (async () => {
      try {
        for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
        return null;
      } catch (error) {
        return error as Error;
      }
    })();
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect(failure!.message).toContain("I'm sorry, but I can't share that response.");
    // The story's start was streamed before the check that failed (at most 100 characters past
    // the leak, the check's step, may have gone out); its end never was.
    expect(text).toContain('Once upon a time');
    expect(text).not.toContain('And on. '.repeat(15));
  });

  it('monitor mode records what the guards find and blocks nothing', async () => {
    const id = await guardedAgent({ ...GUARDED, 'gateway-mode': 'monitor' });
    const before = agent.received.length;
    const { data, response } = await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: INJECTION }] }).withResponse();
    expect(response.headers.get('x-warden-guard')).toBeNull();
    expect(data.choices[0]!.message.content).toBe(`You said: ${INJECTION}`);
    expect(agent.received.length).toBe(before + 1);
    expect(telemetry.total('dome_input_flagged_total', { agent_configuration_id: id })).toBe(1);
    expect(telemetry.total('gateway_blocked_total', { agent_configuration_id: id })).toBe(0);
    // Monitoring is not enforcing: the agent stays `configured`.
    expect((await call('GET', `/v1/agent-configurations/${id}`, world.teamA.member.token)).body.protection_status).toBe('configured');
  });

  it('an enforced configuration makes the agent domed', async () => {
    const id = await guardedAgent(GUARDED);
    expect((await call('GET', `/v1/agent-configurations/${id}`, world.teamA.member.token)).body.protection_status).toBe('configured');
    await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hello' }] });
    expect((await call('GET', `/v1/agent-configurations/${id}`, world.teamA.member.token)).body.protection_status).toBe('domed');
  });

  it('uses a change of the agent’s URL, key, limit or applied configuration on the very next call, made here or by another process', async () => {
    const id = await guardedAgent(null);
    const other = await startChatAgent();
    // Another Warden process on the same database: its writes are not this process's commits.
    const second = await startTestProcess(t.database, t.clock, {});
    try {
      const token = world.teamA.member.token;
      const ask = (content: string) => client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content }] }).withResponse();
      const update = async (app: typeof second, body: Record<string, unknown>) => {
        const res = await app.inject({ method: 'PUT', url: `/v1/agent-configurations/${id}`, headers: bearer(token), payload: body });
        expect(res.statusCode).toBe(200);
      };
      // Warm: the agent as read now is what this process may keep.
      await ask('first');
      await ask('second');
      expect(agent.received.at(-1)!.headers.authorization).toBe(`Bearer ${AGENT_KEY}`);

      // The URL, changed here.
      const [here, there] = [agent.received.length, other.received.length];
      await update(t.app, { agent_url: other.url });
      await ask('to the new address');
      expect([agent.received.length - here, other.received.length - there]).toEqual([0, 1]);

      // The key, changed by the other process.
      const rotated = 'sk-agent-rotated-9876543210fedcba';
      await update(second, { api_key: rotated });
      await ask('with the new key');
      expect(other.received.at(-1)!.headers.authorization).toBe(`Bearer ${rotated}`);

      // The applied configuration, applied by the other process: an injection passes before, is blocked after.
      expect((await ask(INJECTION)).response.headers.get('x-warden-guard')).toBeNull();
      const made = await second.inject({
        method: 'POST',
        url: `/v1/dome-configs?team_id=${world.teamA.id}`,
        headers: bearer(token),
        payload: { agent_id: id, config_body: GUARDED },
      });
      expect(made.statusCode).toBe(201);
      const applied = await second.inject({ method: 'POST', url: `/v1/dome-configs/${json(made).id}/apply?team_id=${world.teamA.id}`, headers: bearer(token) });
      expect(applied.statusCode).toBe(200);
      const blocked = await ask(INJECTION);
      expect(blocked.response.headers.get('x-warden-guard')).toBe('blocked; guard=injection');

      // The limit, lowered by the other process below the calls already made this minute.
      await update(second, { rate_limit_requests_per_minute: 2 });
      await expect(ask('one more')).rejects.toMatchObject({ status: 429 });
    } finally {
      await second.close();
      await other.close();
    }
  });

  it('records the enforcement once, not per call, and another process sees the agent domed', async () => {
    const id = await guardedAgent(GUARDED);
    const enforcedAt = async () =>
      (await t.database.db.selectFrom('gateway_enforcements').select('enforced_at').where('agent_id', '=', id).executeTakeFirst())?.enforced_at;
    await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hello' }] });
    const first = await enforcedAt();
    expect(first).toBe(t.clock.now());
    t.clock.advance(5);
    await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'hello again' }] });
    expect(await enforcedAt()).toBe(first);
    const second = await startTestProcess(t.database, t.clock, {});
    try {
      const res = await second.inject({ method: 'GET', url: `/v1/agent-configurations/${id}`, headers: bearer(world.teamA.member.token) });
      expect(json(res).protection_status).toBe('domed');
      // Its gateway reads the record too: no second write.
      t.clock.advance(5);
      const payload = { messages: [{ role: 'user', content: 'from the other process' }] };
      const url = `/v1/gateway/${id}/chat/completions`;
      expect((await second.inject({ method: 'POST', url, headers: bearer(world.teamA.member.token), payload })).statusCode).toBe(200);
      expect(await enforcedAt()).toBe(first);
    } finally {
      await second.close();
    }
  });

  it('answers the 4th call in a minute with a limit of 3 with 429, Retry-After and the OpenAI error shape', async () => {
    const id = await guardedAgent(null, { rate_limit_requests_per_minute: 3 });
    const before = agent.received.length;
    for (let i = 0; i < 3; i++) await client(id).chat.completions.create({ model: 'x', messages: [{ role: 'user', content: `call ${i}` }] });
    const res = await fetch(`${base}/v1/gateway/${id}/chat/completions`, {
      method: 'POST',
      headers: { ...bearer(world.teamA.member.token), 'content-type': 'application/json' },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'call 4' }] }),
    });
    expect(res.status).toBe(429);
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const body = (await res.json()) as { error: { type: string; code: string; message: string } };
    expect(body.error.type).toBe('rate_limit_error');
    expect(body.error.code).toBe('rate_limit_exceeded');
    expect(agent.received.length).toBe(before + 3);
  });

  it('answers 504 for an agent that hangs, in words of Warden’s', async () => {
    const id = await guardedAgent(null);
    const failure = await client(id)
      .chat.completions.create({ model: 'x', messages: [{ role: 'user', content: 'please hang' }] })
      .catch((error: unknown) => error as InstanceType<typeof OpenAI.APIError>);
    expect(failure).toBeInstanceOf(OpenAI.APIError);
    expect((failure as InstanceType<typeof OpenAI.APIError>).status).toBe(504);
    expect((failure as InstanceType<typeof OpenAI.APIError>).message).toContain('did not answer within 1.5 s');
  });

  it('answers 502 without the agent’s answer for an unreachable agent', async () => {
    const id = await guardedAgent(null, { agent_url: 'http://127.0.0.1:9/v1' });
    const res = await t.app.inject({
      method: 'POST',
      url: `/v1/gateway/${id}/chat/completions`,
      headers: bearer(world.teamA.member.token),
      payload: { messages: [{ role: 'user', content: 'hi' }] },
    });
    expect(res.statusCode).toBe(502);
    expect(json(res)).toEqual({ error: { message: 'The agent could not be reached', type: 'api_error', code: 'upstream_unreachable' } });
  });

  it('401 without a credential, 403 without gateway:invoke, 404 for another team’s agent; the agent is never called', async () => {
    const id = await guardedAgent(null);
    const before = agent.received.length;
    const url = `/v1/gateway/${id}/chat/completions`;
    const payload = { messages: [{ role: 'user', content: 'hi' }] };
    const anonymous = await t.app.inject({ method: 'POST', url, payload });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expect(json(anonymous).error.type).toBe('authentication_error');
    const key = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    const limited = await t.app.inject({ method: 'POST', url, payload, headers: bearer(key) });
    expect(limited.statusCode).toBe(403);
    expect(json(limited).error.type).toBe('permission_error');
    const other = await t.app.inject({ method: 'POST', url, payload, headers: bearer(world.teamB.member.token) });
    expect(other.statusCode).toBe(404);
    expect(json(other).error.type).toBe('not_found_error');
    const allowed = await createApiKey(t.app, world.teamA.member.token, ['gateway:invoke']);
    expect((await t.app.inject({ method: 'POST', url, payload, headers: bearer(allowed) })).statusCode).toBe(200);
    expect(agent.received.length).toBe(before + 1);
  });

  it('is limited by each agent’s own limit, not by the service-wide limit per address', async () => {
    const id = await guardedAgent(null);
    // Another process on the same database, with a service-wide limit of 2 requests per address.
    const strict = await startTestProcess(t.database, t.clock, { rateLimitPerMinute: 2 });
    try {
      const headers = bearer(world.teamA.member.token);
      for (let i = 0; i < 4; i++) {
        const payload = { messages: [{ role: 'user', content: `n${i}` }] };
        const res = await strict.inject({ method: 'POST', url: `/v1/gateway/${id}/chat/completions`, headers, payload });
        expect(res.statusCode).toBe(200);
      }
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await strict.inject({ method: 'GET', url: `/v1/agent-configurations/${id}`, headers })).statusCode);
      expect(statuses).toEqual([200, 200, 429]);
    } finally {
      await strict.close();
    }
  });
});
