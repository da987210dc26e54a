import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createAgent, createApiKey, createTeam, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const put = (url: string, token: string, payload: unknown) =>
  t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });
const get = (url: string, token: string) => t.app.inject({ method: 'GET', url, headers: bearer(token) });

describe('POST /v1/agent-configurations/', () => {
  it('registers an agent with the seed defaults', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: bearer(world.teamA.member.token),
      payload: { agent_name: 'Support bot', model_name: 'gpt-4o' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const agent = res.json();
    expectReferenceShape(agent, 'Agent');
    expect(agent).toMatchObject({
      agent_name: 'Support bot',
      model_name: 'gpt-4o',
      team_id: world.teamA.id,
      created_by: world.teamA.member.id,
      hub: 'custom',
      rate_limit_requests_per_minute: 100,
      status: 'active',
      access_level: 'black_box',
      protocol: 'chat_completions',
      protection_status: 'unprotected',
      trust_stage: 'registered',
      trusted_at: null,
      ttt_days: null,
      dome_manually_configured: false,
      delegated_agents: [],
      skills: [],
      api_key: null,
      created_at: t.clock.current,
      updated_at: t.clock.current,
    });
  });

  it('accepts every writable field and moves rag_params into agent_params', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token, {
      agent_url: 'https://agent.example.com/v1',
      access_level: 'grey_box',
      protocol: 'a2a',
      rag_params: { k: 4 },
      mcp_config: { proxy_url: 'https://proxy.example.com', access_level: 'write', server_urls: ['https://mcp.example.com'] },
      delegated_agents: [{ url: 'https://helper.example.com', name: 'helper', capabilities: ['search'] }],
      agent_metadata: { role: 'support', tags: ['tier1'] },
      white_box_config: { repo_url: 'https://git.example.com/a.git', repo_branch: 'main' },
      test_score: '0.75',
      evaluated_harnesses: ['safety'],
    });
    expectReferenceShape(agent, 'Agent');
    expect(agent.agent_params).toEqual({ temperature: null, top_p: null, max_tokens: null, timeout: null, rag_params: { k: 4 }, function_route_params: null });
    expect(agent.mcp_config.server_urls).toEqual(['https://mcp.example.com']);
    expect(agent.delegated_agents[0]).toMatchObject({ url: 'https://helper.example.com', name: 'helper' });
    expect(agent.test_score).toBe('0.75');
    expect(agent.protocol).toBe('a2a');
  });

  it('answers every key of the nested objects\' reference models, null (or the default) where unset', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token, {
      agent_params: { temperature: 0.2 },
      mcp_config: { access_level: 'read' },
      delegated_agents: [{ url: 'https://helper.example.com' }],
      white_box_config: { entry_point: 'main.py' },
      agent_metadata: { version: '1' },
    });
    expect(agent.agent_params).toEqual({ temperature: 0.2, top_p: null, max_tokens: null, timeout: null, rag_params: null, function_route_params: null });
    expect(agent.mcp_config).toEqual({ proxy_url: null, access_level: 'read', server_urls: null });
    expect(agent.delegated_agents).toEqual([{ url: 'https://helper.example.com', agent_card_url: null, name: null, capabilities: null }]);
    expect(agent.white_box_config).toEqual({ source_code: null, repo_url: null, github_username: null, repo_branch: null, entry_point: 'main.py' });
    expect(agent.agent_metadata).toEqual({ role: null, job_description: null, version: '1', author: null, tags: null });
    // Keys in the reference's order, as its models write them.
    expect(Object.keys(agent.mcp_config)).toEqual(['proxy_url', 'access_level', 'server_urls']);
    const listed = (await t.app.inject({ method: 'GET', url: '/v1/agent-configurations/', headers: bearer(world.teamA.member.token) })).json();
    expect(listed.results.find((a: { id: string }) => a.id === agent.id).white_box_config.repo_url).toBeNull();
  });

  it('requires agent_name and model_name', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: bearer(world.teamA.member.token),
      payload: { agent_name: 'x' },
    });
    expect422(res, ['body', 'model_name'], 'missing');
  });
});

