import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';
import { policyClient } from './policy-fixtures.js';

let t: TestApp;
let world: World;
const c = policyClient(() => t.app);
const MISSING = '018f0000-0000-7000-8000-000000000000';
const ids = (page: { results: Array<{ id: string }> }) => page.results.map((r) => r.id);

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

/** A rule with every field of seed 2.6 set. */
const FULL_RULE = {
  rule_id: 'PII-7',
  rule_type: 'obligation',
  action: 'mask_personal_data',
  target: 'customer_records',
  assignee: 'system',
  constraints: [
    { condition_type: 'data', field: 'data_type', operator: 'in', value: ['email', 'phone'] },
    { condition_type: 'context', field: 'channel', operator: 'eq', value: 'public_chat' },
    { condition_type: 'context', field: 'turn', operator: 'gte', value: 3 },
    { condition_type: 'user', field: 'verified', operator: 'eq', value: false },
    { condition_type: 'content', field: 'score', operator: 'lt', value: 0.5 },
  ],
  constraint_logic: 'any',
  consequence: { action: 'redact', severity: 'critical', message: 'Masked.' },
  natural_language: 'Personal data must be masked in public chats.',
  provenance: {
    extracted_by: 'llm',
    model_used: 'gpt-4o-mini',
    confidence_score: 0.87,
    source_location: { section: '2. Masking', paragraph: 4, char_start: 120, char_end: 166, source_text: 'Personal data must be masked in public chats.' },
  },
  category: 'privacy',
  tags: ['pii', 'masking'],
};

