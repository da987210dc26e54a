import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseApiKey } from '../src/modules/auth/tokens.js';
import { PRESETS as PERSONA_PRESETS } from '../src/modules/personas/personas.presets.js';
import { PRESETS as POLICY_PRESETS } from '../src/modules/policies/presets.js';
import { bearer, buildTestApp, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { startFakeLlm } from './helpers/fake-llm.js';
import { createAgent, createApiKey, createWorld, uniqueEmail, type World } from './helpers/factories.js';
import { makePdf } from './policy-fixtures.js';

/**
 * Bad input never breaks Warden (issue 7): generated paths, query strings, bodies and
 * content types go to every route; every answer is below 500 and, when it refuses, in the
 * contract's error shape, and a refused request changes nothing in the database (every row
 * of every table is compared before and after).
 *
 * Path parameters are often the ids of resources that exist (re-created before each route, as
 * earlier routes delete some), so the generated bodies reach the services, not only the 404
 * of an unknown id. Callers are a team member's and a super admin's API keys. Strings range over
 * all of Unicode; upload routes also get generated multipart bodies, well-formed or not.
 * CI runs a fixed seed; `npm run test:fuzz` runs many more cases.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

let t: TestApp;
let fakeLlm: Awaited<ReturnType<typeof startFakeLlm>>;
let world: World;
let keys: { member: string; admin: string };
let tables: string[];
let spec: { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>> };

beforeAll(async () => {
  // Rule extraction runs (against a model that finds no rules) instead of answering 503.
  fakeLlm = await startFakeLlm();
  t = await buildTestApp({ app: { llm: fakeLlm.llm } });
  world = await createWorld(t.app);
  await createAgent(t.app, world.teamA.member.token, { api_key: 'sk-fuzz-agent-key-0000000000' });
  // API keys: a generated logout cannot end the sessions the run depends on.
  keys = { member: await createApiKey(t.app, world.teamA.member.token), admin: await createApiKey(t.app, world.admin.token) };
  spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const all = await t.database.db.introspection.getTables();
  tables = all.map((table) => table.name).filter((name) => !name.startsWith('kysely_')).sort();
});
afterAll(async () => {
  await t.close();
  await fakeLlm.close();
});

/** Every row of every table: a refused request must leave this exactly as it was. */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql`select * from ${sql.table(table)}`.execute(t.database.db);
    // Authentication's own bookkeeping (when a key was last used) is not a write of the request.
    const text = rows.rows.map((r) => JSON.stringify(table === 'api_keys' ? { ...(r as object), last_used_at: null } : r)).sort();
    parts.push(`${table}:${rows.rows.length}:${text.join('\n')}`);
  }
  return parts.join('\n#\n');
}

const send = async (method: string, url: string, token: string, payload?: unknown) =>
  t.app.inject({ method: method as 'POST', url, headers: bearer(token), ...(payload === undefined ? {} : { payload: payload as object }) });

/** One more of every kind of resource, so that ids of existing ones are always on hand. */
async function seedResources(): Promise<void> {
  const member = world.teamA.member.token;
  await createAgent(t.app, member, { agent_name: 'fuzz target' });
  const policy = (
    await send('POST', '/v1/policies/', member, { name: 'Fuzz policy', category: 'security', source_text: 'Agents must not leak secrets.' })
  ).json();
  await send('POST', `/v1/policies/${policy.id}/rules`, member, {
    rule_type: 'prohibition',
    action: 'disclose_secret',
    consequence: { action: 'block', severity: 'high', message: 'No.' },
    natural_language: 'The agent must not disclose secrets.',
  });
  await send('POST', '/v1/personas/', member, { team_id: world.teamA.id, name: 'Fuzz persona', role: 'customer' });
  const dimension = (
    await send('POST', '/v1/demographics/', world.admin.token, { name: `fuzz_${Math.random().toString(36).slice(2, 10)}`, display_name: 'Fuzz' })
  ).json();
  await send('POST', `/v1/demographics/${dimension.id}/values`, world.admin.token, { value: 'v', display_name: 'V' });
  // Invitations the callers themselves may accept.
  await send('POST', `/v1/teams/${world.teamB.id}/invites`, world.teamB.owner.token, { email: world.teamA.member.email });
  await send('POST', `/v1/teams/${world.teamB.id}/invites`, world.teamB.owner.token, { email: uniqueEmail('fuzz-invitee') });
}