describe('PUT /v1/agent-configurations/{id}/lifecycle (seed 4.1)', () => {
  it('sets any stage; hardened captures trusted_at and ttt_days in days', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    t.clock.advance(3 * 86_400 + 43_200); // 3.5 days later
    const tested = await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'tested' });
    expect(tested.statusCode, tested.body).toBe(200);
    expectReferenceShape(tested.json(), 'Agent');
    expect(tested.json()).toMatchObject({ trust_stage: 'tested', trusted_at: null, ttt_days: null });

    const hardened = await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'hardened' });
    expect(hardened.statusCode).toBe(200);
    const body = hardened.json();
    expectReferenceShape(body, 'Agent');
    expect(body.trust_stage).toBe('hardened');
    expect(body.trusted_at).toBe(t.clock.current);
    expect(body.ttt_days).toBeCloseTo(3.5, 10);
    expect(body.updated_at).toBe(t.clock.current);
  });

  it('keeps trusted_at and ttt_days on later moves, and re-captures them on every move to hardened', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    t.clock.advance(86_400);
    const first = (await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'hardened' })).json();
    t.clock.advance(86_400);
    const trusted = (await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'trusted' })).json();
    expect(trusted.trusted_at).toBe(first.trusted_at);
    expect(trusted.ttt_days).toBe(first.ttt_days);
    const back = (await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'registered' })).json();
    expect(back.trust_stage).toBe('registered');
    expect(back.ttt_days).toBe(first.ttt_days);
    t.clock.advance(86_400);
    const again = (await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: 'hardened' })).json();
    expect(again.trusted_at).toBe(t.clock.current);
    expect(again.ttt_days).toBeCloseTo(3, 10);
  });

  it('records every change in the history, oldest first', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    for (const stage of ['tested', 'hardened', 'trusted']) {
      await put(`/v1/agent-configurations/${agent.id}/lifecycle`, world.teamA.member.token, { trust_stage: stage });
    }
    const res = await get(`/v1/agent-configurations/${agent.id}/lifecycle/history`, world.teamA.owner.token);
    expect(res.statusCode).toBe(200);
    const history = res.json();
    expect(history.count).toBe(4);
    expect(history.results.map((e: { from_stage: string | null; to_stage: string }) => [e.from_stage, e.to_stage])).toEqual([
      [null, 'registered'],
      ['registered', 'tested'],
      ['tested', 'hardened'],
      ['hardened', 'trusted'],
    ]);
    expect(history.results[1].changed_by).toBe(world.teamA.member.id);
    const page = (await get(`/v1/agent-configurations/${agent.id}/lifecycle/history?limit=2&offset=2`, world.teamA.member.token)).json();
    expect(page.count).toBe(4);
    expect(page.results.map((e: { to_stage: string }) => e.to_stage)).toEqual(['hardened', 'trusted']);
  });

  it('validates the body and the path', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}/lifecycle`;
    expect422(await put(url, world.teamA.member.token, { trust_stage: 'certified' }), ['body', 'trust_stage'], 'enum');
    expect422(await put(url, world.teamA.member.token, {}), ['body', 'trust_stage'], 'missing');
    expect422(await put(url, world.teamA.member.token, { trust_stage: 3 }), ['body', 'trust_stage'], 'enum');
    expect422(await put('/v1/agent-configurations/not-a-uuid/lifecycle', world.teamA.member.token, { trust_stage: 'tested' }), ['path', 'id'], 'uuid_parsing');
    const noBody = await t.app.inject({ method: 'PUT', url, headers: bearer(world.teamA.member.token) });
    expect422(noBody, ['body'], 'missing');
    const badJson = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(world.teamA.member.token), 'content-type': 'application/json' },
      payload: '{"trust_stage":',
    });
    expect422(badJson, ['body', 0], 'json_invalid');
    const wrongType = await t.app.inject({
      method: 'PUT',
      url,
      headers: { ...bearer(world.teamA.member.token), 'content-type': 'text/plain' },
      payload: 'hardened',
    });
    expectDetail(wrongType, 415);
    const fresh = (await get(`/v1/agent-configurations/${agent.id}`, world.teamA.member.token)).json();
    expect(fresh.trust_stage).toBe('registered');
  });

  it('answers 401 without a credential, 403 to a read-only key, 404 to another team, 200 to a super admin', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}/lifecycle`;
    const anonymous = await t.app.inject({ method: 'PUT', url, payload: { trust_stage: 'tested' } });
    expectDetail(anonymous, 401);
    expect(anonymous.headers['www-authenticate']).toBe('Bearer');
    expectDetail(await put(url, 'not-a-token', { trust_stage: 'tested' }), 401);

    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    expectDetail(await put(url, readOnly, { trust_stage: 'tested' }), 403);
    expect((await get(`/v1/agent-configurations/${agent.id}`, readOnly)).statusCode).toBe(200);

    const writer = await createApiKey(t.app, world.teamA.member.token, ['agent:write']);
    expect((await put(url, writer, { trust_stage: 'tested' })).statusCode).toBe(200);

    expectDetail(await put(url, world.teamB.member.token, { trust_stage: 'hardened' }), 404);
    const missing = await put('/v1/agent-configurations/01890000-0000-7000-8000-000000000000/lifecycle', world.teamA.member.token, { trust_stage: 'tested' });
    expectDetail(missing, 404);

    const asAdmin = await put(url, world.admin.token, { trust_stage: 'hardened' });
    expect(asAdmin.statusCode).toBe(200);
    expect(asAdmin.json().trust_stage).toBe('hardened');
  });
});

