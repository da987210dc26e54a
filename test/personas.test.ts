import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createTeam, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectParametersLikeReference, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, token: string | null, payload?: unknown) =>
  t.app.inject({ method, url, headers: token === null ? {} : bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

async function createPersona(token: string, teamId: string, body: Record<string, unknown> = {}) {
  const res = await call('POST', '/v1/personas/', token, { team_id: teamId, name: 'Persona', role: 'customer', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

describe('POST /v1/personas/', () => {
  it('creates a persona with the reference defaults', async () => {
    const res = await call('POST', '/v1/personas/', world.teamA.member.token, { team_id: world.teamA.id, name: 'Alice', role: 'customer' });
    expect(res.statusCode, res.body).toBe(201);
    const persona = res.json();
    expectReferenceShape(persona, 'Persona');
    expect(persona).toMatchObject({
      team_id: world.teamA.id,
      created_by: world.teamA.member.id,
      name: 'Alice',
      role: 'customer',
      description: null,
      knowledge_level: 'intermediate',
      skill_level: 'competent',
      intent: 'benign',
      language: 'en',
      access_permissions: null,
      is_preset: false,
      tags: null,
      created_at: t.clock.current,
      updated_at: t.clock.current,
    });
  });

  it('stores every field and completes access_permissions, keeping extra keys', async () => {
    const persona = await createPersona(world.teamA.member.token, world.teamA.id, {
      description: 'Tests refunds',
      role_description: 'A customer with two orders',
      knowledge_level: 'expert',
      skill_level: 'novice',
      intent: 'adversarial',
      language: 'fr',
      access_permissions: { allowed_tools: ['refund'], region: 'eu' },
      preset_category: 'support',
      tags: ['refunds'],
      icon_filename: 'alice.svg',
    });
    expectReferenceShape(persona, 'Persona');
    expect(persona.access_permissions).toEqual({
      privilege_level: 'user',
      allowed_agents: null,
      allowed_tools: ['refund'],
      restricted_actions: null,
      data_access_scope: null,
      region: 'eu',
    });
    const again = await call('GET', `/v1/personas/${persona.id}`, world.teamA.member.token);
    expect(again.json()).toEqual(persona);
  });

  it('accepts a chosen id once and answers 409 the second time', async () => {
    const id = '019b7a11-2222-7333-8444-555566667777';
    const first = await createPersona(world.teamA.member.token, world.teamA.id, { id });
    expect(first.id).toBe(id);
    expectDetail(await call('POST', '/v1/personas/', world.teamA.member.token, { id, team_id: world.teamA.id, name: 'x', role: 'y' }), 409);
  });

  it('validates the body', async () => {
    const token = world.teamA.member.token;
    expect422(await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x' }), ['body', 'role'], 'missing');
    expect422(await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x', role: 'y', intent: 'evil' }), ['body', 'intent'], 'enum');
    expect422(await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: '', role: 'y' }), ['body', 'name'], 'string_too_short');
    expect422(await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x', role: 'r'.repeat(101) }), ['body', 'role'], 'string_too_long');
    expect422(await call('POST', '/v1/personas/', token, { team_id: 'nope', name: 'x', role: 'y' }), ['body', 'team_id'], 'uuid_parsing');
    expect422(
      await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x', role: 'y', access_permissions: 'admin' }),
      ['body', 'access_permissions'],
      'model_attributes_type',
    );
    // Free-form, but at most 50 keys at its top level (typed or not).
    const wide = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i]));
    const tooWide = await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x', role: 'y', access_permissions: wide });
    expect(tooWide.statusCode, tooWide.body).toBe(422);
    expect(tooWide.json().detail[0].loc.slice(0, 2)).toEqual(['body', 'access_permissions']);
    const fifty = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]));
    expect((await call('POST', '/v1/personas/', token, { team_id: world.teamA.id, name: 'x', role: 'y', access_permissions: fifty })).statusCode).toBe(201);
  });

  it('accepts free-form access_permissions (the reference: PersonaAccessPermissions or any object), kept as sent', async () => {
    const freeForm = { privilege_level: 'root', allowed_agents: 'all', scopes: { billing: ['read'] } };
    const persona = await createPersona(world.teamA.member.token, world.teamA.id, { access_permissions: freeForm });
    expectReferenceShape(persona, 'Persona');
    expect(persona.access_permissions).toEqual(freeForm);
    const empty = await createPersona(world.teamA.member.token, world.teamA.id, { access_permissions: {} });
    expect(empty.access_permissions).toEqual({
      privilege_level: 'user',
      allowed_agents: null,
      allowed_tools: null,
      restricted_actions: null,
      data_access_scope: null,
    });
    const updated = await call('PUT', `/v1/personas/${empty.id}`, world.teamA.member.token, { access_permissions: { role: 'auditor' } });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().access_permissions).toEqual({
      role: 'auditor',
      privilege_level: 'user',
      allowed_agents: null,
      allowed_tools: null,
      restricted_actions: null,
      data_access_scope: null,
    });
    const custom = await call('PUT', `/v1/personas/${empty.id}`, world.teamA.member.token, { access_permissions: { data_access_scope: 'planet' } });
    expect(custom.statusCode, custom.body).toBe(200);
    expect(custom.json().access_permissions).toEqual({ data_access_scope: 'planet' });
    expect((await call('GET', `/v1/personas/${empty.id}`, world.teamA.member.token)).json().access_permissions).toEqual({ data_access_scope: 'planet' });
  });

  it('accepts any language, as the reference (no minimum length)', async () => {
    const blank = await createPersona(world.teamA.member.token, world.teamA.id, { language: '' });
    expect(blank.language).toBe('');
    const named = await createPersona(world.teamA.member.token, world.teamA.id, { language: 'Portuguese (Brazil)' });
    expect(named.language).toBe('Portuguese (Brazil)');
    // 35 characters (the column's size, room for any BCP 47 tag) is our own bound: a 422, never a database error.
    const longest = await createPersona(world.teamA.member.token, world.teamA.id, { language: 'x'.repeat(35) });
    expect(longest.language).toBe('x'.repeat(35));
    expect422(
      await call('POST', '/v1/personas/', world.teamA.member.token, { team_id: world.teamA.id, name: 'x', role: 'y', language: 'x'.repeat(36) }),
      ['body', 'language'],
      'string_too_long',
    );
    const updated = await call('PUT', `/v1/personas/${named.id}`, world.teamA.member.token, { language: '' });
    expect(updated.statusCode, updated.body).toBe(200);
    expect(updated.json().language).toBe('');
    expectReferenceShape(updated.json(), 'Persona');
  });

  it('answers 401 without a credential, 404 for a team the caller cannot see, 403 for a read-only key', async () => {
    const body = { team_id: world.teamA.id, name: 'x', role: 'y' };
    expectDetail(await call('POST', '/v1/personas/', null, body), 401);
    expectDetail(await call('POST', '/v1/personas/', world.teamB.member.token, body), 404);
    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['persona:read']);
    expectDetail(await call('POST', '/v1/personas/', readOnly, body), 403);
    const admin = await call('POST', '/v1/personas/', world.admin.token, body);
    expect(admin.statusCode, admin.body).toBe(201);
  });
});