async function column(table: string, name = 'id'): Promise<string[]> {
  const rows = await sql<{ v: string }>`select ${sql.ref(name)} as v from ${sql.table(table)}`.execute(t.database.db);
  return rows.rows.map((r) => String(r.v));
}

/** Values of existing resources for a path parameter (empty: none known). */
async function existingValues(url: string, param: string): Promise<string[]> {
  switch (param) {
    case 'policy_id':
      return column('policies');
    case 'rule_id':
      return column('policy_rules');
    case 'user_id':
      return column('users');
    case 'team_id':
      return column('teams');
    case 'invitation_id':
      return column('invitations');
    case 'dimension_id':
      return column('demographic_dimensions');
    case 'value_id':
      return column('demographic_values');
    case 'name':
      return column('demographic_dimensions', 'name');
    case 'preset_id':
      return (url.startsWith('/v1/personas') ? PERSONA_PRESETS : POLICY_PRESETS).map((p) => p.id);
    case 'id':
      if (url.startsWith('/v1/agent-configurations')) return column('agents');
      if (url.startsWith('/v1/personas')) return column('personas');
      if (url.startsWith('/v1/api-keys')) {
        // Never the keys the run itself uses.
        const used = new Set([keys.member, keys.admin].map((k) => parseApiKey(k)?.id));
        return (await column('api_keys')).filter((id) => !used.has(id));
      }
      return [];
    default:
      return [];
  }
}

function openapiPath(url: string): string {
  return url.replace(/:([A-Za-z_]+)/g, '{$1}');
}

function knownNames(url: string, method: string) {
  const operation = spec.paths[openapiPath(url)]?.[method.toLowerCase()];
  const query = (operation?.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name);
  const body = operation?.requestBody as { content?: Record<string, { schema?: { properties?: Record<string, unknown> } }> } | undefined;
  const fields = Object.keys(body?.content?.['application/json']?.schema?.properties ?? {});
  return { query, fields };
}

/** Any Unicode: code points of every plane, NUL and control characters, lone surrogates. */
const anyText = (maxLength: number) =>
  fc.oneof(
    fc.string({ unit: 'binary', maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ maxLength }),
    fc.constantFrom('\ud800', 'a\udfffb', '\u0000', '\u202e', '\ufeff', '💩'.repeat(10), 'é'.normalize('NFD')),
  );

function pathValue(existing: string[]) {
  const random = fc.oneof(
    fc.uuid(),
    anyText(40).filter((s) => s.length > 0),
    fc.constantFrom('0', '-1', '%00', '..', 'null', 'true', "' OR 1=1 --", 'x'.repeat(3000)),
  );
  return existing.length > 0 ? fc.oneof({ arbitrary: fc.constantFrom(...existing), weight: 3 }, { arbitrary: random, weight: 1 }) : random;
}

