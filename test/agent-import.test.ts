import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseOutboundRules } from '../src/connector/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectParametersLikeReference, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

/** A stand-in agent on loopback: each path answers what `routes` says; every request is counted. */
let server: Server;
let origin: string;
let routes: Record<string, { status: number; body: string }> = {};
let hits: string[] = [];

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  server = createServer((req, res) => {
    hits.push(req.url ?? '');
    const route = routes[req.url ?? ''];
    res.writeHead(route?.status ?? 404, { 'content-type': 'application/json' });
    res.end(route?.body ?? '{"detail":"Not Found"}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});
beforeEach(() => {
  routes = {};
  hits = [];
});

const fixtureText = (name: string) => readFileSync(new URL(`./fixtures/agent-cards/${name}`, import.meta.url), 'utf8');
const fixture = (name: string) => JSON.parse(fixtureText(name));
const post = (url: string, token: string | null, payload: unknown) =>
  t.app.inject({ method: 'POST', url, headers: token === null ? {} : bearer(token), payload: payload as object });
const importAgent = (payload: unknown, token = world.teamA.member.token) => post('/v1/agent-configurations/import', token, payload);
const validate = (payload: unknown, token = world.teamA.member.token) => post('/v1/agent-configurations/import/validate', token, payload);

function expectImported(res: { statusCode: number; body: string }) {
  expect(res.statusCode, res.body).toBe(201);
  const body = JSON.parse(res.body);
  expectReferenceShape(body, 'UnifiedImportResponse');
  expectReferenceShape(body.agent, 'Agent');
  for (const skill of body.agent.skills) expectReferenceShape(skill, 'AgentSkill');
  if (body.agent.capabilities !== null) expectReferenceShape(body.agent.capabilities, 'AgentCapabilities');
  expectReferenceShape(body.agent.import_metadata, 'ImportMetadata');
  return body;
}

describe('POST /v1/agent-configurations/import with agent_card (grey box)', () => {
  it('imports an A2A 0.2 card', async () => {
    const body = expectImported(await importAgent({ agent_card: fixture('currency-agent-v0.2.json') }));
    expect(body.access_level).toBe('grey_box');
    expect(body.agent).toMatchObject({
      agent_name: 'Currency Agent',
      model_name: 'unknown',
      agent_url: 'http://localhost:10000/',
      protocol: 'a2a',
      access_level: 'grey_box',
      team_id: world.teamA.id,
      created_by: world.teamA.member.id,
      trust_stage: 'registered',
      purpose: 'Helps with exchange rates for currencies',
      capabilities: { streaming: true, push_notifications: true, code_execution: false, memory: false, delegation: false, tools: [] },
      skills: [
        {
          id: 'convert_currency',
          name: 'Currency Exchange Rates Tool',
          description: 'Helps with exchange values between various currencies',
          input_modes: ['text', 'text/plain'],
          output_modes: ['text', 'text/plain'],
        },
      ],
      agent_metadata: {
        role: null,
        job_description: 'Helps with exchange rates for currencies',
        version: '1.0.0',
        author: null,
        tags: ['currency conversion', 'currency exchange'],
      },
      import_metadata: { source: 'manual', source_url: null, imported_at: t.clock.current, original_format: 'a2a-agent-card/0.2' },
    });
    // Stored, not just answered: the agent reads back the same, with its first lifecycle event.
    const stored = await t.app.inject({ method: 'GET', url: `/v1/agent-configurations/${body.agent.id}`, headers: bearer(world.teamA.member.token) });
    expect(stored.json()).toEqual(body.agent);
    const history = await t.app.inject({
      method: 'GET',
      url: `/v1/agent-configurations/${body.agent.id}/lifecycle/history`,
      headers: bearer(world.teamA.member.token),
    });
    expect(history.json().results.map((e: { to_stage: string }) => e.to_stage)).toEqual(['registered']);
  });

  it('imports an A2A 0.3 card', async () => {
    const body = expectImported(
      await importAgent({ agent_card: fixture('georoute-agent-v0.3.json'), override_name: 'Routes', rate_limit_requests_per_minute: 30 }),
    );
    expect(body.agent).toMatchObject({
      agent_name: 'Routes',
      agent_url: 'https://georoute-agent.example.com/a2a/v1',
      protocol: 'a2a',
      access_level: 'grey_box',
      rate_limit_requests_per_minute: 30,
      capabilities: { streaming: true, push_notifications: true },
      agent_metadata: {
        version: '1.2.0',
        author: 'Example Geo Services Inc.',
        tags: ['maps', 'routing', 'navigation', 'directions', 'traffic', 'customization', 'visualization', 'cartography'],
      },
      import_metadata: { source: 'manual', original_format: 'a2a-agent-card/0.3.0' },
    });
    expect(body.agent.skills).toEqual([
      {
        id: 'route-optimizer-traffic',
        name: 'Traffic-Aware Route Optimizer',
        description: expect.stringMatching(/^Calculates the optimal driving route/),
        input_modes: ['application/json', 'text/plain'],
        output_modes: ['application/json', 'application/vnd.geo+json', 'text/html'],
      },
      {
        id: 'custom-map-generator',
        name: 'Personalized Map Generator',
        description: expect.stringMatching(/^Creates custom map images/),
        input_modes: ['application/json'],
        output_modes: ['image/png', 'image/jpeg', 'application/json', 'text/html'],
      },
    ]);
  });

  it('imports an A2A 1.0 card (supportedInterfaces)', async () => {
    const body = expectImported(await importAgent({ agent_card: fixture('travel-planner-v1.0.json'), api_key: 'sk-travel-0123456789abcd' }));
    expect(body.agent).toMatchObject({
      agent_name: 'Travel Planner Agent',
      agent_url: 'https://travel-agent.example.com/a2a/v1',
      protocol: 'a2a',
      access_level: 'grey_box',
      api_key: '********abcd',
      capabilities: { streaming: true, push_notifications: false },
      agent_metadata: { version: '2.4.1', author: 'Example Travel Co.' },
      import_metadata: { original_format: 'a2a-agent-card/1.0' },
    });
    expect(body.agent.skills.map((s: { id: string }) => s.id)).toEqual(['flight-search', 'itinerary-builder']);
    expect(body.agent.skills[0].input_modes).toEqual(['text/plain', 'application/json']);
    expect(JSON.stringify(body)).not.toContain('sk-travel-0123456789abcd');
  });

  it('imports a 1.0 card through its JSONRPC interface, keeping the tenant in import_metadata', async () => {
    const card = fixture('travel-planner-v1.0.json');
    card.supportedInterfaces = [
      { url: 'https://travel-agent.example.com/a2a/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' },
      { url: 'https://travel-agent.example.com/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0', tenant: 'acme' },
    ];
    const body = expectImported(await importAgent({ agent_card: card }));
    expect(body.warnings).toEqual([]);
    expect(body.agent.agent_url).toBe('https://travel-agent.example.com/a2a/jsonrpc');
    expect(body.agent.import_metadata).toEqual({
      source: 'manual',
      source_url: null,
      imported_at: t.clock.current,
      original_format: 'a2a-agent-card/1.0',
      tenant: 'acme',
    });
    const stored = await t.app.inject({ method: 'GET', url: `/v1/agent-configurations/${body.agent.id}`, headers: bearer(world.teamA.member.token) });
    expect(stored.json().import_metadata.tenant).toBe('acme');
  });

  it('answers what is wrong with a card: a skill without id or name', async () => {
    const card = fixture('georoute-agent-v0.3.json');
    delete card.skills[1].id;
    delete card.skills[0].name;
    const res = await importAgent({ agent_card: card });
    expect422(res, ['body', 'agent_card', 'skills', 0, 'name'], 'value_error');
    expect422(res, ['body', 'agent_card', 'skills', 1, 'id'], 'value_error');
    expect422(await importAgent({ agent_card: { name: 'x' } }), ['body', 'agent_card', 'url'], 'value_error');
  });
});

/**
 * Real-world AgentCards (sources in test/fixtures/agent-cards/README.md), each imported as an
 * upload and checked field by field. Fields the card does not feed are the agent defaults.
 */
describe('real-world AgentCards', () => {
  const noCapabilities = { code_execution: false, memory: false, delegation: false, tools: [] };
  const GEO_DESCRIPTION =
    'Provides advanced route planning, traffic analysis, and custom map generation services. This agent can calculate optimal routes, estimate travel times considering real-time traffic, and create personalized maps with points of interest.';
  const GEO_SKILLS = [
    {
      id: 'route-optimizer-traffic',
      name: 'Traffic-Aware Route Optimizer',
      description:
        'Calculates the optimal driving route between two or more locations, taking into account real-time traffic conditions, road closures, and user preferences (e.g., avoid tolls, prefer highways).',
      input_modes: ['application/json', 'text/plain'],
      output_modes: ['application/json', 'application/vnd.geo+json', 'text/html'],
    },
    {
      id: 'custom-map-generator',
      name: 'Personalized Map Generator',
      description:
        'Creates custom map images or interactive map views based on user-defined points of interest, routes, and style preferences. Can overlay data layers.',
      input_modes: ['application/json'],
      output_modes: ['image/png', 'image/jpeg', 'application/json', 'text/html'],
    },
  ];
  const GEO_TAGS = ['maps', 'routing', 'navigation', 'directions', 'traffic', 'customization', 'visualization', 'cartography'];
  const GEO_AGENT = {
    agent_name: 'GeoSpatial Route Planner Agent',
    agent_url: 'https://georoute-agent.example.com/a2a/v1',
    purpose: GEO_DESCRIPTION,
    capabilities: { streaming: true, push_notifications: true, ...noCapabilities },
    skills: GEO_SKILLS,
    agent_metadata: { role: null, job_description: GEO_DESCRIPTION, version: '1.2.0', author: 'Example Geo Services Inc.', tags: GEO_TAGS },
  };

  const cases: Array<{ file: string; source: string; format: string; warnings: string[]; agent: Record<string, unknown> }> = [
    {
      file: 'facts-agent-v0.2.json',
      source: 'a2aproject/a2a-samples samples/python/agents/adk_facts/remote_a2a/facts_agent/agent.json',
      format: 'a2a-agent-card/0.2',
      warnings: [],
      agent: {
        agent_name: 'facts_agent',
        agent_url: 'http://localhost:8001/a2a/facts_agent',
        purpose: 'Agent to give interesting facts.',
        capabilities: { streaming: false, push_notifications: false, ...noCapabilities },
        skills: [
          {
            id: 'give_facts',
            name: 'Interesting Facts',
            description: 'Provide interesting facts about various topics using Google Search.',
            input_modes: ['text/plain'],
            output_modes: ['text/plain'],
          },
        ],
        agent_metadata: {
          role: null,
          job_description: 'Agent to give interesting facts.',
          version: '1.0.0',
          author: null,
          tags: ['information', 'facts', 'knowledge', 'search', 'google'],
        },
      },
    },
    {
      file: 'georoute-agent-v0.3.json',
      source: 'A2A specification 0.3.0, sample Agent Card (a2aproject/A2A docs/specification.md)',
      format: 'a2a-agent-card/0.3.0',
      warnings: [],
      // The 0.3 and the 1.0 form of the same card give the same agent.
      agent: GEO_AGENT,
    },
    {
      file: 'georoute-agent-v1.0.json',
      source: 'A2A specification 1.0, section 8.5 Sample Agent Card (a2aproject/A2A docs/specification.md)',
      format: 'a2a-agent-card/1.0',
      warnings: [],
      // The 0.3 and the 1.0 form of the same card give the same agent.
      agent: GEO_AGENT,
    },
    {
      file: 'recipe-agent-v1.0-draft.json',
      source: 'a2aproject/A2A cli/testdata/valid/full.json (supportedInterfaces with "transport" instead of "protocolBinding")',
      format: 'a2a-agent-card/1.0',
      warnings: [],
      agent: {
        agent_name: 'Recipe Agent',
        agent_url: 'https://recipes.example.com/a2a',
        purpose: 'An A2A agent that helps users with recipes and cooking',
        capabilities: { streaming: true, push_notifications: true, ...noCapabilities },
        skills: [
          {
            id: 'search',
            name: 'Search Recipes',
            description: 'Search for recipes by name, ingredient, or cuisine',
            input_modes: ['text/plain'],
            output_modes: ['application/json'],
          },
          {
            id: 'recommend',
            name: 'Get Recommendations',
            description: 'Get personalized recipe recommendations based on preferences',
            input_modes: ['text/plain', 'application/json'],
            output_modes: ['text/plain', 'application/json'],
          },
          {
            id: 'convert',
            name: 'Convert Measurements',
            description: 'Convert between measurement units (cups, grams, etc.)',
            input_modes: ['text/plain', 'application/json'],
            output_modes: ['text/plain', 'application/json'],
          },
        ],
        agent_metadata: {
          role: null,
          job_description: 'An A2A agent that helps users with recipes and cooking',
          version: '1.0.0',
          author: 'Example Corp',
          tags: ['search', 'recipes', 'recommendations', 'personalization', 'conversion', 'units'],
        },
      },
    },
  ];

  for (const { file, source, format, warnings, agent } of cases) {
    it(`imports ${file} (${source})`, async () => {
      const res = await importAgent({ agent_card: fixture(file) });
      const body = expectImported(res);
      expect(body.access_level).toBe('grey_box');
      expect(body.warnings).toEqual(warnings);
      const expected = {
        ...agent,
        model_name: 'unknown',
        protocol: 'a2a',
        access_level: 'grey_box',
        team_id: world.teamA.id,
        created_by: world.teamA.member.id,
        trust_stage: 'registered',
        rate_limit_requests_per_minute: 100,
        api_key: null,
        import_metadata: { source: 'manual', source_url: null, imported_at: t.clock.current, original_format: format },
      };
      for (const [field, value] of Object.entries(expected)) expect(body.agent[field], `${file}: ${field}`).toEqual(value);
      // Validation previews the same card without saving anything.
      const preview = (await validate({ agent_card: fixture(file) })).json();
      expect(preview).toMatchObject({ valid: true, access_level: 'grey_box', errors: [], warnings });
      expect(preview.agent_card).toEqual(fixture(file));
    });
  }
});

describe('POST /v1/agent-configurations/import with agent_url (black box)', () => {
  it('reads the card at /.well-known/agent-card.json and keeps the URL given', async () => {
    routes['/.well-known/agent-card.json'] = { status: 200, body: fixtureText('currency-agent-v0.2.json') };
    const body = expectImported(await importAgent({ agent_url: `${origin}/a2a` }));
    expect(hits).toEqual(['/.well-known/agent-card.json']);
    expect(body.access_level).toBe('black_box');
    expect(body.agent).toMatchObject({
      agent_name: 'Currency Agent',
      agent_url: `${origin}/a2a`,
      protocol: 'a2a',
      access_level: 'black_box',
      skills: [{ id: 'convert_currency' }],
      capabilities: { streaming: true },
      import_metadata: { source: 'manual', source_url: `${origin}/.well-known/agent-card.json`, original_format: 'a2a-agent-card/0.2' },
    });
    // The card names http://localhost:10000/: the person is told which URL was kept.
    expect(body.warnings.join(' ')).toContain('http://localhost:10000/');
  });

  it('falls back to /.well-known/agent.json', async () => {
    routes['/.well-known/agent.json'] = { status: 200, body: fixtureText('travel-planner-v1.0.json') };
    const body = expectImported(await importAgent({ agent_url: origin }));
    expect(hits).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
    expect(body.agent).toMatchObject({
      agent_name: 'Travel Planner Agent',
      protocol: 'a2a',
      import_metadata: { source_url: `${origin}/.well-known/agent.json` },
    });
  });

  it('uses the endpoint of the card when the URL given is the card document itself', async () => {
    routes['/cards/geo.json'] = { status: 200, body: fixtureText('georoute-agent-v0.3.json') };
    const body = expectImported(await importAgent({ agent_url: `${origin}/cards/geo.json` }));
    expect(hits).toEqual(['/cards/geo.json']);
    expect(body.agent.agent_url).toBe('https://georoute-agent.example.com/a2a/v1');
    expect(body.agent.import_metadata.source_url).toBe(`${origin}/cards/geo.json`);
  });

  it('does not store the key given when the card document names an endpoint on another origin (it would be sent there)', async () => {
    routes['/cards/geo.json'] = { status: 200, body: fixtureText('georoute-agent-v0.3.json') };
    const body = expectImported(await importAgent({ agent_url: `${origin}/cards/geo.json`, api_key: 'sk-import-secret-0123456789' }));
    expect(body.agent).toMatchObject({ agent_url: 'https://georoute-agent.example.com/a2a/v1', api_key: null });
    expect(body.warnings.join(' ')).toContain('https://georoute-agent.example.com');
    expect(body.warnings.join(' ')).toContain('API key was not stored');
    // The card's endpoint on the origin the person gave: the key is for it.
    const card = { ...fixture('georoute-agent-v0.3.json'), url: `${origin}/a2a/v1` };
    routes['/cards/here.json'] = { status: 200, body: JSON.stringify(card) };
    const here = expectImported(await importAgent({ agent_url: `${origin}/cards/here.json`, api_key: 'sk-import-secret-0123456789' }));
    expect(here.agent).toMatchObject({ agent_url: `${origin}/a2a/v1`, api_key: '********6789' });
  });

  it('registers a plain black box when no card is published, saying where it looked', async () => {
    const body = expectImported(await importAgent({ agent_url: `${origin}/v1/chat` }));
    expect(hits).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
    expect(body.agent).toMatchObject({
      agent_name: new URL(origin).host,
      agent_url: `${origin}/v1/chat`,
      model_name: 'unknown',
      protocol: 'chat_completions',
      access_level: 'black_box',
      skills: [],
      capabilities: null,
      import_metadata: { source: 'manual', source_url: `${origin}/v1/chat`, original_format: 'agent_url' },
    });
    expect(body.warnings).toHaveLength(1);
    expect(body.warnings[0]).toContain(`${origin}/.well-known/agent-card.json answered HTTP 404`);
  });

  it('falls back when the card is not JSON, or is a card with problems', async () => {
    routes['/.well-known/agent-card.json'] = { status: 200, body: '<html>hello</html>' };
    const notJson = expectImported(await importAgent({ agent_url: origin, override_name: 'Plain' }));
    expect(notJson.agent).toMatchObject({ agent_name: 'Plain', protocol: 'chat_completions', skills: [] });
    expect(notJson.warnings[0]).toContain('is not valid JSON');

    const broken = fixture('currency-agent-v0.2.json');
    delete broken.skills[0].id;
    routes['/.well-known/agent-card.json'] = { status: 200, body: JSON.stringify(broken) };
    const body = expectImported(await importAgent({ agent_url: origin }));
    expect(body.agent).toMatchObject({ protocol: 'chat_completions', access_level: 'black_box', skills: [] });
    expect(body.warnings[0]).toContain('skills[0].id: "id" is required');
  });

  it('falls back when nothing listens at the address', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const body = expectImported(await importAgent({ agent_url: `http://127.0.0.1:${port}/` }));
    expect(body.agent.protocol).toBe('chat_completions');
    expect(body.warnings[0]).toContain('could not be reached');
  });

  it('refuses a URL that is not http(s)', async () => {
    expect422(await importAgent({ agent_url: 'file:///etc/passwd' }), ['body', 'agent_url'], 'url_parsing');
    expect422(await importAgent({ agent_url: 'agent.example.com' }), ['body', 'agent_url'], 'url_parsing');
    expect(hits).toEqual([]);
  });
});

describe('POST /v1/agent-configurations/import with source_code (white box)', () => {
  it('imports uploaded files, taking name and model from the code', async () => {
    const main = 'from agents import Agent\n\nagent = Agent(name="Billing Helper", model="gpt-4o-mini", instructions=PROMPT)\n';
    const body = expectImported(
      await importAgent({
        source_code: {
          files: { 'main.py': main },
          framework: 'openai-agents',
          description: 'Answers billing questions',
          system_prompt: 'Be brief.',
          tools: ['lookup_invoice'],
        },
      }),
    );
    expect(body.access_level).toBe('white_box');
    expect(body.agent).toMatchObject({
      agent_name: 'Billing Helper',
      model_name: 'gpt-4o-mini',
      access_level: 'white_box',
      protocol: 'chat_completions',
      agent_system_prompt: 'Be brief.',
      purpose: 'Answers billing questions',
      white_box_config: { source_code: main, entry_point: 'main.py' },
      capabilities: { tools: ['lookup_invoice'] },
      agent_metadata: { tags: ['openai-agents'] },
      import_metadata: { source: 'manual', original_format: 'source_code/openai-agents' },
    });
    expect(body.warnings).toEqual([]);
  });

  it('keeps every file of a multi-file upload, the entry point first', async () => {
    const body = expectImported(
      await importAgent({ source_code: { files: { 'tools.py': 'def lookup(): ...', 'app.py': 'print(1)' }, agent_name: 'Multi' }, entry_point: 'app.py' }),
    );
    expect(body.agent).toMatchObject({ agent_name: 'Multi', model_name: 'unknown', white_box_config: { entry_point: 'app.py' } });
    expect(body.agent.white_box_config.source_code).toBe('# ==== file: app.py ====\nprint(1)\n# ==== file: tools.py ====\ndef lookup(): ...');
    expect(body.warnings[0]).toContain('No model name');
  });

  it('answers which entry point is missing', async () => {
    const res = await importAgent({ source_code: { files: { 'agent.py': 'x = 1' } } });
    expect422(res, ['body', 'source_code', 'entry_point'], 'value_error');
    expect(res.json().detail[0].msg).toContain('"agent.py"');
    expect422(await importAgent({ source_code: { files: {} } }), ['body', 'source_code', 'files'], 'value_error');
    expect422(await importAgent({ source_code: { files: { 'main.py': 5 } } }), ['body', 'source_code', 'files', 'main.py'], 'string_type');
    expect422(await importAgent({ source_code: {} }), ['body', 'source_code', 'files'], 'missing');
  });
});

describe('the import request', () => {
  it("is published as the reference's: rate_limit_requests_per_minute optional (default 100)", async () => {
    const ours = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    for (const path of ['/v1/agent-configurations/import', '/v1/agent-configurations/import/validate']) {
      expectParametersLikeReference(ours, 'post', path);
      const published = ours.paths[path].post.requestBody.content['application/json'].schema;
      // A named schema is a component, referred to by $ref (as in the reference's document).
      const body = published.$ref ? ours.components.schemas[published.$ref.split('/').pop()] : published;
      expect(published.$ref).toBe('#/components/schemas/UnifiedImportRequest');
      expect(body.required ?? []).not.toContain('rate_limit_requests_per_minute');
      expect(body.properties.rate_limit_requests_per_minute.default).toBe(100);
    }
  });

  it('needs exactly one of agent_url, agent_card or source_code', async () => {
    const none = await importAgent({ override_name: 'x' });
    expect422(none, ['body'], 'value_error');
    expect(none.json().detail[0].msg).toContain('exactly one of agent_url');
    const two = await importAgent({ agent_url: origin, agent_card: fixture('currency-agent-v0.2.json') });
    expect422(two, ['body'], 'value_error');
    expect(two.json().detail[0].msg).toContain('agent_url and agent_card');
    expect(hits).toEqual([]);
    expect422(
      await importAgent({ agent_card: fixture('currency-agent-v0.2.json'), rate_limit_requests_per_minute: 0 }),
      ['body', 'rate_limit_requests_per_minute'],
      'greater_than_equal',
    );
    expect422(await importAgent({ agent_card: [] }), ['body', 'agent_card'], 'model_attributes_type');
  });

  it('echoes external_id and identity_provider and records them in import_metadata', async () => {
    const body = expectImported(
      await importAgent({
        agent_card: fixture('currency-agent-v0.2.json'),
        external_id: 'okta|123',
        identity_provider: 'okta',
        idp_metadata: { group: 'finance' },
      }),
    );
    expect(body).toMatchObject({ external_id: 'okta|123', identity_provider: 'okta' });
    expect(body.agent.import_metadata).toMatchObject({ external_id: 'okta|123', identity_provider: 'okta', idp_metadata: { group: 'finance' } });
  });

  it('imports into the team named by team_id; another team answers 404 before any fetch', async () => {
    const body = expectImported(
      await post(`/v1/agent-configurations/import?team_id=${world.teamB.id}`, world.admin.token, { agent_card: fixture('currency-agent-v0.2.json') }),
    );
    expect(body.agent.team_id).toBe(world.teamB.id);
    expectDetail(await post(`/v1/agent-configurations/import?team_id=${world.teamB.id}`, world.teamA.member.token, { agent_url: origin }), 404);
    expect(hits).toEqual([]);
  });

  it('answers 401 without a credential and 403 to a read-only key, before any fetch', async () => {
    for (const url of ['/v1/agent-configurations/import', '/v1/agent-configurations/import/validate']) {
      expectDetail(await post(url, null, { agent_url: origin }), 401);
      const readOnly = await createApiKey(t.app, world.teamA.member.token, ['agent:read']);
      expectDetail(await post(url, readOnly, { agent_url: origin }), 403);
    }
    expect(hits).toEqual([]);
  });
});

describe('POST /v1/agent-configurations/import/validate', () => {
  const countAgents = async () =>
    (await t.app.inject({ method: 'GET', url: '/v1/agent-configurations/', headers: bearer(world.teamA.member.token) })).json().count as number;

  it('accepts a good card without saving anything', async () => {
    const before = await countAgents();
    const card = fixture('travel-planner-v1.0.json');
    const res = await validate({ agent_card: card, external_id: 'e-1' });
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'UnifiedValidationResponse');
    expect(res.json()).toEqual({
      valid: true,
      access_level: 'grey_box',
      agent_card: card,
      errors: [],
      warnings: [],
      external_id: 'e-1',
      identity_provider: null,
    });
    expect(await countAgents()).toBe(before);
  });

  it('lists every problem in words a person can act on', async () => {
    const card = fixture('currency-agent-v0.2.json');
    delete card.skills[0].id;
    card.url = 'localhost:10000';
    const res = await validate({ agent_card: card });
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'UnifiedValidationResponse');
    expect(res.json()).toMatchObject({ valid: false, access_level: 'grey_box' });
    expect(res.json().errors).toEqual(['agent_card.url: "localhost:10000" is not an http(s) URL', 'agent_card.skills[0].id: "id" is required']);
    const none = (await validate({})).json();
    expect(none).toMatchObject({ valid: false, access_level: null });
    expect(none.errors[0]).toMatch(/^Send exactly one of agent_url/);
    const badEntry = (await validate({ source_code: { files: { 'a.py': '' } } })).json();
    expect(badEntry).toMatchObject({ valid: false, access_level: 'white_box' });
    expect(badEntry.errors[0]).toMatch(/^source_code\.entry_point: The entry point "main\.py" is not among the uploaded files/);
  });

  it('looks up the card of an agent_url for the preview', async () => {
    routes['/.well-known/agent-card.json'] = { status: 200, body: fixtureText('georoute-agent-v0.3.json') };
    const res = await validate({ agent_url: origin });
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'UnifiedValidationResponse');
    expect(res.json()).toMatchObject({ valid: true, access_level: 'black_box', agent_card: fixture('georoute-agent-v0.3.json'), errors: [] });
    routes = {};
    const plain = (await validate({ agent_url: origin })).json();
    expect(plain).toMatchObject({ valid: true, access_level: 'black_box', agent_card: null });
    expect(plain.warnings[0]).toContain('No A2A agent card was found');
  });

  it('validates the body schema with a 422', async () => {
    expect422(await validate({ agent_url: 5 }), ['body', 'agent_url'], 'string_type');
  });
});

