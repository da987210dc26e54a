import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createTeam, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';
import { policyClient } from './policy-fixtures.js';

let t: TestApp;
let world: World;
const c = policyClient(() => t.app);
const MISSING = '018f0000-0000-7000-8000-000000000000';

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

describe('POST /v1/policies/', () => {
  it('creates a draft policy in the caller\'s primary team', async () => {
    const policy = await c.createPolicy(world.teamA.member.token, {
      description: 'How we treat customer data',
      source_text: 'The agent must not share customer emails.',
      tags: ['gdpr'],
      unknown_field: 'ignored',
    });
    expectReferenceShape(policy, 'Policy');
    expect(policy).toMatchObject({
      name: 'Customer data',
      category: 'privacy',
      status: 'draft',
      team_id: world.teamA.id,
      created_by: world.teamA.member.id,
      description: 'How we treat customer data',
      source_text: 'The agent must not share customer emails.',
      tags: ['gdpr'],
      is_preset: false,
      preset_source: null,
      file_name: null,
      file_size_bytes: null,
      created_at: t.clock.current,
      updated_at: t.clock.current,
    });
    expect(policy).not.toHaveProperty('unknown_field');
  });

  it('accepts a client-chosen id once', async () => {
    const id = '018f1234-5678-7abc-8def-0123456789ab';
    const policy = await c.createPolicy(world.teamA.member.token, { id });
    expect(policy.id).toBe(id);
    expectDetail(await c.post('/v1/policies/', world.teamA.member.token, { id, name: 'again', category: 'custom' }), 409);
  });

  it('validates the body', async () => {
    const token = world.teamA.member.token;
    expect422(await c.post('/v1/policies/', token, { category: 'privacy' }), ['body', 'name'], 'missing');
    expect422(await c.post('/v1/policies/', token, { name: 'x' }), ['body', 'category'], 'missing');
    expect422(await c.post('/v1/policies/', token, { name: 'x', category: 'finance' }), ['body', 'category'], 'enum');
    expect422(await c.post('/v1/policies/', token, { name: 'x', category: null }), ['body', 'category'], 'enum');
    expect422(await c.post('/v1/policies/', token, { name: '', category: 'custom' }), ['body', 'name'], 'string_too_short');
    expect422(await c.post('/v1/policies/', token, { name: 'x'.repeat(256), category: 'custom' }), ['body', 'name'], 'string_too_long');
    expect422(await c.post('/v1/policies/', token, { name: 'x', category: 'custom', tags: 'a' }), ['body', 'tags'], 'list_type');
    expect422(await c.post('/v1/policies/', token, { name: 'x', category: 'custom', id: 'nope' }), ['body', 'id'], 'uuid_parsing');
  });

  it('answers 401 without a credential and 403 to a key without policy:write', async () => {
    expectDetail(await c.post('/v1/policies/', undefined, { name: 'x', category: 'custom' }), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await c.post('/v1/policies/', key, { name: 'x', category: 'custom' }), 403);
  });
});

