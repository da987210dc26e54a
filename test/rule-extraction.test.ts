import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { deriveKeys } from '../src/crypto/keys.js';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { buildTestApp, openTestDatabase, TestClock, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { expectDetail, expectReferenceShape } from './helpers/reference.js';
import { policyClient } from './policy-fixtures.js';

const API_KEY = 'sk-test-extraction-key-0123456789abcdef';
const MODEL = 'tiny-policy-model';

/** A tiny OpenAI-compatible chat completions server on loopback, answering what the test queues. */
interface FakeLlm {
  server: Server;
  baseUrl: string;
  requests: Array<{ url: string; headers: IncomingMessage['headers']; body: any }>;
  next: Array<{ status?: number; content?: string; raw?: string }>;
}

async function startFakeLlm(): Promise<FakeLlm> {
  const fake: FakeLlm = { server: undefined as unknown as Server, baseUrl: '', requests: [], next: [] };
  fake.server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      fake.requests.push({ url: req.url ?? '', headers: req.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') });
      const answer = fake.next.shift() ?? { status: 500 };
      res.statusCode = answer.status ?? 200;
      res.setHeader('content-type', 'application/json');
      if (answer.raw !== undefined) return res.end(answer.raw);
      if (res.statusCode !== 200) return res.end(JSON.stringify({ error: { message: `bad key ${API_KEY}` } }));
      res.end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          model: MODEL,
          choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: answer.content } }],
        }),
      );
    });
  });
  await new Promise<void>((resolve) => fake.server.listen(0, '127.0.0.1', resolve));
  fake.baseUrl = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}/v1`;
  return fake;
}

let fake: FakeLlm;
let app: FastifyInstance;
let database: Database;
let world: World;
let logs = '';
const clock = new TestClock();
const c = policyClient(() => app);

beforeAll(async () => {
  fake = await startFakeLlm();
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  const stream = new Writable({
    write(chunk, _encoding, done) {
      logs += chunk.toString();
      done();
    },
  });
  app = await buildApp({
    database,
    keys: deriveKeys('extraction-test-secret-key-long-enough-012345'),
    dataDir: '/tmp/warden-test-data',
    passwordHashCost: 10,
    tokenTtlSeconds: 365 * 86_400,
    now: clock.now,
    llm: { baseUrl: fake.baseUrl, apiKey: API_KEY, model: MODEL },
    logger: { level: 'trace', stream },
  });
  await app.ready();
  world = await createWorld(app);
});
afterAll(async () => {
  await app.close();
  await database.close();
  await new Promise((resolve) => fake.server.close(resolve));
});
beforeEach(() => {
  fake.requests.length = 0;
  fake.next.length = 0;
});

const DOCUMENT = [
  '# Customer data policy',
  '',
  'Intro 🙂 text with an emoji before the rules.',
  '',
  '## Sharing',
  '',
  'Agents must never share a customer\'s email address with another customer.',
  '',
  'Agents must    escalate refund requests above 500 EUR to a human.',
  '',
  '## Tone',
  '',
  'Agents should greet users politely.',
].join('\n');

/** Offsets in code points, as the API answers them. */
const cpIndex = (doc: string, needle: string) => [...doc.slice(0, doc.indexOf(needle))].length;
const slice = (doc: string, start: number, end: number) => [...doc].slice(start, end).join('');

function modelAnswer() {
  const share = "Agents must never share a customer's email address with another customer.";
  const greet = 'Agents should greet users politely.';
  return {
    rules: [
      {
        // Exact quote, exact offsets.
        rule_type: 'prohibition',
        action: 'share_customer_email',
        target: 'customer_email',
        assignee: 'agent',
        constraints: [{ condition_type: 'data', field: 'recipient', operator: 'neq', value: 'data_subject' }, { bogus: true }],
        constraint_logic: 'all',
        consequence: { action: 'block', severity: 'high', message: 'Emails stay private.' },
        natural_language: "The agent must not share one customer's email address with another.",
        category: 'privacy',
        tags: ['pii'],
        confidence: 0.93,
        source_text: share,
        char_start: cpIndex(DOCUMENT, share),
        char_end: cpIndex(DOCUMENT, share) + [...share].length,
        section: 'Wrong section name',
      },
      {
        // Whitespace differs from the document, offsets are off (the model counted UTF-16 units or guessed).
        rule_type: 'obligation',
        action: 'escalate_refund',
        consequence: { action: 'explode', severity: 'catastrophic' },
        natural_language: 'Refund requests above 500 EUR must go to a human.',
        category: 'operational',
        confidence: 1.7,
        source_text: 'Agents must escalate refund requests above 500 EUR to a human.',
        char_start: 3,
        char_end: 10,
      },
      {
        // Right text, wrong offsets.
        rule_type: 'recommendation',
        action: 'greet_politely',
        consequence: {},
        natural_language: 'The agent should greet users politely.',
        category: 'no-such-category',
        source_text: greet,
        char_start: 0,
        char_end: greet.length,
      },
      // Invented: not in the document.
      {
        rule_type: 'prohibition',
        action: 'swear',
        consequence: {},
        natural_language: 'No swearing.',
        source_text: 'Agents must not swear.',
        char_start: 0,
        char_end: 22,
      },
      // Unusable: no rule type.
      { action: 'x', natural_language: 'y', source_text: share },
      'not even an object',
    ],
  };
}

describe('POST /v1/policies/{policy_id}/extract-rules', () => {
  it('stores the rules the model finds as drafts, with verified source locations', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token, { source_text: DOCUMENT, category: 'privacy' });
    fake.next.push({ content: JSON.stringify(modelAnswer()) });
    const res = await c.post(`/v1/policies/${policy.id}/extract-rules`, token);
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.skipped).toBe(3);
    expect(body.results).toHaveLength(3);
    for (const rule of body.results) {
      expectReferenceShape(rule, 'PolicyRule');
      expect(rule).toMatchObject({ policy_id: policy.id, status: 'draft', reviewed_by: null });
      expect(rule.provenance).toMatchObject({ extracted_by: 'llm', model_used: MODEL });
      const loc = rule.provenance.source_location;
      expect(slice(DOCUMENT, loc.char_start, loc.char_end)).toBe(loc.source_text);
    }
    const [share, refund, greet] = body.results;
    expect(share).toMatchObject({
      rule_type: 'prohibition',
      action: 'share_customer_email',
      target: 'customer_email',
      category: 'privacy',
      tags: ['pii'],
      consequence: { action: 'block', severity: 'high', message: 'Emails stay private.' },
      constraints: [{ condition_type: 'data', field: 'recipient', operator: 'neq', value: 'data_subject' }],
    });
    expect(share.provenance.confidence_score).toBe(0.93);
    expect(share.provenance.source_location).toMatchObject({ section: 'Sharing', paragraph: 4 });
    expect(share.provenance.source_location.char_start).toBe(cpIndex(DOCUMENT, 'Agents must never'));

    // Found despite the different spacing; the document's own text is quoted.
    expect(refund.provenance.source_location.source_text).toBe('Agents must    escalate refund requests above 500 EUR to a human.');
    expect(refund.provenance.source_location.char_start).toBe(cpIndex(DOCUMENT, 'Agents must    escalate'));
    expect(refund.provenance.confidence_score).toBe(1);
    expect(refund.consequence).toEqual({ action: 'warn', severity: 'medium', message: null });
    expect(refund.category).toBe('operational');

    expect(greet.provenance.source_location).toMatchObject({
      section: 'Tone',
      char_start: cpIndex(DOCUMENT, 'Agents should greet'),
      source_text: 'Agents should greet users politely.',
    });
    expect(greet.provenance.confidence_score).toBeNull();
    expect(greet.category).toBe('privacy'); // the policy's category when the model's is not one

    // They are stored: the rule list shows them, in order.
    const listed = await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}&status=draft`, token));
    expect(listed.results.map((r: { id: string }) => r.id)).toEqual(body.results.map((r: { id: string }) => r.id));
    expect(listed.results).toEqual(body.results);
  });

  it('calls the endpoint as an OpenAI-compatible client, and never shows or logs the key', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token, { source_text: DOCUMENT });
    fake.next.push({ content: '```json\n{"rules": []}\n```' });
    const res = await c.post(`/v1/policies/${policy.id}/extract-rules`, token);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toEqual({ results: [], total: 0, skipped: 0 });
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(request?.body).toMatchObject({ model: MODEL, response_format: { type: 'json_object' }, temperature: 0 });
    expect(request?.body.messages[0].role).toBe('system');
    expect(request?.body.messages[1].content).toContain(DOCUMENT);

    // An endpoint that fails (and echoes the key in its error body) is a 503 that says so, without the key.
    fake.next.push({ status: 401 });
    const failed = await c.post(`/v1/policies/${policy.id}/extract-rules`, token);
    expectDetail(failed, 503);
    expect(failed.json().detail).toContain('HTTP 401');
    expect(failed.body).not.toContain(API_KEY);
    expect(logs.length).toBeGreaterThan(0);
    expect(logs).not.toContain(API_KEY);
  });

  it('answers 503 when the model does not answer JSON, and stores nothing', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token, { source_text: DOCUMENT });
    fake.next.push({ content: 'Sure! Here are the rules: ...' });
    expectDetail(await c.post(`/v1/policies/${policy.id}/extract-rules`, token), 503);
    fake.next.push({ raw: '<html>oops</html>' });
    expectDetail(await c.post(`/v1/policies/${policy.id}/extract-rules`, token), 503);
    expect((await c.ok(c.get(`/v1/policies/${policy.id}/rules`, token))).total).toBe(0);
  });

  it('answers 400 for a policy without text, 401, 403 and 404 as usual, without calling the model', async () => {
    const token = world.teamA.member.token;
    const empty = await c.createPolicy(token);
    expectDetail(await c.post(`/v1/policies/${empty.id}/extract-rules`, token), 400);
    const policy = await c.createPolicy(token, { source_text: DOCUMENT });
    expectDetail(await c.post(`/v1/policies/${policy.id}/extract-rules`, undefined), 401);
    const key = await createApiKey(app, token, ['policy:read']);
    expectDetail(await c.post(`/v1/policies/${policy.id}/extract-rules`, key), 403);
    expectDetail(await c.post(`/v1/policies/${policy.id}/extract-rules`, world.teamB.member.token), 404);
    expect(fake.requests).toHaveLength(0);
  });
});