describe('GET /v1/personas/', () => {
  let teamId: string;
  let token: string;
  beforeAll(async () => {
    // A team of its own, so that counts are exact.
    const team = await createTeam(t.app, world.admin, world.adminTeamId, 'persona-list');
    teamId = team.id;
    token = team.member.token;
    await createPersona(token, teamId, { name: 'Bank clerk', role: 'clerk', intent: 'benign', description: 'Handles DEPOSITS' });
    t.clock.advance(1);
    await createPersona(token, teamId, { name: 'Phisher', role: 'attacker', intent: 'malicious' });
    t.clock.advance(1);
    await createPersona(token, teamId, { name: 'Prober', role: 'tester', intent: 'adversarial', is_preset: true });
    t.clock.advance(1);
    await createPersona(token, teamId, { name: '100%_literal', role: 'edge', intent: 'curious' });
  });

  const list = (query: string) => call('GET', `/v1/personas/?team_id=${teamId}&${query}`, token);

  it('lists in creation order with the total before paging', async () => {
    const res = await list('limit=2&offset=1');
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReferenceShape(body, 'PersonaListResponse');
    expect(body.total).toBe(4);
    expect(body.results.map((p: { name: string }) => p.name)).toEqual(['Phisher', 'Prober']);
    expect((await list('')).json().results).toHaveLength(4);
  });

  it('filters by intents, is_preset and search', async () => {
    const names = async (query: string) => (await list(query)).json().results.map((p: { name: string }) => p.name);
    expect(await names('intents=malicious&intents=adversarial')).toEqual(['Phisher', 'Prober']);
    expect(await names('intents=malicious')).toEqual(['Phisher']);
    expect(await names('is_preset=true')).toEqual(['Prober']);
    expect(await names('is_preset=false')).toEqual(['Bank clerk', 'Phisher', '100%_literal']);
    expect(await names('search=deposits')).toEqual(['Bank clerk']); // description, case-insensitive
    expect(await names('search=ATTACK')).toEqual(['Phisher']); // role
    expect(await names('search=0%25_')).toEqual(['100%_literal']); // % and _ are literal
    expect(await names('search=1_0')).toEqual([]);
    expect((await list('search=zzz')).json()).toEqual({ results: [], total: 0 });
  });

  it('validates the query', async () => {
    expect422(await list('limit=101'), ['query', 'limit'], 'less_than_equal');
    expect422(await list('offset=-1'), ['query', 'offset'], 'greater_than_equal');
    expect422(await list('intents=evil'), ['query', 'intents', 0], 'enum');
  });

  it("shows only the caller's team: another team's id answers 404", async () => {
    const own = await createPersona(world.teamB.member.token, world.teamB.id, { name: 'Only B' });
    const res = await call('GET', '/v1/personas/', world.teamB.member.token);
    expect(res.json().results.map((p: { id: string }) => p.id)).toContain(own.id);
    expect(res.json().results.every((p: { team_id: string }) => p.team_id === world.teamB.id)).toBe(true);
    expectDetail(await call('GET', `/v1/personas/?team_id=${world.teamA.id}`, world.teamB.member.token), 404);
    expectDetail(await call('GET', '/v1/personas/', null), 401);
    const agentOnly = await createApiKey(t.app, world.teamB.member.token, ['agent:read']);
    expectDetail(await call('GET', '/v1/personas/', agentOnly), 403);
  });
});