describe('PUT /v1/agent-configurations/{id} (seed 4.2)', () => {
  it('changes only the fields sent', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token, { purpose: 'help customers', agent_url: 'https://a.example.com' });
    t.clock.advance(10);
    const res = await put(`/v1/agent-configurations/${agent.id}`, world.teamA.member.token, { agent_name: 'Renamed', rate_limit_requests_per_minute: 5 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReferenceShape(body, 'Agent');
    expect(body).toMatchObject({ agent_name: 'Renamed', rate_limit_requests_per_minute: 5, purpose: 'help customers', agent_url: 'https://a.example.com', model_name: 'gpt-4o' });
    expect(body.updated_at).toBe(agent.updated_at + 10);
    expect(body.created_at).toBe(agent.created_at);
  });

  it('clears nullable fields with null and ignores null for non-nullable ones', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token, { purpose: 'p', agent_params: { temperature: 0.3 }, delegated_agents: [{ url: 'https://d.example.com' }] });
    const body = (
      await put(`/v1/agent-configurations/${agent.id}`, world.teamA.member.token, {
        purpose: null,
        agent_params: null,
        agent_name: null,
        status: null,
        rate_limit_requests_per_minute: null,
        delegated_agents: null,
        dome_manually_configured: null,
      })
    ).json();
    expectReferenceShape(body, 'Agent');
    expect(body.purpose).toBeNull();
    expect(body.agent_params).toBeNull();
    expect(body.agent_name).toBe('Agent');
    expect(body.status).toBe('active');
    expect(body.rate_limit_requests_per_minute).toBe(100);
    expect(body.delegated_agents).toEqual([{ url: 'https://d.example.com', agent_card_url: null, name: null, capabilities: null }]);
    expect(body.dome_manually_configured).toBe(false);
  });

  it('does not let trust_stage, team_id, created_by or trusted_at be written, and ignores unknown fields', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const body = (
      await put(`/v1/agent-configurations/${agent.id}`, world.teamA.member.token, {
        trust_stage: 'trusted',
        team_id: world.teamB.id,
        created_by: world.teamB.member.id,
        trusted_at: 5,
        ttt_days: 1,
        no_such_field: true,
        agent_params: { temperature: 0.1, also_unknown: 1 },
      })
    ).json();
    expect(body).toMatchObject({ trust_stage: 'registered', team_id: world.teamA.id, created_by: world.teamA.member.id, trusted_at: null, ttt_days: null });
    expect(body).not.toHaveProperty('no_such_field');
    expect(body.agent_params).toEqual({ temperature: 0.1, top_p: null, max_tokens: null, timeout: null, rag_params: null, function_route_params: null });
  });

  it('accepts test_score as a number or a decimal string and answers a decimal string', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const cases: Array<[unknown, string]> = [
      [0.85, '0.85'],
      [90, '90'],
      ['87.50', '87.50'],
      ['+.5', '0.5'],
      ['007', '7'],
      [1e-7, '0.0000001'],
    ];
    for (const [sent, answered] of cases) {
      const res = await put(url, world.teamA.member.token, { test_score: sent });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().test_score).toBe(answered);
      expectReferenceShape(res.json(), 'Agent');
    }
    expect422(await put(url, world.teamA.member.token, { test_score: 'ninety' }), ['body', 'test_score'], 'string_pattern_mismatch');
    expect422(await put(url, world.teamA.member.token, { test_score: '.' }), ['body', 'test_score'], 'string_pattern_mismatch');
    expect((await put(url, world.teamA.member.token, { test_score: null })).json().test_score).toBeNull();
  });

  it('enforces every bound and nested shape of the seed', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const token = world.teamA.member.token;
    expect422(await put(url, token, { rate_limit_requests_per_minute: 0 }), ['body', 'rate_limit_requests_per_minute'], 'greater_than_equal');
    expect422(await put(url, token, { rate_limit_requests_per_minute: 'many' }), ['body', 'rate_limit_requests_per_minute'], 'int_parsing');
    expect422(await put(url, token, { status: 'retired' }), ['body', 'status'], 'enum');
    expect422(await put(url, token, { access_level: 'glass_box' }), ['body', 'access_level'], 'enum');
    expect422(await put(url, token, { protocol: 'grpc' }), ['body', 'protocol'], 'enum');
    expect422(await put(url, token, { protection_status: 'shielded' }), ['body', 'protection_status'], 'enum');
    expect422(await put(url, token, { mcp_config: { proxy_url: 'not a url' } }), ['body', 'mcp_config', 'proxy_url'], 'url_parsing');
    expect422(await put(url, token, { mcp_config: { proxy_url: '' } }), ['body', 'mcp_config', 'proxy_url'], 'url_parsing');
    expect422(await put(url, token, { mcp_config: { proxy_url: `https://example.com/${'a'.repeat(2100)}` } }), ['body', 'mcp_config', 'proxy_url'], 'url_too_long');
    expect422(await put(url, token, { mcp_config: { server_urls: ['https://ok.example.com', 'nope'] } }), ['body', 'mcp_config', 'server_urls', 1], 'url_parsing');
    expect422(await put(url, token, { mcp_config: { access_level: 'root' } }), ['body', 'mcp_config', 'access_level'], 'enum');
    expect422(await put(url, token, { delegated_agents: [{ name: 'no url' }] }), ['body', 'delegated_agents', 0, 'url'], 'missing');
    expect422(await put(url, token, { agent_params: { temperature: 'hot' } }), ['body', 'agent_params', 'temperature'], 'float_parsing');
    expect422(await put(url, token, { agent_params: { max_tokens: 1.5 } }), ['body', 'agent_params', 'max_tokens'], 'int_from_float');
    expect422(await put(url, token, { dome_config_id: 'abc' }), ['body', 'dome_config_id'], 'uuid_parsing');
    expect422(await put(url, token, { agent_name: 42 }), ['body', 'agent_name'], 'string_type');
    expect422(await put(url, token, { evaluated_harnesses: 'safety' }), ['body', 'evaluated_harnesses'], 'list_type');
    expect422(await put(url, token, { agent_metadata: { tags: [1] } }), ['body', 'agent_metadata', 'tags', 0], 'string_type');
    const unchanged = (await get(url, token)).json();
    expect(unchanged.updated_at).toBe(agent.updated_at);
  });

  it('answers 404 for another team and 403 for a read-only key', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    expectDetail(await put(`/v1/agent-configurations/${agent.id}`, world.teamB.member.token, { agent_name: 'x' }), 404);
    const readOnly = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
    expectDetail(await put(`/v1/agent-configurations/${agent.id}`, readOnly, { agent_name: 'x' }), 403);
    expect((await put(`/v1/agent-configurations/${agent.id}`, world.admin.token, { agent_name: 'by admin' })).json().agent_name).toBe('by admin');
  });
});