describe('GET /v1/policies/', () => {
  it('filters by category, status and search, pages with limit (default 10) and offset, and counts the total', async () => {
    const token = world.teamB.member.token;
    const made = [];
    for (let i = 0; i < 12; i++) {
      made.push(
        await c.createPolicy(token, {
          name: `Policy ${i}${i === 3 ? ' 100%_Special' : ''}`,
          category: i % 2 === 0 ? 'security' : 'brand',
          description: i === 5 ? 'Mentions REFUNDS' : null,
        }),
      );
    }
    const page = await c.ok(c.get('/v1/policies/', token));
    expectReferenceShape(page, 'PolicyListResponse');
    expect(page.total).toBe(12);
    expect(page.results.map((p: { id: string }) => p.id)).toEqual(made.slice(0, 10).map((p) => p.id));
    const second = await c.ok(c.get('/v1/policies/?limit=5&offset=10', token));
    expect(second.results.map((p: { id: string }) => p.id)).toEqual(made.slice(10).map((p) => p.id));
    expect(second.total).toBe(12);

    const brand = await c.ok(c.get('/v1/policies/?category=brand&limit=100', token));
    expect(brand.total).toBe(6);
    expect(brand.results.every((p: { category: string }) => p.category === 'brand')).toBe(true);

    expect((await c.ok(c.get('/v1/policies/?search=refunds', token))).results.map((p: { id: string }) => p.id)).toEqual([made[5].id]);
    // % and _ are literal characters, not wildcards.
    expect((await c.ok(c.get(`/v1/policies/?search=${encodeURIComponent('100%_s')}`, token))).total).toBe(1);
    expect((await c.ok(c.get(`/v1/policies/?search=${encodeURIComponent('%')}`, token))).total).toBe(1);
    expect((await c.ok(c.get('/v1/policies/?status=active', token))).total).toBe(0);
    expect((await c.ok(c.get('/v1/policies/?status=draft&category=security', token))).total).toBe(6);
  });

  it('does not show other teams\' policies', async () => {
    const mine = await c.createPolicy(world.teamA.member.token, { name: 'Alpha only' });
    const page = await c.ok(c.get('/v1/policies/?search=Alpha%20only', world.teamB.member.token));
    expect(page.total).toBe(0);
    expect(page.results.find((p: { id: string }) => p.id === mine.id)).toBeUndefined();
  });

  it('validates the query', async () => {
    const token = world.teamA.member.token;
    expect422(await c.get('/v1/policies/?limit=0', token), ['query', 'limit'], 'greater_than_equal');
    expect422(await c.get('/v1/policies/?limit=101', token), ['query', 'limit'], 'less_than_equal');
    expect422(await c.get('/v1/policies/?offset=-1', token), ['query', 'offset'], 'greater_than_equal');
    expect422(await c.get('/v1/policies/?limit=ten', token), ['query', 'limit'], 'int_parsing');
    expect422(await c.get('/v1/policies/?status=live', token), ['query', 'status'], 'enum');
    expect422(await c.get('/v1/policies/?category=finance', token), ['query', 'category'], 'enum');
  });

  it('answers 401 without a credential and 403 to a key without policy:read', async () => {
    expectDetail(await c.get('/v1/policies/'), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    expectDetail(await c.get('/v1/policies/', key), 403);
  });
});

describe('GET, PATCH and DELETE /v1/policies/{policy_id}', () => {
  it('gets a policy of the team, 404 for another team or an unknown id, 422 for a bad id', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const got = await c.ok(c.get(`/v1/policies/${policy.id}`, world.teamA.owner.token));
    expectReferenceShape(got, 'Policy');
    expect(got).toEqual(policy);
    expectDetail(await c.get(`/v1/policies/${policy.id}`, world.teamB.member.token), 404);
    expectDetail(await c.get(`/v1/policies/${MISSING}`, world.teamA.member.token), 404);
    expect422(await c.get('/v1/policies/not-a-uuid', world.teamA.member.token), ['path', 'policy_id'], 'uuid_parsing');
    expectDetail(await c.get(`/v1/policies/${policy.id}`), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    expectDetail(await c.get(`/v1/policies/${policy.id}`, key), 403);
    // A super admin reads any team's policy.
    expect((await c.ok(c.get(`/v1/policies/${policy.id}`, world.admin.token))).id).toBe(policy.id);
  });

  it('updates only the fields sent; null clears nullable fields and leaves the others', async () => {
    const policy = await c.createPolicy(world.teamA.member.token, { description: 'd', tags: ['a'], source_text: 'text' });
    t.clock.advance(10);
    const updated = await c.ok(
      c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, {
        name: 'Renamed',
        description: null,
        tags: null,
        category: null,
        status: null,
      }),
    );
    expectReferenceShape(updated, 'Policy');
    expect(updated).toMatchObject({
      name: 'Renamed',
      description: null,
      tags: null,
      category: 'privacy',
      status: 'draft',
      source_text: 'text',
      updated_at: t.clock.current,
      created_at: policy.created_at,
    });
    const archived = await c.ok(c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { status: 'archived', category: 'brand' }));
    expect(archived).toMatchObject({ status: 'archived', category: 'brand', name: 'Renamed' });
    expect422(await c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { status: 'live' }), ['body', 'status'], 'enum');
    expect422(await c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { name: '' }), ['body', 'name'], 'string_too_short');
    expectDetail(await c.patch(`/v1/policies/${policy.id}`, world.teamB.member.token, { name: 'x' }), 404);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await c.patch(`/v1/policies/${policy.id}`, key, { name: 'x' }), 403);
    expectDetail(await c.patch(`/v1/policies/${policy.id}`, undefined, { name: 'x' }), 401);
  });

  it('setting status to active through PATCH follows the activation rule', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    const refused = await c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { status: 'active' });
    expectDetail(refused, 409);
    expect(refused.json().detail).toContain('1 of');
    await c.ok(c.post(`/v1/rules/${rule.id}/approve`, world.teamA.member.token));
    expect((await c.ok(c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { status: 'active' }))).status).toBe('active');
    // Already active, with a rule added since: PATCH and POST activate give the same 409, and nothing changes.
    await c.createRule(world.teamA.member.token, policy.id);
    const viaPatch = await c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { status: 'active', name: 'Renamed' });
    const viaPost = await c.post(`/v1/policies/${policy.id}/activate`, world.teamA.member.token);
    expectDetail(viaPatch, 409);
    expect(viaPatch.json()).toEqual(viaPost.json());
    expect(viaPatch.json().detail).toContain('1 of the policy\'s 2 rules');
    expect((await c.ok(c.get(`/v1/policies/${policy.id}`, world.teamA.member.token))).name).toBe(policy.name);
    // A PATCH without status leaves an active policy active.
    expect((await c.ok(c.patch(`/v1/policies/${policy.id}`, world.teamA.member.token, { name: 'Renamed' }))).status).toBe('active');
  });

  it('deletes a policy with its rules', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    const rule = await c.createRule(world.teamA.member.token, policy.id);
    expectDetail(await c.del(`/v1/policies/${policy.id}`, world.teamB.member.token), 404);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await c.del(`/v1/policies/${policy.id}`, key), 403);
    expectDetail(await c.del(`/v1/policies/${policy.id}`), 401);
    const res = await c.del(`/v1/policies/${policy.id}`, world.teamA.member.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectDetail(await c.get(`/v1/policies/${policy.id}`, world.teamA.member.token), 404);
    expectDetail(await c.get(`/v1/rules/${rule.id}`, world.teamA.member.token), 404);
    expect((await c.ok(c.get(`/v1/rules/?policy_id=${policy.id}`, world.teamA.member.token))).count).toBe(0);
    expectDetail(await c.del(`/v1/policies/${policy.id}`, world.teamA.member.token), 404);
  });
});