describe('GET, PUT and DELETE /v1/personas/{id}', () => {
  it('gets a persona; another team gets 404; a team_id that is not the persona’s gets 404', async () => {
    const persona = await createPersona(world.teamA.member.token, world.teamA.id);
    const res = await call('GET', `/v1/personas/${persona.id}?team_id=${world.teamA.id}`, world.teamA.member.token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'Persona');
    expectDetail(await call('GET', `/v1/personas/${persona.id}`, world.teamB.member.token), 404);
    expectDetail(await call('GET', `/v1/personas/${persona.id}?team_id=${world.adminTeamId}`, world.admin.token), 404);
    expectDetail(await call('GET', `/v1/personas/${persona.id}`, null), 401);
    expectDetail(await call('GET', '/v1/personas/019b7a11-0000-7000-8000-000000000000', world.teamA.member.token), 404);
    expect422(await call('GET', '/v1/personas/not-a-uuid', world.teamA.member.token), ['path', 'id'], 'uuid_parsing');
  });

  it('updates only the fields sent; null clears nullable fields and leaves the others', async () => {
    const persona = await createPersona(world.teamA.member.token, world.teamA.id, { description: 'old', tags: ['a'], intent: 'curious' });
    t.clock.advance(60);
    const res = await call('PUT', `/v1/personas/${persona.id}`, world.teamA.member.token, {
      name: null,
      description: null,
      tags: ['b', 'c'],
      knowledge_level: 'expert',
      access_permissions: { privilege_level: 'admin', data_access_scope: 'global' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const updated = res.json();
    expectReferenceShape(updated, 'Persona');
    expect(updated).toMatchObject({
      name: persona.name,
      description: null,
      tags: ['b', 'c'],
      knowledge_level: 'expert',
      intent: 'curious',
      created_at: persona.created_at,
      updated_at: t.clock.current,
    });
    expect(updated.access_permissions).toMatchObject({ privilege_level: 'admin', data_access_scope: 'global', allowed_tools: null });
    expect422(await call('PUT', `/v1/personas/${persona.id}`, world.teamA.member.token, { skill_level: 'guru' }), ['body', 'skill_level'], 'enum');
  });

  it('refuses another team (404), a read-only key (403) and no credential (401)', async () => {
    const persona = await createPersona(world.teamA.member.token, world.teamA.id);
    expectDetail(await call('PUT', `/v1/personas/${persona.id}`, world.teamB.member.token, { name: 'x' }), 404);
    expectDetail(await call('DELETE', `/v1/personas/${persona.id}`, world.teamB.member.token), 404);
    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['persona:read']);
    expectDetail(await call('PUT', `/v1/personas/${persona.id}`, readOnly, { name: 'x' }), 403);
    expectDetail(await call('DELETE', `/v1/personas/${persona.id}`, readOnly), 403);
    expectDetail(await call('PUT', `/v1/personas/${persona.id}`, null, { name: 'x' }), 401);
    expectDetail(await call('DELETE', `/v1/personas/${persona.id}`, null), 401);
  });

  it('answers 422 for an id that is not a UUID (the reference declares every persona id a uuid)', async () => {
    const token = world.teamA.member.token;
    expect422(await call('GET', '/v1/personas/nope', token), ['path', 'id'], 'uuid_parsing');
    expect422(await call('PUT', '/v1/personas/nope', token, { name: 'x' }), ['path', 'id'], 'uuid_parsing');
    expect422(await call('DELETE', '/v1/personas/nope', token), ['path', 'id'], 'uuid_parsing');
  });

  it('deletes with 204; the persona is gone', async () => {
    const persona = await createPersona(world.teamA.member.token, world.teamA.id);
    const res = await call('DELETE', `/v1/personas/${persona.id}`, world.teamA.member.token);
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expectDetail(await call('GET', `/v1/personas/${persona.id}`, world.teamA.member.token), 404);
    expectDetail(await call('DELETE', `/v1/personas/${persona.id}`, world.teamA.member.token), 404);
  });
});

describe('presets', () => {
  it('ships realistic presets in the professional, support and adversarial categories, every field filled', async () => {
    const res = await call('GET', '/v1/personas/presets/', world.teamA.member.token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReferenceShape(body, 'PersonaListResponse');
    expect(body.total).toBe(body.results.length);
    expect(new Set(body.results.map((p: { preset_category: string }) => p.preset_category))).toEqual(new Set(['professional', 'support', 'adversarial']));
    expect(new Set(body.results.map((p: { intent: string }) => p.intent))).toEqual(new Set(['benign', 'curious', 'adversarial', 'malicious']));
    for (const preset of body.results) {
      expect(preset.is_preset).toBe(true);
      for (const [field, value] of Object.entries(preset)) expect(value, `${preset.name}.${field}`).not.toBeNull();
      expect(Object.keys(preset.access_permissions).sort()).toEqual([
        'allowed_agents',
        'allowed_tools',
        'data_access_scope',
        'privilege_level',
        'restricted_actions',
      ]);
      for (const [key, value] of Object.entries(preset.access_permissions)) {
        expect(value, `${preset.name}.access_permissions.${key}`).not.toBeNull();
        if (Array.isArray(value)) expect(value.length, `${preset.name}.access_permissions.${key}`).toBeGreaterThan(0);
      }
      expectReferenceShape(preset.access_permissions, 'PersonaAccessPermissions');
      // allowed_agents names agent roles (snake_case), never ids: presets are the same on every installation.
      for (const role of preset.access_permissions.allowed_agents) expect(role).toMatch(/^[a-z]+(_[a-z]+)*$/);
      // icon_filename: the preset's name in kebab case, an SVG file name (no path, no URL).
      expect(preset.icon_filename).toBe(`${preset.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}.svg`);
    }
    const byName = Object.fromEntries(
      body.results.map((p: { name: string; access_permissions: { allowed_agents: string[] } }) => [p.name, p.access_permissions.allowed_agents]),
    );
    expect(byName['Financial Analyst']).toEqual(['finance_assistant', 'reporting_assistant']);
    expect(byName['Prompt Injection Attacker']).toEqual(['customer_support']);
    expect(byName['Data Exfiltrator']).toEqual(['reporting_assistant', 'crm_assistant']);
    const ids = body.results.map((p: { id: string }) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('filters by category and pages', async () => {
    const all = (await call('GET', '/v1/personas/presets/', world.teamA.member.token)).json();
    const adversarial = (await call('GET', '/v1/personas/presets/?preset_category=adversarial', world.teamA.member.token)).json();
    expect(adversarial.results.length).toBeGreaterThanOrEqual(2);
    expect(adversarial.results.every((p: { preset_category: string }) => p.preset_category === 'adversarial')).toBe(true);
    const page = (await call('GET', '/v1/personas/presets/?limit=2&offset=1', world.teamA.member.token)).json();
    expect(page.total).toBe(all.total);
    expect(page.results).toEqual(all.results.slice(1, 3));
    expect422(await call('GET', '/v1/personas/presets/?limit=251', world.teamA.member.token), ['query', 'limit'], 'less_than_equal');
    expectDetail(await call('GET', '/v1/personas/presets/', null), 401);
    expectDetail(await call('GET', `/v1/personas/presets/?team_id=${world.teamB.id}`, world.teamA.member.token), 404);
  });

  it('answers a preset by id, read-only', async () => {
    const [preset] = (await call('GET', '/v1/personas/presets/', world.teamA.member.token)).json().results;
    const res = await call('GET', `/v1/personas/${preset.id}`, world.teamA.member.token);
    expect(res.json()).toEqual(preset);
    expectDetail(await call('PUT', `/v1/personas/${preset.id}`, world.teamA.member.token, { name: 'mine' }), 403);
    expectDetail(await call('DELETE', `/v1/personas/${preset.id}`, world.admin.token), 403);
  });

  it('creates a team persona from a preset, with or without a name override', async () => {
    const presets = (await call('GET', '/v1/personas/presets/?preset_category=adversarial', world.teamA.member.token)).json().results;
    const preset = presets[0];
    const res = await call('POST', `/v1/personas/from-preset/${preset.id}`, world.teamA.member.token, { name_override: 'Our attacker' });
    expect(res.statusCode, res.body).toBe(201);
    const persona = res.json();
    expectReferenceShape(persona, 'Persona');
    const { id, name, team_id, created_by, created_at, updated_at, is_preset, ...rest } = persona;
    expect({ name, team_id, created_by, is_preset }).toEqual({
      name: 'Our attacker',
      team_id: world.teamA.id,
      created_by: world.teamA.member.id,
      is_preset: false,
    });
    expect(id).not.toBe(preset.id);
    const { id: _i, name: _n, team_id: _t, created_by: _c, created_at: _ca, updated_at: _u, is_preset: _p, ...presetRest } = preset;
    expect(rest).toEqual(presetRest);
    expect(created_at).toBe(t.clock.current);
    expect(updated_at).toBe(t.clock.current);

    const plain = await call('POST', `/v1/personas/from-preset/${preset.id}`, world.teamA.member.token);
    expect(plain.statusCode, plain.body).toBe(201);
    expect(plain.json().name).toBe(preset.name);
    const listed = (
      await call('GET', `/v1/personas/?team_id=${world.teamA.id}&limit=100&search=${encodeURIComponent('Our attacker')}`, world.teamA.member.token)
    ).json();
    expect(listed.results.map((p: { id: string }) => p.id)).toEqual([persona.id]);

    const inTeam = await call('POST', `/v1/personas/from-preset/${preset.id}?team_id=${world.teamB.id}`, world.admin.token, null);
    expect(inTeam.statusCode, inTeam.body).toBe(201);
    expect(inTeam.json().team_id).toBe(world.teamB.id);
  });

  it('creates from a preset with an empty object, an empty body or an empty name_override', async () => {
    const [preset] = (await call('GET', '/v1/personas/presets/', world.teamA.member.token)).json().results;
    const url = `/v1/personas/from-preset/${preset.id}`;
    const headers = bearer(world.teamA.member.token);
    const bodies = [
      { headers, payload: {} },
      { headers, payload: { name_override: null } },
      { headers, payload: { name_override: '' } },
      { headers: { ...headers, 'content-type': 'application/json' }, payload: '' },
      { headers: { ...headers, 'content-type': 'application/json' }, payload: 'null' },
      { headers },
    ];
    for (const request of bodies) {
      const res = await t.app.inject({ method: 'POST', url, ...request });
      expect(res.statusCode, `${JSON.stringify(request.payload)}: ${res.body}`).toBe(201);
      expectReferenceShape(res.json(), 'Persona');
      expect(res.json()).toMatchObject({ name: preset.name, team_id: world.teamA.id, role: preset.role, access_permissions: preset.access_permissions });
    }
  });

  it('refuses an unknown preset, a bad body, other teams and read-only keys', async () => {
    const [preset] = (await call('GET', '/v1/personas/presets/', world.teamA.member.token)).json().results;
    expectDetail(await call('POST', '/v1/personas/from-preset/019b7a11-0000-7000-8000-000000000000', world.teamA.member.token, {}), 404);
    expect422(
      await call('POST', `/v1/personas/from-preset/${preset.id}`, world.teamA.member.token, { name_override: 5 }),
      ['body', 'name_override'],
      'string_type',
    );
    expect422(await call('POST', '/v1/personas/from-preset/nope', world.teamA.member.token, {}), ['path', 'preset_id'], 'uuid_parsing');
    expectDetail(await call('POST', `/v1/personas/from-preset/${preset.id}?team_id=${world.teamB.id}`, world.teamA.member.token, {}), 404);
    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['persona:read']);
    expectDetail(await call('POST', `/v1/personas/from-preset/${preset.id}`, readOnly, {}), 403);
    expectDetail(await call('POST', `/v1/personas/from-preset/${preset.id}`, null, {}), 401);
  });
});

describe('/openapi.json', () => {
  it("declares the reference's parameters for every persona operation: defaulted ones (limit, offset) optional, the from-preset body optional", async () => {
    const ours = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const operations: Array<[string, string]> = [
      ['get', '/v1/personas/'],
      ['post', '/v1/personas/'],
      ['get', '/v1/personas/presets/'],
      ['post', '/v1/personas/from-preset/{preset_id}'],
      ['get', '/v1/personas/{id}'],
      ['put', '/v1/personas/{id}'],
      ['delete', '/v1/personas/{id}'],
    ];
    for (const [method, path] of operations) expectParametersLikeReference(ours, method, path);
    const limit = ours.paths['/v1/personas/'].get.parameters.find((p: { name: string }) => p.name === 'limit');
    expect(limit).toMatchObject({ in: 'query', required: false, schema: { default: 10, minimum: 1, maximum: 100 } });
  });

  it('fills the defaults when limit and offset are absent', async () => {
    const res = await call('GET', '/v1/personas/presets/', world.teamA.member.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.length).toBe(res.json().total);
  });
});