describe('POST /v1/policies/{policy_id}/rules', () => {
  it('round-trips every field of seed 2.6', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id, FULL_RULE);
    expectReferenceShape(rule, 'PolicyRule');
    expect(rule).toMatchObject({
      ...FULL_RULE,
      policy_id: policy.id,
      status: 'draft',
      reviewed_by: null,
      reviewed_at: null,
      review_notes: null,
      created_at: t.clock.current,
      updated_at: t.clock.current,
    });
    const got = await c.ok(c.get(`/v1/rules/${rule.id}`, world.teamA.owner.token));
    expect(got).toEqual(rule);
    const listed = await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}`, world.teamA.member.token));
    expect(listed.results[0]).toEqual(rule);
  });

  it('fills the defaults', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const res = await c.post(`/v1/policies/${policy.id}/rules`, world.teamA.member.token, {
      rule_type: 'permission',
      action: 'answer_questions',
      consequence: {},
      natural_language: 'The agent may answer product questions.',
      conditions: [{ anything: 1 }],
    });
    expect(res.statusCode, res.body).toBe(201);
    const rule = res.json();
    expectReferenceShape(rule, 'PolicyRule');
    expect(rule).toMatchObject({
      target: null,
      assignee: 'agent',
      constraints: [],
      constraint_logic: 'all',
      consequence: { action: 'warn', severity: 'medium', message: null },
      category: 'security',
      tags: null,
      status: 'draft',
      provenance: { extracted_by: 'manual', model_used: null, confidence_score: null, source_location: null },
    });
    expect(rule.rule_id).toMatch(/^R-[0-9a-f]{8}$/);
    expect(rule).not.toHaveProperty('conditions');
  });

  it("accepts every body the reference's PolicyRuleCreate and PolicyRuleUpdate accept", async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const loose = {
      rule_type: 'obligation',
      action: 'notify_dpo',
      assignee: 'data_protection_officer',
      constraints: [
        { condition_type: 'time', field: 'hour', operator: 'between', value: ['9', '17'] },
        { kind: 'geo', regions: ['EU', 'UK'], nested: { strict: true } },
      ],
      constraint_logic: 'at_least_two',
      consequence: { action: 'page_on_call', severity: 'high', message: null, ticket_queue: 'privacy', escalate_after_minutes: 15 },
      natural_language: 'The DPO must be notified of every breach.',
    };
    const rule = await c.createRule(token, policy.id, loose);
    expectReferenceShape(rule, 'PolicyRule');
    expect(rule).toMatchObject(loose);
    expect(await c.ok(c.get(`/v1/rules/${rule.id}`, token))).toEqual(rule);
    // The update body is as loose.
    const patch = { assignee: 'anyone', constraint_logic: 'custom', constraints: [{ free: 'form' }], consequence: { action: 'quarantine', extra: [1, 2] } };
    const updated = await c.ok(c.patch(`/v1/rules/${rule.id}`, token, patch));
    expectReferenceShape(updated, 'PolicyRule');
    expect(updated).toMatchObject({ ...patch, consequence: { action: 'quarantine', severity: 'medium', message: null, extra: [1, 2] } });
  });

  it('records the reviewer of a rule created already approved', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id, { status: 'approved' });
    expect(rule).toMatchObject({ status: 'approved', reviewed_by: world.teamA.member.id, reviewed_at: t.clock.current });
  });

  it('validates the body', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const url = `/v1/policies/${policy.id}/rules`;
    const base = { rule_type: 'prohibition', action: 'x', consequence: {}, natural_language: 'y' };
    expect422(await c.post(url, token, { ...base, rule_type: undefined }), ['body', 'rule_type'], 'missing');
    expect422(await c.post(url, token, { ...base, consequence: undefined }), ['body', 'consequence'], 'missing');
    expect422(await c.post(url, token, { ...base, rule_type: 'duty' }), ['body', 'rule_type'], 'enum');
    expect422(await c.post(url, token, { ...base, action: '' }), ['body', 'action'], 'string_too_short');
    expect422(await c.post(url, token, { ...base, action: 'a'.repeat(101) }), ['body', 'action'], 'string_too_long');
    expect422(await c.post(url, token, { ...base, natural_language: '' }), ['body', 'natural_language'], 'string_too_short');
    expect422(await c.post(url, token, { ...base, status: 'done' }), ['body', 'status'], 'enum');
    expect422(await c.post(url, token, { ...base, category: 'finance' }), ['body', 'category'], 'enum');
    expect422(await c.post(url, token, { ...base, consequence: { severity: 'huge' } }), ['body', 'consequence', 'severity'], 'enum');
    expect422(await c.post(url, token, { ...base, constraints: ['not an object'] }), ['body', 'constraints', 0], 'model_attributes_type');
    // Not nullable in the reference's PolicyRuleCreate.
    expect422(await c.post(url, token, { ...base, category: null }), ['body', 'category'], 'enum');
    expect422(await c.post(url, token, { ...base, constraints: null }), ['body', 'constraints'], 'list_type');
    expect422(await c.post(url, token, { ...base, constraint_logic: null }), ['body', 'constraint_logic'], 'string_type');
    expect422(await c.post(url, token, { ...base, provenance: { confidence_score: 2 } }), ['body', 'provenance', 'confidence_score'], 'less_than_equal');
    expect422(await c.post(url, token, { ...base, provenance: { extracted_by: 'robot' } }), ['body', 'provenance', 'extracted_by'], 'enum');
    expect422(
      await c.post(url, token, { ...base, provenance: { source_location: { char_start: -1 } } }),
      ['body', 'provenance', 'source_location', 'char_start'],
      'greater_than_equal',
    );
    expect422(
      await c.post(url, token, { ...base, provenance: { source_location: { source_text: 'x'.repeat(20_001) } } }),
      ['body', 'provenance', 'source_location', 'source_text'],
      'string_too_long',
    );
    expect((await c.post(url, token, { ...base, provenance: { source_location: { source_text: 'x'.repeat(20_000) } } })).statusCode).toBe(201);
    expect422(await c.post(`/v1/policies/nope/rules`, token, base), ['path', 'policy_id'], 'uuid_parsing');
  });

  it('answers 401, 403, 404 and 409 where it must', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const body = { rule_type: 'prohibition', action: 'x', consequence: {}, natural_language: 'y' };
    expectDetail(await c.post(`/v1/policies/${policy.id}/rules`, undefined, body), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await c.post(`/v1/policies/${policy.id}/rules`, key, body), 403);
    expectDetail(await c.post(`/v1/policies/${policy.id}/rules`, world.teamB.member.token, body), 404);
    expectDetail(await c.post(`/v1/policies/${MISSING}/rules`, world.teamA.member.token, body), 404);
    const id = '018f2222-0000-7000-8000-000000000001';
    await c.createRule(world.teamA.member.token, policy.id, { id });
    expectDetail(await c.post(`/v1/policies/${policy.id}/rules`, world.teamA.member.token, { ...body, id }), 409);
  });
});

describe('GET /v1/policies/{policy_id}/rules', () => {
  it("pages a policy's rules in creation order with the total", async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await c.createRule(token, policy.id, { rule_id: `R${i}` })).id);
    const page = await c.ok(c.get(`/v1/policies/${policy.id}/rules?limit=2&offset=1`, token));
    expectReferenceShape(page, 'src__service_agent_environment__api__policies__RuleListResponse');
    expect(page.total).toBe(5);
    expect(ids(page)).toEqual(made.slice(1, 3));
    expect422(await c.get(`/v1/policies/${policy.id}/rules?limit=0`, token), ['query', 'limit'], 'greater_than_equal');
    expect422(await c.get(`/v1/policies/${policy.id}/rules?limit=1001`, token), ['query', 'limit'], 'less_than_equal');
    expect422(await c.get(`/v1/policies/${policy.id}/rules?offset=-1`, token), ['query', 'offset'], 'greater_than_equal');
    expectDetail(await c.get(`/v1/policies/${policy.id}/rules`, world.teamB.member.token), 404);
    expectDetail(await c.get(`/v1/policies/${policy.id}/rules`), 401);
    const key = await createApiKey(t.app, token, ['agent:read']);
    expectDetail(await c.get(`/v1/policies/${policy.id}/rules`, key), 403);
  });
});

describe('GET /v1/rules/ (seed 4.3)', () => {
  let local: TestApp;
  let w: World;
  const l = policyClient(() => local.app);
  beforeAll(async () => {
    local = await buildTestApp();
    w = await createWorld(local.app);
  });
  afterAll(async () => local.close());

  it("lists the team's rules in creation order, count = all matching, default limit 100", async () => {
    const token = w.teamA.member.token;
    const p1 = await l.createPolicy(token, { category: 'privacy' });
    const p2 = await l.createPolicy(token, { category: 'security' });
    const made: string[] = [];
    for (let i = 0; i < 105; i++) {
      if (i % 20 === 0) local.clock.advance(1);
      const rule = await l.createRule(token, i % 3 === 0 ? p2.id : p1.id, { category: i % 2 === 0 ? 'privacy' : 'brand' });
      made.push(rule.id);
    }
    const other = await l.createPolicy(w.teamB.member.token);
    await l.createRule(w.teamB.member.token, other.id);

    const page = await l.ok(l.get('/v1/rules/', token));
    expectReferenceShape(page, 'src__service_agent_environment__api__rules__RuleListResponse');
    expect(page.count).toBe(105);
    expect(ids(page)).toEqual(made.slice(0, 100));
    for (const rule of page.results) expectReferenceShape(rule, 'PolicyRule');
    const last = await l.ok(l.get('/v1/rules/?offset=100', token));
    expect(ids(last)).toEqual(made.slice(100));
    expect(last.count).toBe(105);
    expect((await l.ok(l.get('/v1/rules/?offset=500', token))).results).toEqual([]);

    // Filters, alone and together.
    const approvedIds = [made[1], made[4], made[9]] as string[];
    for (const id of approvedIds) await l.ok(l.post(`/v1/rules/${id}/approve`, token));
    const approved = await l.ok(l.get('/v1/rules/?status=approved', token));
    expect(ids(approved)).toEqual(approvedIds);
    expect(approved.count).toBe(3);
    const brand = await l.ok(l.get('/v1/rules/?category=brand&limit=1000', token));
    expect(brand.count).toBe(52);
    expect(ids(brand)).toEqual(made.filter((_, i) => i % 2 === 1));
    const p2Privacy = await l.ok(l.get(`/v1/rules/?policy_id=${p2.id}&category=privacy&limit=1000`, token));
    expect(ids(p2Privacy)).toEqual(made.filter((_, i) => i % 3 === 0 && i % 2 === 0));
    const combined = await l.ok(l.get(`/v1/rules/?policy_id=${p1.id}&status=approved&category=brand`, token));
    expect(ids(combined)).toEqual([made[1]]);
    expect((await l.ok(l.get('/v1/rules/?status=modified', token))).count).toBe(0);
  });

  it('shows no other team\'s rules, even when asked for its policy', async () => {
    const other = await l.createPolicy(w.teamB.member.token);
    await l.createRule(w.teamB.member.token, other.id);
    const res = await l.ok(l.get(`/v1/rules/?policy_id=${other.id}`, w.teamA.member.token));
    expect(res).toEqual({ results: [], count: 0 });
    expect((await l.ok(l.get(`/v1/rules/?policy_id=${MISSING}`, w.teamA.member.token))).count).toBe(0);
    const mine = await l.ok(l.get('/v1/rules/?limit=1000', w.teamB.member.token));
    expect(mine.results.some((r: { policy_id: string }) => r.policy_id === other.id)).toBe(true);
    // A super admin reads every team's policies, so the filter lists them (their own list is their primary team's).
    expect((await l.ok(l.get(`/v1/rules/?policy_id=${other.id}`, w.admin.token))).count).toBe(1);
    expect(ids(await l.ok(l.get('/v1/rules/?limit=1000', w.admin.token))).length).toBe(0);
    const teamA = await l.ok(l.get('/v1/rules/?limit=1000', w.teamA.member.token));
    expect(teamA.results.some((r: { policy_id: string }) => r.policy_id === other.id)).toBe(false);
  });

  it('keeps pages disjoint and stable while rules are added', async () => {
    const token = w.teamB.member.token;
    const policy = await l.createPolicy(token);
    const before = await l.ok(l.get(`/v1/rules/?policy_id=${policy.id}`, token));
    expect(before.count).toBe(0);
    const made: string[] = [];
    for (let i = 0; i < 25; i++) made.push((await l.createRule(token, policy.id)).id);
    const url = (offset: number) => `/v1/rules/?policy_id=${policy.id}&limit=10&offset=${offset}`;
    const first = await l.ok(l.get(url(0), token));
    // Rules added between two page reads land after the existing ones.
    local.clock.advance(1);
    for (let i = 0; i < 7; i++) made.push((await l.createRule(token, policy.id)).id);
    const second = await l.ok(l.get(url(10), token));
    const third = await l.ok(l.get(url(20), token));
    const fourth = await l.ok(l.get(url(30), token));
    expect(first.count).toBe(25);
    expect(second.count).toBe(32);
    const seen = [...ids(first), ...ids(second), ...ids(third), ...ids(fourth)];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(made);
    expect(ids(await l.ok(l.get(url(10), token)))).toEqual(ids(second));
  });

  it('validates the query with the reference error shapes', async () => {
    const token = w.teamA.member.token;
    expect422(await l.get('/v1/rules/?limit=0', token), ['query', 'limit'], 'greater_than_equal');
    expect422(await l.get('/v1/rules/?limit=1001', token), ['query', 'limit'], 'less_than_equal');
    expect422(await l.get('/v1/rules/?offset=-1', token), ['query', 'offset'], 'greater_than_equal');
    expect422(await l.get('/v1/rules/?limit=abc', token), ['query', 'limit'], 'int_parsing');
    expect422(await l.get('/v1/rules/?status=pending', token), ['query', 'status'], 'enum');
    expect422(await l.get('/v1/rules/?category=finance', token), ['query', 'category'], 'enum');
    expect422(await l.get('/v1/rules/?policy_id=12', token), ['query', 'policy_id'], 'uuid_parsing');
    expect((await l.ok(l.get('/v1/rules/?limit=1000&offset=0', token))).results.length).toBeLessThanOrEqual(1000);
    expect((await l.get('/v1/rules', token)).statusCode).toBe(200);
  });

  it('answers 401 without a credential and 403 to a key without policy:read', async () => {
    expectDetail(await l.get('/v1/rules/'), 401);
    expect((await l.get('/v1/rules/')).headers['www-authenticate']).toBe('Bearer');
    const key = await createApiKey(local.app, w.teamA.member.token, ['agent:read']);
    expectDetail(await l.get('/v1/rules/', key), 403);
    const reader = await createApiKey(local.app, w.teamA.member.token, ['policy:read']);
    expect((await l.get('/v1/rules/', reader)).statusCode).toBe(200);
  });
});

describe('GET, PATCH and DELETE /v1/rules/{rule_id}', () => {
  it('gets a rule; 404 for another team or an unknown id; 422 for a bad id', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    expectReferenceShape(await c.ok(c.get(`/v1/rules/${rule.id}`, world.teamA.member.token)), 'PolicyRule');
    expectDetail(await c.get(`/v1/rules/${rule.id}`, world.teamB.member.token), 404);
    expectDetail(await c.get(`/v1/rules/${MISSING}`, world.teamA.member.token), 404);
    expect422(await c.get('/v1/rules/abc', world.teamA.member.token), ['path', 'rule_id'], 'uuid_parsing');
    expectDetail(await c.get(`/v1/rules/${rule.id}`), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    expectDetail(await c.get(`/v1/rules/${rule.id}`, key), 403);
  });

  it('sets an approved or rejected rule to modified when what it says changes', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id, FULL_RULE);
    await c.ok(c.post(`/v1/rules/${rule.id}/approve?notes=ok`, world.teamA.owner.token));
    t.clock.advance(30);
    // Labels are not meaning, and sending the same values changes nothing.
    const relabelled = await c.ok(
      c.patch(`/v1/rules/${rule.id}`, token, { tags: ['x'], rule_id: 'PII-8', action: FULL_RULE.action, constraints: FULL_RULE.constraints }),
    );
    expect(relabelled).toMatchObject({ status: 'approved', tags: ['x'], rule_id: 'PII-8', updated_at: t.clock.current });
    const modified = await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { natural_language: 'Personal data must be masked everywhere.' }));
    expectReferenceShape(modified, 'PolicyRule');
    expect(modified).toMatchObject({
      status: 'modified',
      natural_language: 'Personal data must be masked everywhere.',
      reviewed_by: world.teamA.owner.id,
      review_notes: 'ok',
    });

    await c.ok(c.post(`/v1/rules/${rule.id}/reject?reason=no`, token));
    expect((await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { consequence: { action: 'block', severity: 'low' } }))).status).toBe('modified');
    await c.ok(c.post(`/v1/rules/${rule.id}/approve`, token));
    expect((await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { constraints: [] }))).status).toBe('modified');
    await c.ok(c.post(`/v1/rules/${rule.id}/approve`, token));
    expect((await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { target: null }))).status).toBe('modified');
  });

  it('compares JSON objects whatever the order of their keys, and lists in order', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id, {
      ...FULL_RULE,
      consequence: { action: 'redact', severity: 'critical', message: 'Masked.', ticket: { queue: 'p', level: 2 } },
    });
    await c.ok(c.post(`/v1/rules/${rule.id}/approve`, token));
    const reversed = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).reverse());
    const same = await c.ok(
      c.patch(`/v1/rules/${rule.id}`, token, {
        constraints: FULL_RULE.constraints.map(reversed),
        consequence: { ticket: { level: 2, queue: 'p' }, message: 'Masked.', severity: 'critical', action: 'redact' },
      }),
    );
    expect(same.status).toBe('approved');
    // The order of a list is part of what it says.
    const swapped = [FULL_RULE.constraints[1], FULL_RULE.constraints[0], ...FULL_RULE.constraints.slice(2)];
    expect((await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { constraints: swapped }))).status).toBe('modified');
  });

  it('replaces the whole consequence on PATCH (no merge with the stored one)', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id, { consequence: { action: 'block', severity: 'critical', message: 'No.', ticket: 'T-1' } });
    const updated = await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { consequence: { action: 'redact' } }));
    expect(updated.consequence).toEqual({ action: 'redact', severity: 'medium', message: null });
  });

  it('keeps a status the PATCH names, and records the reviewer of a status set to approved', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id);
    await c.ok(c.post(`/v1/rules/${rule.id}/approve`, token));
    const stillApproved = await c.ok(c.patch(`/v1/rules/${rule.id}`, world.teamA.owner.token, { action: 'share_personal_data', status: 'approved' }));
    expect(stillApproved).toMatchObject({ status: 'approved', action: 'share_personal_data', reviewed_by: world.teamA.owner.id });
    const draft = await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { status: 'draft', action: 'x' }));
    expect(draft.status).toBe('draft');
    // A draft stays a draft when edited.
    expect((await c.ok(c.patch(`/v1/rules/${rule.id}`, token, { action: 'y' }))).status).toBe('draft');
  });

  it('null clears nullable fields and leaves the others', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id, FULL_RULE);
    const updated = await c.ok(
      c.patch(`/v1/rules/${rule.id}`, token, {
        target: null,
        assignee: null,
        category: null,
        tags: null,
        provenance: null,
        action: null,
        natural_language: null,
        constraints: null,
        consequence: null,
        status: null,
        constraint_logic: null,
      }),
    );
    expectReferenceShape(updated, 'PolicyRule');
    expect(updated).toMatchObject({
      target: null,
      assignee: null,
      category: null,
      tags: null,
      provenance: null,
      action: FULL_RULE.action,
      natural_language: FULL_RULE.natural_language,
      constraints: FULL_RULE.constraints,
      consequence: FULL_RULE.consequence,
      status: 'draft',
      constraint_logic: 'any',
    });
  });

  it('validates the body and answers 401, 403, 404', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id);
    expect422(await c.patch(`/v1/rules/${rule.id}`, token, { status: 'done' }), ['body', 'status'], 'enum');
    expect422(await c.patch(`/v1/rules/${rule.id}`, token, { rule_type: 'duty' }), ['body', 'rule_type'], 'enum');
    expect422(await c.patch(`/v1/rules/${rule.id}`, token, { action: '' }), ['body', 'action'], 'string_too_short');
    expect422(await c.patch(`/v1/rules/${rule.id}`, token, { category: 'finance' }), ['body', 'category'], 'enum');
    expectDetail(await c.patch(`/v1/rules/${rule.id}`, undefined, { action: 'x' }), 401);
    const key = await createApiKey(t.app, token, ['policy:read']);
    expectDetail(await c.patch(`/v1/rules/${rule.id}`, key, { action: 'x' }), 403);
    expectDetail(await c.patch(`/v1/rules/${rule.id}`, world.teamB.member.token, { action: 'x' }), 404);
  });

  it('deletes a rule', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const rule = await c.createRule(token, policy.id);
    expectDetail(await c.del(`/v1/rules/${rule.id}`), 401);
    const key = await createApiKey(t.app, token, ['policy:read']);
    expectDetail(await c.del(`/v1/rules/${rule.id}`, key), 403);
    expectDetail(await c.del(`/v1/rules/${rule.id}`, world.teamB.member.token), 404);
    expect((await c.del(`/v1/rules/${rule.id}`, token)).statusCode).toBe(204);
    expectDetail(await c.get(`/v1/rules/${rule.id}`, token), 404);
    expectDetail(await c.del(`/v1/rules/${rule.id}`, token), 404);
  });
});

describe('review: approve and reject', () => {
  it('approve sets the status, the reviewer, the time and the optional notes', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    t.clock.advance(60);
    const approved = await c.ok(c.post(`/v1/rules/${rule.id}/approve`, world.teamA.owner.token));
    expectReferenceShape(approved, 'PolicyRule');
    expect(approved).toMatchObject({
      status: 'approved',
      reviewed_by: world.teamA.owner.id,
      reviewed_at: t.clock.current,
      review_notes: null,
      updated_at: t.clock.current,
    });
    const withNotes = await c.ok(c.post(`/v1/rules/${rule.id}/approve?notes=${encodeURIComponent('Checked with legal')}`, world.teamA.member.token));
    expect(withNotes).toMatchObject({ reviewed_by: world.teamA.member.id, review_notes: 'Checked with legal' });
  });

  it('reject needs a reason and records it', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    expect422(await c.post(`/v1/rules/${rule.id}/reject`, world.teamA.member.token), ['query', 'reason'], 'missing');
    expect422(await c.post(`/v1/rules/${rule.id}/reject?reason=`, world.teamA.member.token), ['query', 'reason'], 'string_too_short');
    const rejected = await c.ok(c.post(`/v1/rules/${rule.id}/reject?reason=${encodeURIComponent('Contradicts section 2')}`, world.teamA.member.token));
    expectReferenceShape(rejected, 'PolicyRule');
    expect(rejected).toMatchObject({
      status: 'rejected',
      reviewed_by: world.teamA.member.id,
      reviewed_at: t.clock.current,
      review_notes: 'Contradicts section 2',
    });
  });

  it('answers 401, 403, 404 and 422 like the other operations', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    for (const action of ['approve', 'reject?reason=x']) {
      expectDetail(await c.post(`/v1/rules/${rule.id}/${action}`, undefined), 401);
      expectDetail(await c.post(`/v1/rules/${rule.id}/${action}`, key), 403);
      expectDetail(await c.post(`/v1/rules/${rule.id}/${action}`, world.teamB.member.token), 404);
      expectDetail(await c.post(`/v1/rules/${MISSING}/${action}`, world.teamA.member.token), 404);
      expect422(await c.post(`/v1/rules/xyz/${action}`, world.teamA.member.token), ['path', 'rule_id'], 'uuid_parsing');
    }
    // The rule is unchanged by the refused calls.
    expect((await c.ok(c.get(`/v1/rules/${rule.id}`, world.teamA.member.token))).status).toBe('draft');
  });
});

describe("ids of another team's policies and rules", () => {
  it('a rule under another team\'s policy is a 404; a chosen id taken by any team is the same 409', async () => {
    const a = world.teamA.member.token;
    const b = world.teamB.member.token;
    const policyA = await c.createPolicy(a);
    const policyB = await c.createPolicy(b);
    const body = { rule_type: 'prohibition', action: 'x', consequence: {}, natural_language: 'y' };
    expectDetail(await c.post(`/v1/policies/${policyA.id}/rules`, b, body), 404);
    const ruleA = await c.createRule(a, policyA.id);
    const own = await c.post(`/v1/policies/${policyA.id}/rules`, a, { ...body, id: ruleA.id });
    const foreign = await c.post(`/v1/policies/${policyB.id}/rules`, b, { ...body, id: ruleA.id });
    expectDetail(own, 409);
    expectDetail(foreign, 409);
    expect(foreign.json()).toEqual(own.json());
    // The same for a policy id.
    const ownPolicy = await c.post('/v1/policies/', a, { name: 'x', category: 'custom', id: policyA.id });
    const foreignPolicy = await c.post('/v1/policies/', b, { name: 'x', category: 'custom', id: policyA.id });
    expectDetail(foreignPolicy, 409);
    expect(foreignPolicy.json()).toEqual(ownPolicy.json());
    // Nothing of team A changed.
    expect(await c.ok(c.get(`/v1/rules/${ruleA.id}`, a))).toEqual(ruleA);
  });
});

describe('members of several teams', () => {
  it('GET /v1/rules/?policy_id= lists a policy of any of the caller\'s teams; team_id picks the team, 404 for a team not theirs', async () => {
    // teamA's owner was created in the admin's team first: that is their primary team.
    const owner = world.teamA.owner.token;
    const member = world.teamA.member.token;
    const policy = await c.createPolicy(member);
    const rule = await c.createRule(member, policy.id);
    const byPolicy = await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}`, owner));
    expect(byPolicy).toEqual({ results: [rule], count: 1 });
    expectReferenceShape(byPolicy, 'src__service_agent_environment__api__rules__RuleListResponse');
    // Without team_id: the primary team, which does not hold this rule.
    expect(ids(await c.ok(c.get('/v1/rules/?limit=1000', owner)))).not.toContain(rule.id);
    expect(ids(await c.ok(c.get(`/v1/rules/?team_id=${world.teamA.id}&limit=1000`, owner)))).toContain(rule.id);
    // policy_id and team_id together must agree.
    expect(await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}&team_id=${world.adminTeamId}`, owner))).toEqual({ results: [], count: 0 });
    expectDetail(await c.get(`/v1/rules/?team_id=${world.teamB.id}`, owner), 404);
    expectDetail(await c.get(`/v1/rules/?team_id=${MISSING}`, owner), 404);
    expectDetail(await c.get(`/v1/rules/?team_id=${world.teamB.id}&policy_id=${policy.id}`, owner), 404);
    expect422(await c.get('/v1/rules/?team_id=nope', owner), ['query', 'team_id'], 'uuid_parsing');
    // Another team's member still sees nothing of it.
    expect(await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}`, world.teamB.member.token))).toEqual({ results: [], count: 0 });
    // A super admin reads any team's rules.
    expect(ids(await c.ok(c.get(`/v1/rules/?team_id=${world.teamA.id}&limit=1000`, world.admin.token)))).toContain(rule.id);
  });
});