describe("the agent's api_key", () => {
  it('is masked in responses, encrypted at rest, and kept when the mask is sent back', async () => {
    const secret = 'sk-live-abcdefghijklmnopqrstuvwxyz-9876';
    const agent = await createAgent(t.app, world.teamA.member.token, { api_key: secret });
    expect(agent.api_key).toBe('********9876');
    const raw = await t.database.db.selectFrom('agents').selectAll().where('id', '=', agent.id).executeTakeFirstOrThrow();
    expect(JSON.stringify(raw)).not.toContain(secret);
    expect(JSON.stringify(raw)).not.toContain('abcdefghijklmnop');

    const url = `/v1/agent-configurations/${agent.id}`;
    const kept = (await put(url, world.teamA.member.token, { api_key: '********9876', agent_name: 'same key' })).json();
    expect(kept.api_key).toBe('********9876');
    const after = await t.database.db.selectFrom('agents').select('api_key_enc').where('id', '=', agent.id).executeTakeFirstOrThrow();
    expect(after.api_key_enc).toBe(raw.api_key_enc);

    expect422(await put(url, world.teamA.member.token, { api_key: '********0000' }), ['body', 'api_key'], 'value_error');
    const replaced = (await put(url, world.teamA.member.token, { api_key: 'sk-other-key-000000000001' })).json();
    expect(replaced.api_key).toBe('********0001');
    const cleared = (await put(url, world.teamA.member.token, { api_key: null })).json();
    expect(cleared.api_key).toBeNull();
  });

  it('answers a short key with its last 4 characters, and a tiny one as the mask alone', async () => {
    expect((await createAgent(t.app, world.teamA.member.token, { api_key: 'short1' })).api_key).toBe('********ort1');
    expect((await createAgent(t.app, world.teamA.member.token, { api_key: 'abcd' })).api_key).toBe('********');
  });

  it('takes "" for no key, and accepts what the seed accepts without bounds of our own', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token, { api_key: 'sk-some-key-1234567' });
    const url = `/v1/agent-configurations/${agent.id}`;
    const cleared = await put(url, world.teamA.member.token, { api_key: '' });
    expect(cleared.json().api_key).toBeNull();
    const res = await put(url, world.teamA.member.token, { agent_name: '', hub: '', rate_limit_requests_per_minute: 5_000_000, last_evaluated_at: -1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ agent_name: '', hub: '', rate_limit_requests_per_minute: 5_000_000, last_evaluated_at: -1 });
    expectReferenceShape(res.json(), 'Agent');
  });
});