describe('POST /v1/policies/{policy_id}/activate', () => {
  it('refuses a policy without rules, and one with rules not approved, naming how many', async () => {
    const token = world.teamA.member.token;
    const policy = await c.createPolicy(token);
    const empty = await c.post(`/v1/policies/${policy.id}/activate`, token);
    expectDetail(empty, 409);
    expect(empty.json().detail).toMatch(/no rules/);

    const rules = [await c.createRule(token, policy.id), await c.createRule(token, policy.id), await c.createRule(token, policy.id)];
    await c.ok(c.post(`/v1/rules/${rules[0].id}/approve`, token));
    await c.ok(c.post(`/v1/rules/${rules[1].id}/reject?reason=too%20broad`, token));
    const refused = await c.post(`/v1/policies/${policy.id}/activate`, token);
    expectDetail(refused, 409);
    expect(refused.json().detail).toContain('2 of the policy\'s 3 rules are not approved');

    await c.ok(c.post(`/v1/rules/${rules[1].id}/approve`, token));
    await c.ok(c.post(`/v1/rules/${rules[2].id}/approve`, token));
    t.clock.advance(5);
    const active = await c.ok(c.post(`/v1/policies/${policy.id}/activate`, token));
    expectReferenceShape(active, 'Policy');
    expect(active).toMatchObject({ status: 'active', updated_at: t.clock.current });
  });

  it('answers 401, 403 and 404 as the other operations do', async () => {
    const policy = await c.createPolicy(world.teamA.member.token);
    expectDetail(await c.post(`/v1/policies/${policy.id}/activate`, undefined), 401);
    const key = await createApiKey(t.app, world.teamA.member.token, ['policy:read']);
    expectDetail(await c.post(`/v1/policies/${policy.id}/activate`, key), 403);
    expectDetail(await c.post(`/v1/policies/${policy.id}/activate`, world.teamB.member.token), 404);
    expect422(await c.post('/v1/policies/123/activate', world.teamA.member.token), ['path', 'policy_id'], 'uuid_parsing');
  });
});

