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