describe('GET /v1/agent-configurations/', () => {
  it("lists the caller's team in creation order with the total count, without archived agents by default", async () => {
    const token = world.teamB.owner.token;
    const teamParam = `team_id=${world.teamB.id}`;
    const created = [];
    for (let i = 0; i < 5; i++) created.push(await createAgentIn(world.teamB.id, token, `list-${i}`));
    const archived = await t.app.inject({ method: 'PUT', url: `/v1/agent-configurations/${created[4].id}/archive`, headers: bearer(token) });
    expect(archived.json().status).toBe('archived');
    expectReferenceShape(archived.json(), 'Agent');

    const all = (await get(`/v1/agent-configurations/?${teamParam}`, token)).json();
    expectReferenceShape(all, 'AgentConfigListResponse');
    expect(all.count).toBe(4);
    expect(all.results.map((a: { agent_name: string }) => a.agent_name)).toEqual(['list-0', 'list-1', 'list-2', 'list-3']);

    const page = (await get(`/v1/agent-configurations?${teamParam}&limit=2&offset=1`, token)).json();
    expect(page.count).toBe(4);
    expect(page.results.map((a: { agent_name: string }) => a.agent_name)).toEqual(['list-1', 'list-2']);

    const onlyArchived = (await get(`/v1/agent-configurations/?${teamParam}&statuses=archived`, token)).json();
    expect(onlyArchived.count).toBe(1);
    expect(onlyArchived.results[0].id).toBe(created[4].id);
    const both = (await get(`/v1/agent-configurations/?${teamParam}&statuses=archived&statuses=active`, token)).json();
    expect(both.count).toBe(5);
  });

  it('does not show other teams, and validates the query', async () => {
    const mine = (await get('/v1/agent-configurations/', world.teamB.member.token)).json();
    expect(mine.results.every((a: { team_id: string }) => a.team_id === world.teamB.id)).toBe(true);
    expectDetail(await get(`/v1/agent-configurations/?team_id=${world.teamA.id}`, world.teamB.member.token), 404);
    expect422(await get('/v1/agent-configurations/?limit=0', world.teamB.member.token), ['query', 'limit'], 'greater_than_equal');
    expect422(await get('/v1/agent-configurations/?limit=abc', world.teamB.member.token), ['query', 'limit'], 'int_parsing');
    expect((await get('/v1/agent-configurations/?limit=1000', world.teamB.member.token)).statusCode).toBe(200);
    expect422(await get('/v1/agent-configurations/?limit=1001', world.teamB.member.token), ['query', 'limit'], 'less_than_equal');
    expect422(await get('/v1/agent-configurations/?offset=-1', world.teamB.member.token), ['query', 'offset'], 'greater_than_equal');
    expect422(await get('/v1/agent-configurations/?statuses=gone', world.teamB.member.token), ['query', 'statuses', 0], 'enum');
  });

  it('searches the name and the id ignoring case, filters by trust stage, and counts what matches (additions)', async () => {
    const { admin, adminTeamId } = world;
    const team = await createTeam(t.app, admin, adminTeamId, 'searching');
    const token = team.owner.token;
    const names = ['Billing Bot', 'billing-helper', 'Support 50%_off', 'Router'];
    const created = [];
    for (const name of names) created.push(await createAgentIn(team.id, token, name));
    const [bot, helper, , router] = created;
    await put(`/v1/agent-configurations/${helper.id}/lifecycle`, token, { trust_stage: 'hardened' });
    await put(`/v1/agent-configurations/${router.id}/lifecycle`, token, { trust_stage: 'hardened' });
    const list = async (query: string) => {
      const res = await get(`/v1/agent-configurations/?team_id=${team.id}&${query}`, token);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expectReferenceShape(body, 'AgentConfigListResponse');
      return { count: body.count as number, names: body.results.map((a: { agent_name: string }) => a.agent_name) as string[] };
    };

    expect(await list('search=BILLING')).toEqual({ count: 2, names: ['Billing Bot', 'billing-helper'] });
    expect(await list('search=billing&limit=1&offset=1')).toEqual({ count: 2, names: ['billing-helper'] });
    // `%` and `_` are letters of the search, not wildcards.
    expect(await list(`search=${encodeURIComponent('50%_')}`)).toEqual({ count: 1, names: ['Support 50%_off'] });
    expect(await list(`search=${encodeURIComponent('%')}`)).toEqual({ count: 1, names: ['Support 50%_off'] });
    expect(await list('search=_')).toEqual({ count: 1, names: ['Support 50%_off'] });
    // A part of the id, in either case.
    expect(await list(`search=${router.id.slice(-12).toUpperCase()}`)).toEqual({ count: 1, names: ['Router'] });
    expect(await list('trust_stage=hardened')).toEqual({ count: 2, names: ['billing-helper', 'Router'] });
    expect(await list('trust_stage=registered')).toEqual({ count: 2, names: ['Billing Bot', 'Support 50%_off'] });
    expect(await list('trust_stage=hardened&search=bill')).toEqual({ count: 1, names: ['billing-helper'] });
    expect(await list('search=')).toEqual({ count: 4, names });
    // With the statuses filter: an archived match is shown only when archived agents are asked for.
    await t.app.inject({ method: 'PUT', url: `/v1/agent-configurations/${bot.id}/archive`, headers: bearer(token) });
    expect(await list('search=billing')).toEqual({ count: 1, names: ['billing-helper'] });
    expect(await list('search=billing&statuses=archived')).toEqual({ count: 1, names: ['Billing Bot'] });

    expect422(await get(`/v1/agent-configurations/?team_id=${team.id}&trust_stage=gone`, token), ['query', 'trust_stage'], 'enum');
    expect422(await get(`/v1/agent-configurations/?team_id=${team.id}&search=${'x'.repeat(256)}`, token), ['query', 'search'], 'string_too_long');
  });

  it('attaches latest_evaluation with include_scores', async () => {
    const token = world.teamA.member.token;
    const scored = await createAgent(t.app, token, { agent_name: 'scored' });
    const unscored = await createAgent(t.app, token, { agent_name: 'unscored' });
    const base = { team_id: world.teamA.id, agent_id: scored.id, reliability_score: 0.9, security_score: 0.8, safety_score: 0.7, created_at: 1 };
    await t.database.db
      .insertInto('evaluations')
      .values([
        { ...base, id: '01890000-0000-7000-8000-000000000001', status: 'completed', overall_score: 0.5, completed_at: 100 },
        { ...base, id: '01890000-0000-7000-8000-000000000002', status: 'completed', overall_score: 0.8, completed_at: 200 },
        { ...base, id: '01890000-0000-7000-8000-000000000003', status: 'running', overall_score: null, completed_at: null },
      ])
      .execute();
    const list = (await get('/v1/agent-configurations/?include_scores=true&limit=1000', token)).json();
    expectReferenceShape(list, 'AgentConfigListResponse');
    const byId = new Map(list.results.map((a: { id: string }) => [a.id, a]));
    expect((byId.get(scored.id) as { latest_evaluation: unknown }).latest_evaluation).toEqual({
      evaluation_id: '01890000-0000-7000-8000-000000000002',
      overall_score: 0.8,
      reliability_score: 0.9,
      security_score: 0.8,
      safety_score: 0.7,
      completed_at: 200,
    });
    expect((byId.get(unscored.id) as { latest_evaluation: unknown }).latest_evaluation).toBeNull();
    const plain = (await get('/v1/agent-configurations/', token)).json();
    expect(plain.results[0]).not.toHaveProperty('latest_evaluation');
    const one = (await get(`/v1/agent-configurations/${scored.id}?include_scores=true`, token)).json();
    expect(one.latest_evaluation.evaluation_id).toBe('01890000-0000-7000-8000-000000000002');
  });
});