describe('presets', () => {
  it('lists at least six presets, each with rules, filtered by category and paged', async () => {
    const token = world.teamA.member.token;
    const all = await c.ok(c.get('/v1/policies/presets/', token));
    expectReferenceShape(all, 'PolicyListResponse');
    expect(all.total).toBeGreaterThanOrEqual(6);
    expect(all.results).toHaveLength(all.total);
    const slugs = all.results.map((p: { preset_source: string }) => p.preset_source);
    for (const slug of [
      'personal-data-protection',
      'prompt-injection-defence',
      'no-financial-or-medical-advice',
      'brand-safety',
      'secrets-and-credentials',
      'ai-transparency',
    ]) {
      expect(slugs).toContain(slug);
    }
    for (const preset of all.results) {
      expect(preset.is_preset).toBe(true);
      const rules = await c.ok(c.get(`/v1/policies/${preset.id}/rules`, token));
      expectReferenceShape(rules, 'src__service_agent_environment__api__policies__RuleListResponse');
      expect(rules.total).toBeGreaterThanOrEqual(3);
      for (const rule of rules.results) {
        // Every preset rule quotes the sentence of the preset's text it encodes, at the right place.
        const loc = rule.provenance.source_location;
        expect([...preset.source_text].slice(loc.char_start, loc.char_end).join('')).toBe(loc.source_text);
        expect(loc.source_text).toBe(rule.natural_language);
      }
    }
    const security = await c.ok(c.get('/v1/policies/presets/?category=security', token));
    expect(security.total).toBeGreaterThanOrEqual(2);
    expect(security.results.every((p: { category: string }) => p.category === 'security')).toBe(true);
    const page = await c.ok(c.get('/v1/policies/presets/?limit=2&offset=1', token));
    expect(page.results.map((p: { id: string }) => p.id)).toEqual(all.results.slice(1, 3).map((p: { id: string }) => p.id));
    expect(page.total).toBe(all.total);
    const one = await c.ok(c.get(`/v1/policies/${all.results[0].id}`, token));
    expectReferenceShape(one, 'Policy');
    expect(one).toEqual(all.results[0]);
  });

  it('validates the preset list query', async () => {
    const token = world.teamA.member.token;
    expect422(await c.get('/v1/policies/presets/?limit=0', token), ['query', 'limit'], 'greater_than_equal');
    expect422(await c.get('/v1/policies/presets/?limit=1001', token), ['query', 'limit'], 'less_than_equal');
    expect422(await c.get('/v1/policies/presets/?offset=-1', token), ['query', 'offset'], 'greater_than_equal');
    expect422(await c.get('/v1/policies/presets/?category=finance', token), ['query', 'category'], 'enum');
    expectDetail(await c.get('/v1/policies/presets/'), 401);
  });

  it('copies a preset into the team as a draft policy with draft rules, with name_override', async () => {
    const token = world.teamB.owner.token;
    const presets = await c.ok(c.get('/v1/policies/presets/', token));
    const preset = presets.results.find((p: { preset_source: string }) => p.preset_source === 'secrets-and-credentials');
    const copy = await c.ok(
      c.post(`/v1/policies/presets/${preset.id}/copy?name_override=${encodeURIComponent('Our secrets policy')}`, world.teamB.member.token),
      201,
    );
    expectReferenceShape(copy, 'Policy');
    expect(copy).toMatchObject({
      name: 'Our secrets policy',
      team_id: world.teamB.id,
      status: 'draft',
      is_preset: false,
      preset_source: 'secrets-and-credentials',
      category: preset.category,
      source_text: preset.source_text,
      created_by: world.teamB.member.id,
    });
    expect(copy.id).not.toBe(preset.id);
    const rules = await c.ok(c.get(`/v1/policies/${copy.id}/rules`, token));
    const presetRules = await c.ok(c.get(`/v1/policies/${preset.id}/rules`, token));
    expect(rules.total).toBe(presetRules.total);
    for (const [i, rule] of rules.results.entries()) {
      expectReferenceShape(rule, 'PolicyRule');
      expect(rule).toMatchObject({ policy_id: copy.id, status: 'draft', reviewed_by: null, natural_language: presetRules.results[i].natural_language });
      expect(rule.id).not.toBe(presetRules.results[i].id);
      expect(rule.provenance).toEqual(presetRules.results[i].provenance);
    }
    const plain = await c.ok(c.post(`/v1/policies/presets/${preset.id}/copy`, world.teamB.member.token), 201);
    expect(plain.name).toBe(preset.name);
    // The copy is the team's: another team cannot see it.
    expectDetail(await c.get(`/v1/policies/${copy.id}`, world.teamA.member.token), 404);
  });

  it('answers 404 for an unknown preset, 422 for a bad id, 401 and 403 as usual', async () => {
    const token = world.teamA.member.token;
    const presets = await c.ok(c.get('/v1/policies/presets/', token));
    expectDetail(await c.post(`/v1/policies/presets/${MISSING}/copy`, token), 404);
    expect422(await c.post('/v1/policies/presets/x/copy', token), ['path', 'preset_id'], 'uuid_parsing');
    expect422(await c.post(`/v1/policies/presets/${presets.results[0].id}/copy?name_override=`, token), ['query', 'name_override'], 'string_too_short');
    expectDetail(await c.post(`/v1/policies/presets/${presets.results[0].id}/copy`, undefined), 401);
    const key = await createApiKey(t.app, token, ['policy:read']);
    expectDetail(await c.post(`/v1/policies/presets/${presets.results[0].id}/copy`, key), 403);
    // A preset is read-only: it is not a policy of any team.
    expectDetail(await c.patch(`/v1/policies/${presets.results[0].id}`, token, { name: 'x' }), 404);
  });
});

