import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, json, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { createAgent, createWorld, type World } from './helpers/factories.js';
import { expect422 } from './helpers/reference.js';

/**
 * Input that one engine would store and the other refuse (issue 7 review): both engines give
 * the same 422, at the field that holds it, and nothing is written.
 */
let t: TestApp;
let world: World;
let token: string;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  token = world.teamA.member.token;
});
afterAll(async () => t.close());

async function rowCount(table: 'agents' | 'policies'): Promise<number> {
  const result = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(table)}`.execute(t.database.db);
  return Number(result.rows[0]?.n);
}

describe(`NUL characters (U+0000) on ${TEST_ENGINE}`, () => {
  it('refuses a NUL in a body string with 422 at its field, and stores nothing', async () => {
    const before = await rowCount('agents');
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: bearer(token),
      payload: { agent_name: 'bad\u0000name', model_name: 'm' },
    });
    expect422(res, ['body', 'agent_name'], 'string_pattern_mismatch');
    expect(await rowCount('agents')).toBe(before);
  });

  it('finds a NUL deep in a nested value and in an object key', async () => {
    const agent = await createAgent(t.app, token);
    const nested = await t.app.inject({
      method: 'PUT',
      url: `/v1/agent-configurations/${agent.id}`,
      headers: bearer(token),
      payload: { agent_metadata: { tags: ['fine', 'not\u0000fine'] } },
    });
    expect422(nested, ['body', 'agent_metadata', 'tags', 1], 'string_pattern_mismatch');
    const key = await t.app.inject({
      method: 'PUT',
      url: `/v1/agent-configurations/${agent.id}`,
      headers: bearer(token),
      payload: { import_metadata: { 'k\u0000': 1 } },
    });
    expect422(key, ['body', 'import_metadata', 'k\u0000'], 'string_pattern_mismatch');
    const after = json(await t.app.inject({ method: 'GET', url: `/v1/agent-configurations/${agent.id}`, headers: bearer(token) }));
    expect(after.updated_at).toBe(agent.updated_at);
    expect(after.agent_metadata).toEqual(agent.agent_metadata);
  });

  it('refuses a NUL in a query parameter and in a path parameter', async () => {
    const query = await t.app.inject({ method: 'GET', url: '/v1/policies/?search=a%00b', headers: bearer(token) });
    expect422(query, ['query', 'search'], 'string_pattern_mismatch');
    const path = await t.app.inject({ method: 'GET', url: '/v1/users/%00', headers: bearer(token) });
    expect422(path, ['path', 'user_id'], 'string_pattern_mismatch');
  });

  it('refuses a NUL in a policy name the same way (a second feature, a text column)', async () => {
    const before = await rowCount('policies');
    const res = await t.app.inject({ method: 'POST', url: '/v1/policies/', headers: bearer(token), payload: { name: 'p\u0000', description: 'd' } });
    expect422(res, ['body', 'name'], 'string_pattern_mismatch');
    expect(await rowCount('policies')).toBe(before);
  });
});

describe(`numeric bounds on ${TEST_ENGINE}`, () => {
  const put = (id: string, payload: Record<string, unknown>) =>
    t.app.inject({ method: 'PUT', url: `/v1/agent-configurations/${id}`, headers: bearer(token), payload });

  it('writes a test_score number out digit for digit, never rounded and never in exponent form', async () => {
    const agent = await createAgent(t.app, token);
    for (const [sent, stored] of [
      [1e-7, '0.0000001'],
      [1.5e21, '1500000000000000000000'],
      [-2.5e-10, '-0.00000000025'],
      [0.30000000000000004, '0.30000000000000004'],
      [1e22, '10000000000000000000000'],
      [1e-25, '0.0000000000000000000000001'],
    ] as const) {
      const res = await put(agent.id, { test_score: sent });
      expect(res.statusCode, res.body).toBe(200);
      expect(json(res).test_score, String(sent)).toBe(stored);
    }
  });

  it('refuses a test_score whose digits do not fit, as a number or as a string, and keeps the old one', async () => {
    const agent = json(await put((await createAgent(t.app, token)).id, { test_score: '0.5' }));
    for (const sent of [1e308, -1e300, 5e-324, `.${'9'.repeat(63)}`, `-.${'1'.repeat(62)}`]) {
      expect422(await put(agent.id, { test_score: sent }), ['body', 'test_score'], 'decimal_max_digits');
    }
    const after = json(await t.app.inject({ method: 'GET', url: `/v1/agent-configurations/${agent.id}`, headers: bearer(token) }));
    expect(after.test_score).toBe('0.5');
    expect(after.updated_at).toBe(agent.updated_at);
  });

  it('takes a rate limit up to 2^53 − 1 (a bigint column) and refuses more with a 422, not a database error', async () => {
    const agent = await createAgent(t.app, token);
    expect422(await put(agent.id, { rate_limit_requests_per_minute: 2 ** 53 }), ['body', 'rate_limit_requests_per_minute'], 'less_than_equal');
    expect422(await put(agent.id, { rate_limit_requests_per_minute: 1e300 }), ['body', 'rate_limit_requests_per_minute'], 'less_than_equal');
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: bearer(token),
      payload: { agent_name: 'a', model_name: 'm', rate_limit_requests_per_minute: 2 ** 53 },
    });
    expect422(created, ['body', 'rate_limit_requests_per_minute'], 'less_than_equal');
    expect(json(await put(agent.id, { rate_limit_requests_per_minute: 2 ** 31 })).rate_limit_requests_per_minute).toBe(2 ** 31);
    expect(json(await put(agent.id, { rate_limit_requests_per_minute: 9_007_199_254_740_991 })).rate_limit_requests_per_minute).toBe(9_007_199_254_740_991);
  });

});
