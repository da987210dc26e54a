import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { createAgent, createApiKey, createWorld, type World } from './helpers/factories.js';

/**
 * Bad input never breaks Warden (issue 7): generated paths, query strings, bodies and
 * content types go to every route; every answer is below 500 and, when it refuses, in the
 * contract's error shape, and a refused request changes nothing in the database.
 * CI runs a fixed seed; `npm run test:fuzz` runs many more cases.
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 12);
const SEED = Number(process.env.FUZZ_SEED ?? 20261122);

let t: TestApp;
let world: World;
let key: string;
let tables: string[];
let spec: { paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }>; requestBody?: unknown }>> };

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  await createAgent(t.app, world.teamA.member.token, { api_key: 'sk-fuzz-agent-key-0000000000' });
  // An API key: a generated logout cannot end the session the run depends on.
  key = await createApiKey(t.app, world.teamA.member.token);
  spec = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  const all = await t.database.db.introspection.getTables();
  tables = all.map((table) => table.name).filter((name) => !name.startsWith('kysely_')).sort();
});
afterAll(async () => t.close());

/** Every row of every table: a refused request must leave this exactly as it was. */
async function snapshot(): Promise<string> {
  const parts: string[] = [];
  for (const table of tables) {
    const rows = await sql`select * from ${sql.table(table)}`.execute(t.database.db);
    // Authentication's own bookkeeping (when a key was last used) is not a write of the request.
    const text = rows.rows.map((r) => JSON.stringify(table === 'api_keys' ? { ...(r as object), last_used_at: null } : r)).sort();
    parts.push(`${table}:${text.join('\n')}`);
  }
  return parts.join('\n#\n');
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

const pathValue = fc.oneof(
  fc.uuid(),
  fc.string({ minLength: 1, maxLength: 40 }),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }),
  fc.constantFrom('0', '-1', '%00', '..', 'null', 'true', "' OR 1=1 --", 'x'.repeat(3000)),
);

const deepJson = fc.integer({ min: 1, max: 3000 }).map((n) => `${'['.repeat(n)}${']'.repeat(n)}`);

function bodyArbitrary(fields: string[]) {
  const fieldName = fields.length > 0 ? fc.oneof(fc.constantFrom(...fields), fc.string({ maxLength: 12 })) : fc.string({ maxLength: 12 });
  const value = fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    fc.string({ maxLength: 5000 }),
    fc.constantFrom(null, '', -1, 0, 1e19, -1e19, 2 ** 53, 1e308, -1e308, true, [], {}, '00000000-0000-0000-0000-000000000000', '\u0000', '😀'.repeat(50)),
    fc.integer({ min: 1, max: 200 }).map((n) => JSON.parse(`${'{"a":'.repeat(n)}1${'}'.repeat(n)}`)),
  );
  return fc.oneof(
    fc.dictionary(fieldName, value, { maxKeys: 6 }).map((v) => ({ payload: JSON.stringify(v), type: 'application/json' as string | undefined })),
    fc.jsonValue({ maxDepth: 4 }).map((v) => ({ payload: JSON.stringify(v) ?? 'null', type: 'application/json' as string | undefined })),
    fc.string({ maxLength: 200 }).map((s) => ({ payload: s, type: 'application/json' as string | undefined })),
    deepJson.map((s) => ({ payload: s, type: 'application/json' as string | undefined })),
    fc.string({ maxLength: 100 }).map((s) => ({ payload: s, type: 'text/plain' as string | undefined })),
    fc.string({ maxLength: 100 }).map((s) => ({ payload: s, type: 'application/x-www-form-urlencoded' as string | undefined })),
    fc.constant({ payload: undefined as string | undefined, type: undefined as string | undefined }),
  );
}

function queryArbitrary(names: string[]) {
  const name = names.length > 0 ? fc.oneof(fc.constantFrom(...names), fc.string({ maxLength: 8 })) : fc.string({ maxLength: 8 });
  const value = fc.oneof(
    fc.string({ maxLength: 50 }),
    fc.integer().map(String),
    fc.bigInt({ min: -(10n ** 25n), max: 10n ** 25n }).map(String),
    fc.constantFrom('', '-1', '0', '1001', '1e20', '100000000000000000000', 'true', 'null', 'x'.repeat(5000)),
  );
  return fc.array(fc.tuple(name, value), { maxLength: 5 }).map((pairs) => {
    const params = new URLSearchParams();
    for (const [k, v] of pairs) params.append(k, v);
    const text = params.toString();
    return text ? `?${text}` : '';
  });
}

function isContractError(status: number, body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  const detail = (parsed as { detail?: unknown }).detail;
  if (status === 422) {
    return (
      Array.isArray(detail) &&
      detail.length > 0 &&
      detail.every((d) => Array.isArray(d.loc) && ['body', 'query', 'path', 'header'].includes(d.loc[0]) && typeof d.msg === 'string' && typeof d.type === 'string')
    );
  }
  return typeof detail === 'string' && detail.length > 0;
}

describe(`generated input to every route (${TEST_ENGINE})`, () => {
  it('never answers 5xx, refuses in the contract shape, and writes nothing when it refuses', async () => {
    const routes = t.app.apiRoutes;
    expect(routes.length).toBeGreaterThan(15);
    for (const route of routes) {
      const { query, fields } = knownNames(route.url, route.method);
      const params = route.url.match(/:([A-Za-z_]+)/g) ?? [];
      const arbitrary = fc.record({
        path: fc.array(pathValue, { minLength: params.length, maxLength: params.length }),
        query: queryArbitrary(query),
        body: bodyArbitrary(fields),
      });
      await fc.assert(
        fc.asyncProperty(arbitrary, async ({ path, query: qs, body }) => {
          let i = 0;
          const url = route.url.replace(/:([A-Za-z_]+)/g, () => encodeURIComponent(path[i++] as string)) + qs;
          const before = await snapshot();
          const headers: Record<string, string> = { authorization: `Bearer ${key}` };
          if (body.type !== undefined && body.payload !== undefined) headers['content-type'] = body.type;
          const res = await t.app.inject({ method: route.method as 'GET', url, headers, ...(body.payload === undefined || route.method === 'GET' ? {} : { payload: body.payload }) });
          const where = `${route.method} ${url.slice(0, 200)} → ${res.statusCode} ${res.body.slice(0, 300)}`;
          expect(res.statusCode, where).toBeLessThan(500);
          if (res.statusCode >= 400) {
            expect(isContractError(res.statusCode, res.body), where).toBe(true);
            expect(await snapshot(), `a refused request wrote: ${where}`).toBe(before);
          }
        }),
        { numRuns: RUNS, seed: SEED, endOnFailure: true },
      );
    }
  });
});
