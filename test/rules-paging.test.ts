import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { ANCHOR_STEP } from '../src/modules/rules/rules.repo.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createWorld, type World } from './helpers/factories.js';

// Deep pages of GET /v1/rules/ start from a remembered anchor row (policies.repo.ts): they
// must be exactly the pages OFFSET would give, and follow every write.

const TOTAL = 5 * ANCHOR_STEP + 537;
const STATUSES = ['draft', 'approved', 'rejected', 'modified'] as const;

let t: TestApp;
let world: World;
let token: string;
let expected: Array<{ id: string; created_at: number; status: string }>;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  token = world.teamA.member.token; // the member's primary team is team A
  const policy = await t.app.inject({ method: 'POST', url: '/v1/policies/', headers: bearer(token), payload: { name: 'Paging', category: 'privacy' } });
  expect(policy.statusCode, policy.body).toBe(201);
  const policyId = policy.json().id as string;
  const rows = Array.from({ length: TOTAL }, (_, i) => ({
    id: newId(),
    policy_id: policyId,
    team_id: world.teamA.id,
    rule_id: `R-${i}`,
    rule_type: 'permission',
    action: 'use',
    constraints: '[]',
    constraint_logic: 'all',
    consequence: '{"action":"warn","severity":"low","message":null}',
    natural_language: `Rule ${i}`,
    status: STATUSES[i % 4] as string,
    // Seven rules per second: ties on created_at are broken by id.
    created_at: 1_700_000_000 + Math.floor(i / 7),
    updated_at: 1_700_000_000,
  }));
  for (let i = 0; i < rows.length; i += 500) await t.database.db.insertInto('policy_rules').values(rows.slice(i, i + 500)).execute();
  expected = rows
    .map(({ id, created_at, status }) => ({ id, created_at, status }))
    .sort((a, b) => a.created_at - b.created_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
});
afterAll(async () => t.close());

const page = async (query: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/v1/rules/?${query}`, headers: bearer(token) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { results: Array<{ id: string }>; count: number };
};

describe('deep pages of GET /v1/rules/', () => {
  it('are the pages OFFSET gives, at and around every anchor', async () => {
    for (const offset of [
      0,
      ANCHOR_STEP - 50,
      ANCHOR_STEP - 1,
      ANCHOR_STEP,
      ANCHOR_STEP + 1,
      2 * ANCHOR_STEP - 7,
      2 * ANCHOR_STEP + 500,
      TOTAL - 3,
      TOTAL,
      TOTAL + ANCHOR_STEP,
    ]) {
      const { results, count } = await page(`limit=100&offset=${offset}`);
      expect(count).toBe(TOTAL);
      expect(results.map((r) => r.id)).toEqual(expected.slice(offset, offset + 100).map((r) => r.id));
    }
  });

  it('are right with a filter too', async () => {
    const approved = expected.filter((r) => r.status === 'approved');
    for (const offset of [ANCHOR_STEP - 10, ANCHOR_STEP + 3]) {
      const { results, count } = await page(`status=approved&limit=50&offset=${offset - ANCHOR_STEP / 2}`);
      expect(count).toBe(approved.length);
      expect(results.map((r) => r.id)).toEqual(approved.slice(offset - ANCHOR_STEP / 2, offset - ANCHOR_STEP / 2 + 50).map((r) => r.id));
    }
  });

  it('follow a write that moves every later row', async () => {
    const offset = ANCHOR_STEP + 20;
    expect((await page(`limit=10&offset=${offset}`)).results.map((r) => r.id)).toEqual(expected.slice(offset, offset + 10).map((r) => r.id));
    // Remove a rule before the anchor: everything after it moves up by one.
    const removed = expected[5] as { id: string };
    await t.database.db.deleteFrom('policy_rules').where('id', '=', removed.id).execute();
    expected.splice(5, 1);
    const after = await page(`limit=10&offset=${offset}`);
    expect(after.count).toBe(TOTAL - 1);
    expect(after.results.map((r) => r.id)).toEqual(expected.slice(offset, offset + 10).map((r) => r.id));
  });

  it('find each anchor from a lower one or from the start, in any order, before and after a write', async () => {
    const check = async (offset: number) => {
      const { results } = await page(`limit=30&offset=${offset}`);
      expect(results.map((r) => r.id), `offset ${offset}`).toEqual(expected.slice(offset, offset + 30).map((r) => r.id));
    };
    // Ascending: every anchor after the first is found from the one below it.
    for (let k = 1; k <= 5; k++) await check(k * ANCHOR_STEP + 13);
    const removed = expected[ANCHOR_STEP + 2] as { id: string };
    await t.database.db.deleteFrom('policy_rules').where('id', '=', removed.id).execute();
    expected.splice(ANCHOR_STEP + 2, 1);
    // After the write nothing is known: a deep anchor from the start, one above it from it, then lower ones.
    for (const offset of [4 * ANCHOR_STEP + 1, 5 * ANCHOR_STEP + 400, 2 * ANCHOR_STEP - 1, ANCHOR_STEP, 3 * ANCHOR_STEP + 999]) await check(offset);
  });
});