describe('as a new user would', () => {
  it('copies a preset, reviews its rules, activates the policy and lists rules by status and category', async () => {
    const token = world.teamA.owner.token;
    const { results } = await c.ok(c.get('/v1/policies/presets/?category=privacy', token));
    const copy = await c.ok(c.post(`/v1/policies/presets/${results[0].id}/copy?name_override=Privacy`, token), 201);
    const { results: rules } = await c.ok(c.get(`/v1/policies/${copy.id}/rules`, token));
    const [first, second, ...rest] = rules;
    const approved = await c.ok(c.post(`/v1/rules/${first.id}/approve?notes=${encodeURIComponent('Matches our DPA')}`, token));
    expect(approved).toMatchObject({ status: 'approved', reviewed_by: world.teamA.owner.id, review_notes: 'Matches our DPA' });
    const rejected = await c.ok(c.post(`/v1/rules/${second.id}/reject?reason=${encodeURIComponent('Too strict for support')}`, token));
    expect(rejected).toMatchObject({ status: 'rejected', review_notes: 'Too strict for support' });
    expectDetail(await c.post(`/v1/policies/${copy.id}/activate`, token), 409);

    const byStatus = await c.ok(c.get(`/v1/rules/?policy_id=${copy.id}&status=draft`, token));
    expectReferenceShape(byStatus, 'src__service_agent_environment__api__rules__RuleListResponse');
    expect(byStatus.count).toBe(rest.length);
    const byCategory = await c.ok(c.get(`/v1/rules/?policy_id=${copy.id}&category=privacy&status=rejected`, token));
    expect(byCategory.results.map((r: { id: string }) => r.id)).toEqual([second.id]);

    expect((await c.del(`/v1/rules/${second.id}`, token)).statusCode).toBe(204);
    for (const rule of rest) await c.ok(c.post(`/v1/rules/${rule.id}/approve`, token));
    const active = await c.ok(c.post(`/v1/policies/${copy.id}/activate`, token));
    expect(active.status).toBe('active');
    expect((await c.ok(c.get('/v1/policies/?status=active', token))).results.map((p: { id: string }) => p.id)).toContain(copy.id);
  });
});