const deepJson = fc.integer({ min: 1, max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

type Body = { payload: string | Buffer | undefined; type: string | undefined };

function jsonBodyArbitrary(fields: string[]): fc.Arbitrary<Body> {
  const fieldName = fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), anyText(12)) : anyText(12);
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    anyText(5000),
    fc.constantFrom(
      null,
      '',
      -1,
      0,
      1e19,
      -1e19,
      2 ** 53,
      1e308,
      -1e308,
      5e-324,
      true,
      [],
      {},
      '00000000-0000-0000-0000-000000000000',
      '\u0000',
      '😀'.repeat(50),
    ),
    fc.integer({ min: 1, max: 200 }).map((n) => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)),
    fc.dictionary(anyText(8), fc.oneof(anyText(20), fc.double(), fc.constant(null)), { maxKeys: 4 }),
  );
  const json = (type: string) => (v: unknown): Body => ({ payload: JSON.stringify(v) ?? 'null', type });
  return fc.oneof(
    { arbitrary: fc.dictionary(fieldName, value, { maxKeys: 6 }).map(json('application/json')), weight: 4 },
    fc.jsonValue({ maxDepth: 4 }).map(json('application/json')),
    anyText(200).map((s): Body => ({ payload: s, type: 'application/json' })),
    deepJson.map((s): Body => ({ payload: s, type: 'application/json' })),
    fc.dictionary(fieldName, value, { maxKeys: 3 }).map(json('application/json; charset=latin1')),
    anyText(100).map((s): Body => ({ payload: s, type: 'text/plain' })),
    anyText(100).map((s): Body => ({ payload: s, type: 'application/x-www-form-urlencoded' })),
    fc.constant<Body>({ payload: '', type: 'application/json' }),
    fc.constant<Body>({ payload: undefined, type: undefined }),
  );
}

/** multipart/form-data bodies: well-formed, with odd names and contents, or broken. */
const multipartArbitrary: fc.Arbitrary<Body> = fc
  .record({
    field: fc.oneof(fc.constant('file'), anyText(10)),
    fileName: fc.oneof(fc.constantFrom('policy.txt', 'policy.md', 'policy.pdf', 'noext', '../../etc/passwd', ''), anyText(60)),
    content: fc.oneof(
      anyText(300).map((s) => Buffer.from(s, 'utf8')),
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      fc.constant(makePdf(['Agents must not leak secrets.'])),
      fc.constant(Buffer.from('%PDF-1.7 truncated')),
      fc.constant(Buffer.alloc(0)),
    ),
    ending: fc.constantFrom('close', 'truncate', 'no-boundary', 'wrong-boundary', 'extra-part'),
  })
  .map(({ field, fileName, content, ending }): Body => {
    const boundary = 'fuzzBoundary7MA4YWxk';
    const part = (name: string, file: string, body: Buffer) =>
      Buffer.concat([Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"; filename="${file}"\r\n\r\n`), body, Buffer.from('\r\n')]);
    const close = Buffer.from(`--${boundary}--\r\n`);
    const first = part(field, fileName, content);
    const payload =
      ending === 'truncate'
        ? first.subarray(0, Math.max(1, first.length - 7))
        : ending === 'extra-part'
          ? Buffer.concat([first, part('file', 'b.txt', Buffer.from('x')), close])
          : Buffer.concat([first, close]);
    const type =
      ending === 'no-boundary'
        ? 'multipart/form-data'
        : ending === 'wrong-boundary'
          ? 'multipart/form-data; boundary=other'
          : `multipart/form-data; boundary=${boundary}`;
    return { payload, type };
  });

/** A URL can only carry well-formed UTF-16 (lone surrogates become U+FFFD, as a browser sends them). */
const wellFormed = (s: string): string => (s as string & { toWellFormed(): string }).toWellFormed();

function queryArbitrary(names: string[]) {
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), anyText(8)) : anyText(8);
  const value = fc.oneof(
    anyText(50),
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
    fc.constantFrom('', '-1', '0', '1001', '1e20', '100000000000000000000', 'true', 'null', 'x'.repeat(5000)),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 5 }).map((pairs) => {
    const params = new URLSearchParams();
    for (const [k, v] of pairs) params.append(wellFormed(k), wellFormed(v));
    const text = params.toString();
    return text ? `?${text}` : '';
  });
}