describe('without a configured model', () => {
  let t: TestApp;
  let w: World;
  beforeAll(async () => {
    t = await buildTestApp();
    w = await createWorld(t.app);
  });
  afterAll(async () => t.close());

  it('answers 503 with a message that says what to configure', async () => {
    const local = policyClient(() => t.app);
    const policy = await local.createPolicy(w.teamA.member.token, { source_text: DOCUMENT });
    const res = await local.post(`/v1/policies/${policy.id}/extract-rules`, w.teamA.member.token);
    expectDetail(res, 503);
    expect(res.json().detail).toContain('WARDEN_LLM_BASE_URL');
  });
});

describe('loadConfig: WARDEN_LLM_*', () => {
  it('is off when unset, on with a base URL and a model, and checks what it is given', () => {
    expect(loadConfig({}, '/srv').llm).toBeUndefined();
    expect(loadConfig({ WARDEN_LLM_BASE_URL: 'https://llm.example.com/v1/', WARDEN_LLM_MODEL: 'm', WARDEN_LLM_API_KEY: 'k' }, '/srv').llm).toEqual({
      baseUrl: 'https://llm.example.com/v1',
      apiKey: 'k',
      model: 'm',
    });
    expect(loadConfig({ WARDEN_LLM_BASE_URL: 'http://127.0.0.1:11434/v1', WARDEN_LLM_MODEL: 'llama3' }, '/srv').llm?.apiKey).toBeUndefined();
    expect(() => loadConfig({ WARDEN_LLM_BASE_URL: 'https://llm.example.com/v1' }, '/srv')).toThrow(ConfigError);
    expect(() => loadConfig({ WARDEN_LLM_MODEL: 'm' }, '/srv')).toThrow(ConfigError);
    expect(() => loadConfig({ WARDEN_LLM_API_KEY: 'k' }, '/srv')).toThrow(ConfigError);
    expect(() => loadConfig({ WARDEN_LLM_BASE_URL: 'ftp://x', WARDEN_LLM_MODEL: 'm' }, '/srv')).toThrow(ConfigError);
    expect(() => loadConfig({ WARDEN_LLM_BASE_URL: 'https://user:secret@x/v1', WARDEN_LLM_MODEL: 'm' }, '/srv')).toThrow(ConfigError);
  });
});