async function createAgentIn(teamId: string, token: string, name: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: `/v1/agent-configurations/?team_id=${teamId}`,
    headers: bearer(token),
    payload: { agent_name: name, model_name: 'm' },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json();
}

/** Input both engines must treat alike: PostgreSQL used to answer some of it with a 500. */
describe('values at the edge of the columns (both engines)', () => {
  it('stores a rate limit beyond the int4 range, up to 2^53 − 1', async () => {
    const token = world.teamA.member.token;
    const created = await createAgent(t.app, token, { rate_limit_requests_per_minute: 2_147_483_648 });
    expect(created.rate_limit_requests_per_minute).toBe(2_147_483_648);
    const url = `/v1/agent-configurations/${created.id}`;
    const res = await put(url, token, { rate_limit_requests_per_minute: Number.MAX_SAFE_INTEGER });
    expect(res.statusCode, res.body).toBe(200);
    expect((await get(url, token)).json().rate_limit_requests_per_minute).toBe(Number.MAX_SAFE_INTEGER);
    expect422(await put(url, token, { rate_limit_requests_per_minute: 2 ** 53 }), ['body', 'rate_limit_requests_per_minute'], 'less_than_equal');
  });

  it('stores a test_score of up to 64 characters written out, and refuses a longer one with a 422 on both engines', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const longest = `.${'5'.repeat(62)}`; // answered as "0." + 62 fives: 64 characters
    const res = await put(url, token, { test_score: longest });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().test_score).toBe(`0.${'5'.repeat(62)}`);
    expectReferenceShape(res.json(), 'Agent');
    expect((await get(url, token)).json().test_score).toBe(res.json().test_score);
    expect422(await put(url, token, { test_score: `.${'5'.repeat(63)}` }), ['body', 'test_score'], 'decimal_max_digits');
    expect422(await put(url, token, { test_score: 1e300 }), ['body', 'test_score'], 'decimal_max_digits');
    expect422(await put(url, token, { test_score: '1'.repeat(65) }), ['body', 'test_score'], 'string_too_long');
  });

  it('takes only canonical 8-4-4-4-12 uuids, in path, query and body', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    const hex = agent.id.replace(/-/g, '');
    for (const spelling of [`urn:uuid:${agent.id}`, `{${agent.id}}`, hex, `${agent.id}0`, agent.id.slice(1)]) {
      expect422(await get(`/v1/agent-configurations/${encodeURIComponent(spelling)}`, token), ['path', 'id'], 'uuid_parsing');
      expect422(await put(`/v1/agent-configurations/${agent.id}`, token, { dome_config_id: spelling }), ['body', 'dome_config_id'], 'uuid_parsing');
      expect422(await get(`/v1/agent-configurations/?team_id=${encodeURIComponent(spelling)}`, token), ['query', 'team_id'], 'uuid_parsing');
    }
    // Upper case names the same id (ids are stored, and answered, lower case).
    const upper = await get(`/v1/agent-configurations/${agent.id.toUpperCase()}`, token);
    expect(upper.statusCode, upper.body).toBe(200);
    expect(upper.json().id).toBe(agent.id);
    const domeId = '0189ABCD-0000-7000-8000-00000000ABCD';
    const withDome = await put(`/v1/agent-configurations/${agent.id}`, token, { dome_config_id: domeId });
    expect(withDome.statusCode, withDome.body).toBe(200);
    expect(withDome.json().dome_config_id).toBe(domeId.toLowerCase());
    const listed = await get(`/v1/agent-configurations/?team_id=${world.teamA.id.toUpperCase()}`, token);
    expect(listed.statusCode, listed.body).toBe(200);
  });
});