function isContractError(status: number, body: string, url = ''): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  // The gateway answers in its clients' shapes (CONTRACT.md, "Gateway errors"): OpenAI's error on
  // chat completions, a JSON-RPC error on A2A (and MCP, which is JSON-RPC too).
  const path = url.split('?')[0] ?? '';
  if (path.startsWith('/v1/gateway/') && path.endsWith('/chat/completions')) {
    const error = (parsed as { error?: { message?: unknown; type?: unknown } }).error;
    return typeof error?.message === 'string' && error.message.length > 0 && typeof error.type === 'string';
  }
  if (path.startsWith('/v1/gateway/') || path === '/mcp') {
    const rpc = parsed as { jsonrpc?: unknown; error?: { code?: unknown; message?: unknown } };
    if (rpc.jsonrpc === '2.0') return typeof rpc.error?.code === 'number' && typeof rpc.error.message === 'string';
  }
  const detail = (parsed as { detail?: unknown }).detail;
  if (status === 422) {
    return (
      Array.isArray(detail) &&
      detail.length > 0 &&
      detail.every(
        (d) =>
          Array.isArray(d.loc) && ['body', 'query', 'path', 'header'].includes(d.loc[0]) && typeof d.msg === 'string' && typeof d.type === 'string',
      )
    );
  }
  return typeof detail === 'string' && detail.length > 0;
}

describe(`generated input to every route (${TEST_ENGINE})`, () => {
  it('never answers 5xx, refuses in the contract shape, and writes nothing when it refuses', async () => {
    const routes = t.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(15);
    const reached = { existing: 0, success: 0 };
    for (const route of routes) {
      await seedResources();
      const { query, fields } = knownNames(route.url, route.method);
      const params = [...route.url.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1] as string);
      const existing = await Promise.all(params.map((p) => existingValues(route.url, p)));
      const isUpload = route.url.endsWith('/upload');
      const arbitrary = fc.record({
        path: fc.tuple(...existing.map(pathValue)),
        query: queryArbitrary(query),
        body: isUpload
          ? fc.oneof({ arbitrary: multipartArbitrary, weight: 3 }, { arbitrary: jsonBodyArbitrary(fields), weight: 1 })
          : jsonBodyArbitrary(fields),
        caller: fc.constantFrom<'member' | 'admin'>('member', 'admin'),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ path, query: qs, body, caller }) => {
          let i = 0;
          const url = route.url.replace(/:([A-Za-z_]+)/g, () => encodeURIComponent(wellFormed(path[i++] as string))) + qs;
          if (path.some((value, n) => existing[n]?.includes(value))) reached.existing++;
          const before = await snapshot();
          const headers: Record<string, string> = { authorization: `Bearer ${keys[caller]}` };
          if (body.type !== undefined && body.payload !== undefined) headers['content-type'] = body.type;
          const res = await t.app.inject({
            method: route.method as 'GET',
            url,
            headers,
            ...(body.payload === undefined || route.method === 'GET' ? {} : { payload: body.payload }),
          });
          const where = `${caller} ${route.method} ${url.slice(0, 200)} [${body.type}] → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode < 300) reached.success++;
          if (res.statusCode >= 400) {
            expect(isContractError(res.statusCode, res.body, url), where).toBe(true);
            expect(await snapshot(), `a refused request wrote: ${where}`).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
    // The generated requests reached real resources and got past validation, not only 404s.
    expect(reached.existing).toBeGreaterThan(routes.length);
    expect(reached.success).toBeGreaterThan(routes.length / 2);
  }, Math.max(300_000, RUNS * 25_000));

  it('answers a malformed multipart upload with 400, not 500', async () => {
    const policy = (await send('POST', '/v1/policies/', keys.member, { name: 'Upload target', category: 'security' })).json();
    const before = await snapshot();
    for (const [type, payload] of [
      ['multipart/form-data; boundary=XX', 'garbage without any boundary'],
      ['multipart/form-data; boundary=XX', '--XX\r\n'],
      ['multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nno closing boundary'],
    ] as const) {
      const res = await t.app.inject({
        method: 'POST',
        url: `/v1/policies/${policy.id}/upload`,
        headers: { ...bearer(keys.member), 'content-type': type },
        payload,
      });
      expect(res.statusCode, res.body).toBe(400);
      expect(isContractError(400, res.body)).toBe(true);
    }
    expect(await snapshot()).toBe(before);
  });
});