describe('concurrent writes to one rule', () => {
  it('a PATCH of what a rule says and an approval at once: the PATCH never decides on a status it then overwrites', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const outcomes = new Set<string>();
    for (let i = 0; i < 12; i++) {
      const rule = await c.createRule(token, policy.id);
      const text = `Changed wording ${i}.`;
      const [edit, approval] = await Promise.all([
        c.patch(`/v1/rules/${rule.id}`, token, { natural_language: text }),
        i % 2 === 0 ? c.patch(`/v1/rules/${rule.id}`, token, { status: 'approved' }) : c.post(`/v1/rules/${rule.id}/approve`, token),
      ]);
      expect(edit.statusCode, edit.body).toBe(200);
      expect(approval.statusCode, approval.body).toBe(200);
      const final = await c.ok(c.get(`/v1/rules/${rule.id}`, token));
      expect(final.natural_language).toBe(text);
      // The only serial outcomes: edit then approval (approved, and the approval saw the new
      // wording), or approval then edit (modified: an approved rule's wording changed).
      if (final.status === 'approved') expect(approval.json().natural_language).toBe(text);
      else expect(final.status).toBe('modified');
      expect(final).toEqual(final.status === 'approved' ? approval.json() : edit.json());
      outcomes.add(final.status);
    }
    expect(outcomes.size).toBeGreaterThan(0);
  });
});