describe('card discovery goes through the outbound fence (WARDEN_OUTBOUND_*)', () => {
  it('fetches nothing from an address WARDEN_OUTBOUND_DENY refuses, on import and on validate', async () => {
    const fenced = await buildTestApp({ app: { outbound: parseOutboundRules('127.0.0.0/8', undefined) } });
    try {
      const fencedWorld = await createWorld(fenced.app);
      routes['/.well-known/agent-card.json'] = { status: 200, body: fixtureText('georoute-agent-v0.3.json') };
      const headers = bearer(fencedWorld.teamA.member.token);
      const preview = await fenced.app.inject({ method: 'POST', url: '/v1/agent-configurations/import/validate', headers, payload: { agent_url: origin } });
      expect(preview.json()).toMatchObject({ valid: true, agent_card: null });
      expect(preview.json().warnings[0]).toContain('refused by WARDEN_OUTBOUND_DENY (127.0.0.0/8)');
      const imported = await fenced.app.inject({ method: 'POST', url: '/v1/agent-configurations/import', headers, payload: { agent_url: origin } });
      expect(imported.statusCode, imported.body).toBe(201);
      expect(imported.json().agent).toMatchObject({ protocol: 'chat_completions', skills: [] });
      expect(hits).toEqual([]);
    } finally {
      await fenced.close();
    }
  });
});