/** The 422 `type` pydantic gives, where our checks differ from a plain JSON Schema reading. */
describe("pydantic's error types", () => {
  it('int_from_float for a number with a fraction, int_parsing for text', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    const url = `/v1/agent-configurations/${agent.id}`;
    expect422(await put(url, token, { rate_limit_requests_per_minute: 1.5 }), ['body', 'rate_limit_requests_per_minute'], 'int_from_float');
    expect422(await put(url, token, { last_evaluated_at: -0.25 }), ['body', 'last_evaluated_at'], 'int_from_float');
    expect422(await put(url, token, { rate_limit_requests_per_minute: '15' }), ['body', 'rate_limit_requests_per_minute'], 'int_parsing');
    expect422(await get('/v1/agent-configurations/?limit=1.5', token), ['query', 'limit'], 'int_parsing');
    expect((await put(url, token, { rate_limit_requests_per_minute: 7.0 })).json().rate_limit_requests_per_minute).toBe(7);
  });

  it('url_too_long, url_parsing and url_scheme for the URL fields', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const long = `https://example.com/${'a'.repeat(2064)}`; // 2084 characters
    expect422(await put(url, token, { mcp_config: { proxy_url: long } }), ['body', 'mcp_config', 'proxy_url'], 'url_too_long');
    expect422(await put(url, token, { mcp_config: { server_urls: [long] } }), ['body', 'mcp_config', 'server_urls', 0], 'url_too_long');
    expect422(await put(url, token, { mcp_config: { proxy_url: 'http//missing-colon' } }), ['body', 'mcp_config', 'proxy_url'], 'url_parsing');
    for (const other of ['ftp://files.example.com/x', 'javascript:alert(1)', 'file:///etc/passwd', 'mailto:a@example.com']) {
      expect422(await put(url, token, { mcp_config: { proxy_url: other } }), ['body', 'mcp_config', 'proxy_url'], 'url_scheme');
      expect422(await put(url, token, { mcp_config: { server_urls: ['https://ok.example.com', other] } }), ['body', 'mcp_config', 'server_urls', 1], 'url_scheme');
    }
    const ok = await put(url, token, { mcp_config: { proxy_url: `https://example.com/${'a'.repeat(2063)}`, server_urls: ['HTTP://UPPER.example.com'] } });
    expect(ok.statusCode, ok.body).toBe(200);
    const res = await put(url, world.teamA.member.token, { mcp_config: { proxy_url: 'ftp://x.example.com' } });
    expect(res.json().detail[0].msg).toBe("URL scheme should be 'http' or 'https'");
  });

  it("takes pydantic's lax spellings of a query boolean and refuses others with bool_parsing", async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    for (const yes of ['true', 'True', 'TRUE', '1', 'yes', 'YES', 'on', 'On', 't', 'y']) {
      const res = await get(`/v1/agent-configurations/${agent.id}?include_scores=${yes}`, token);
      expect(res.statusCode, `${yes}: ${res.body}`).toBe(200);
      expect(res.json(), yes).toHaveProperty('latest_evaluation', null);
    }
    for (const no of ['false', 'False', '0', 'no', 'NO', 'off', 'OFF', 'f', 'n']) {
      const res = await get(`/v1/agent-configurations/${agent.id}?include_scores=${no}`, token);
      expect(res.statusCode, `${no}: ${res.body}`).toBe(200);
      expect(res.json(), no).not.toHaveProperty('latest_evaluation');
    }
    for (const bad of ['2', 'maybe', 'truee', 'yess', '']) {
      expect422(await get(`/v1/agent-configurations/${agent.id}?include_scores=${bad}`, token), ['query', 'include_scores'], 'bool_parsing');
      expect422(await get(`/v1/agent-configurations/?include_scores=${bad}`, token), ['query', 'include_scores'], 'bool_parsing');
    }
  });
});