describe('/openapi.json for the policy and rule operations', () => {
  const reference = JSON.parse(readFileSync(new URL('./fixtures/console-openapi.json', import.meta.url), 'utf8'));
  const operations = Object.entries(reference.paths as Record<string, Record<string, any>>)
    .filter(([path]) => path.startsWith('/v1/policies') || path.startsWith('/v1/rules'))
    .flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ path, method, op })));

  it('publishes every parameter as the reference does: name, place, required, default', async () => {
    const ours = (await c.ok(c.get('/openapi.json'))).paths;
    expect(operations.length).toBeGreaterThanOrEqual(20);
    for (const { path, method, op } of operations) {
      const mine = ours[path]?.[method];
      expect(mine, `${method} ${path}`).toBeDefined();
      for (const param of op.parameters ?? []) {
        const found = (mine.parameters ?? []).find((p: any) => p.name === param.name && p.in === param.in);
        expect(found, `${method} ${path} ${param.name}`).toBeDefined();
        expect({ required: found.required ?? false, default: found.schema?.default }, `${method} ${path} ${param.name}`).toEqual({
          required: param.required ?? false,
          default: param.schema.default,
        });
      }
      // Additions of ours are never required.
      for (const param of mine.parameters ?? []) {
        if (!(op.parameters ?? []).some((p: any) => p.name === param.name)) expect(param.required ?? false, `${method} ${path} ${param.name}`).toBe(false);
      }
    }
  });

  it('describes the upload as multipart/form-data with a required binary field "file"', async () => {
    const document = await c.ok(c.get('/openapi.json'));
    const upload = document.paths['/v1/policies/{policy_id}/upload'].post;
    const published = upload.requestBody.content['multipart/form-data'].schema;
    // A named schema is a component, referred to by $ref (as in the reference's document).
    const schema = published.$ref ? document.components.schemas[published.$ref.split('/').pop()] : published;
    expect(schema.properties.file).toMatchObject({ type: 'string', format: 'binary' });
    expect(schema.required).toEqual(['file']);
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
  });

  it('tags each operation as the reference does', async () => {
    const ours = (await c.ok(c.get('/openapi.json'))).paths;
    for (const { path, method, op } of operations) expect(ours[path][method].tags, `${method} ${path}`).toEqual(op.tags);
  });
});

describe('UUIDs in any letter case', () => {
  it('finds policies and rules by upper-case ids in the path and the query, and stores a client id in lower case', async () => {
    const token = world.teamA.member.token;
    const chosen = '018F3333-AAAA-7BBB-8CCC-DDDDEEEEFFFF';
    const policy = await c.createPolicy(token, { id: chosen });
    expect(policy.id).toBe(chosen.toLowerCase());
    const rule = await c.createRule(token, policy.id);
    const up = (id: string) => id.toUpperCase();
    expect((await c.ok(c.get(`/v1/policies/${up(policy.id)}`, token))).id).toBe(policy.id);
    expect((await c.ok(c.get(`/v1/policies/${up(policy.id)}/rules`, token))).total).toBe(1);
    expect((await c.ok(c.get(`/v1/rules/?policy_id=${up(policy.id)}`, token))).results.map((r: { id: string }) => r.id)).toEqual([rule.id]);
    expect((await c.ok(c.patch(`/v1/rules/${up(rule.id)}`, token, { tags: ['x'] }))).tags).toEqual(['x']);
    expect((await c.ok(c.post(`/v1/rules/${up(rule.id)}/approve`, token))).status).toBe('approved');
    expect((await c.ok(c.post(`/v1/policies/${up(policy.id)}/activate`, token))).status).toBe('active');
    // The same id in another case is the same id.
    expectDetail(await c.post('/v1/policies/', token, { name: 'again', category: 'privacy', id: chosen.toLowerCase() }), 409);
    await c.ok(c.del(`/v1/policies/${up(policy.id)}`, token), 204);
    expectDetail(await c.get(`/v1/policies/${policy.id}`, token), 404);
  });
});

describe('team_id on policy create, list and preset copy', () => {
  it('acts on the team given (one of the caller\'s), 404 for another team, the primary team without it', async () => {
    const owner = world.teamA.owner.token;
    const inA = await c.ok(c.post(`/v1/policies/?team_id=${world.teamA.id}`, owner, { name: 'In A', category: 'privacy' }), 201);
    expect(inA.team_id).toBe(world.teamA.id);
    const primary = await c.createPolicy(owner);
    expect(primary.team_id).toBe(world.adminTeamId);
    const listA = await c.ok(c.get(`/v1/policies/?team_id=${world.teamA.id}&limit=100`, owner));
    expectReferenceShape(listA, 'PolicyListResponse');
    expect(listA.results.map((p: { id: string }) => p.id)).toContain(inA.id);
    expect(listA.results.map((p: { id: string }) => p.id)).not.toContain(primary.id);
    const presets = await c.ok(c.get('/v1/policies/presets/', owner));
    const copy = await c.ok(c.post(`/v1/policies/presets/${presets.results[0].id}/copy?team_id=${world.teamA.id}`, owner), 201);
    expect(copy.team_id).toBe(world.teamA.id);
    for (const res of [
      await c.post(`/v1/policies/?team_id=${world.teamB.id}`, owner, { name: 'x', category: 'privacy' }),
      await c.get(`/v1/policies/?team_id=${world.teamB.id}`, owner),
      await c.post(`/v1/policies/presets/${presets.results[0].id}/copy?team_id=${world.teamB.id}`, owner),
      await c.get(`/v1/policies/?team_id=${MISSING}`, owner),
    ]) expectDetail(res, 404);
    // A super admin may act on any team.
    const byAdmin = await c.ok(c.post(`/v1/policies/?team_id=${world.teamB.id}`, world.admin.token, { name: 'x', category: 'privacy' }), 201);
    expect(byAdmin.team_id).toBe(world.teamB.id);
  });
});

describe('concurrent writes and the policy list', () => {
  it('answers a page and a total from one snapshot while policies are created', async () => {
    const team = await createTeam(t.app, world.admin, world.adminTeamId, 'gamma');
    const token = team.member.token;
    for (let round = 0; round < 4; round++) {
      const responses = await Promise.all(
        Array.from({ length: 16 }, (_, i) =>
          i % 2 === 0 ? c.post('/v1/policies/', token, { name: `p${round}-${i}`, category: 'custom' }) : c.get('/v1/policies/?limit=100', token),
        ),
      );
      for (const res of responses) {
        expect(res.statusCode, res.body).toBeLessThan(300);
        if (res.statusCode !== 200) continue;
        const page = res.json();
        // Fewer than 100 policies: the page is all of them, so it must be as long as the total.
        expect(page.results.length).toBe(page.total);
      }
    }
    expect((await c.ok(c.get('/v1/policies/?limit=100', token))).total).toBe(32);
  });
});