describe('views of an agent for evaluation, Dome and the Trust Runtime', () => {
  it('GET /v1/agent-configurations/{id}/evaluation-config answers the fields an evaluation needs, the key masked', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token, { agent_url: 'https://eval.example.com/v1', api_key: 'sk-eval-secret-5678', protocol: 'a2a', hub: 'openai', rate_limit_requests_per_minute: 42 });
    const res = await get(`/v1/agent-configurations/${agent.id}/evaluation-config`, token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'AgentEvaluationConfig');
    expect(res.json()).toEqual({
      hub: 'openai',
      protocol: 'a2a',
      agent_url: 'https://eval.example.com/v1',
      agent_api_key: '********5678',
      agent_model_name: 'gpt-4o',
      agent_name: agent.agent_name,
      rate_limit_requests_per_minute: 42,
    });
    expect(res.body).not.toContain('sk-eval-secret');
    const keyless = await createAgent(t.app, token);
    expect((await get(`/v1/agent-configurations/${keyless.id}/evaluation-config`, token)).json().agent_api_key).toBe('');
    expectDetail(await get(`/v1/agent-configurations/${agent.id}/evaluation-config`, world.teamB.member.token), 404);
    expect422(await get('/v1/agent-configurations/nope/evaluation-config', token), ['path', 'id'], 'uuid_parsing');
  });

  it('GET /v1/agent-configurations/{agent_id}/dome-configs answers the configuration the agent names, in its team', async () => {
    const token = world.teamA.member.token;
    const domeId = '01890000-0000-7000-8000-00000000d0e0';
    const agent = await createAgent(t.app, token, { dome_config_id: domeId });
    const url = `/v1/agent-configurations/${agent.id}/dome-configs?team_id=${world.teamA.id}`;
    const res = await get(url, token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'AgentDomeConfigResponse');
    expect(res.json()).toEqual({
      id: domeId,
      status: 'pending',
      agent_id: agent.id,
      config_body: {},
      dome_instance_url: null,
      created_at: agent.created_at,
      created_by: world.teamA.member.id,
      updated_at: agent.updated_at,
      updated_by: null,
    });
    expect422(await get(`/v1/agent-configurations/${agent.id}/dome-configs`, token), ['query', 'team_id'], 'missing');
    expect422(await get(`/v1/agent-configurations/${agent.id}/dome-configs?team_id=x`, token), ['query', 'team_id'], 'uuid_parsing');
    expect422(await get(`/v1/agent-configurations/nope/dome-configs?team_id=${world.teamA.id}`, token), ['path', 'agent_id'], 'uuid_parsing');
    // Another team named, by its member or ours: 404 either way.
    expectDetail(await get(`/v1/agent-configurations/${agent.id}/dome-configs?team_id=${world.teamB.id}`, token), 404);
    expectDetail(await get(`/v1/agent-configurations/${agent.id}/dome-configs?team_id=${world.teamB.id}`, world.teamB.member.token), 404);
    expectDetail(await get(`/v1/agent-configurations/${agent.id}/dome-configs?team_id=${world.teamB.id}`, world.admin.token), 404);
    const bare = await createAgent(t.app, token);
    expectDetail(await get(`/v1/agent-configurations/${bare.id}/dome-configs?team_id=${world.teamA.id}`, token), 404);
  });

  it('GET /v1/agents/{agent_id}/constraints answers empty constraints, enforced when Dome protects the agent', async () => {
    const token = world.teamA.member.token;
    const agent = await createAgent(t.app, token);
    const res = await get(`/v1/agents/${agent.id}/constraints`, token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'AgentConstraints');
    expect(res.json()).toEqual({
      agent_id: agent.id,
      dome_config: { input_guards: [], output_guards: [], guards: {} },
      tool_permissions: [],
      organization: { required_input_guards: [], required_output_guards: [], denied_tools: [], max_model_tier: null },
      enforcement_mode: 'warn',
      updated_at: new Date(agent.updated_at * 1000).toISOString(),
    });
    t.clock.advance(60);
    await put(`/v1/agent-configurations/${agent.id}`, token, { protection_status: 'domed' });
    const domed = (await get(`/v1/agents/${agent.id}/constraints`, token)).json();
    expect(domed.enforcement_mode).toBe('enforce');
    expect(domed.updated_at).toBe(new Date(t.clock.current * 1000).toISOString());
    expectDetail(await get(`/v1/agents/${agent.id}/constraints`, world.teamB.member.token), 404);
    expect422(await get('/v1/agents/nope/constraints', token), ['path', 'agent_id'], 'uuid_parsing');
  });
});
