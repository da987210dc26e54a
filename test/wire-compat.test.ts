import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createAgent, createWorld, type World } from './helpers/factories.js';
import { expect422 } from './helpers/reference.js';
import { openApiPath } from './helpers/reference-check.js';
import { DOME_ROUTE_CASES } from './route-cases/dome.js';
import { EVALUATION_ROUTE_CASES } from './route-cases/evaluations.js';
import { REDTEAM_ROUTE_CASES } from './route-cases/redteam.js';
import { GATEWAY_ROUTE_CASES } from './route-cases/gateway.js';
import { TELEMETRY_ROUTE_CASES } from './route-cases/telemetry.js';

/**
 * Wire details of the Diamond, Dome and Red Team operations that a client written against the
 * reference service relies on and that the reference check of each answer cannot see. The app
 * runs no jobs: evaluations, generations and campaigns stay queued, so each can be cancelled.
 */

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const token = () => world.teamA.member.token;
const asJson = () => ({ ...bearer(token()), 'content-type': 'application/json' });

async function created(url: string, payload: object, key: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url, headers: bearer(token()), payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json()[key] as string;
}

describe('an empty body sent as application/json (a client that sets the header on every call)', () => {
  it('is no body on the operations that take none, as in the reference: they answer as without the header', async () => {
    const agent = await createAgent(t.app, token(), { agent_url: 'http://127.0.0.1:9/v1' });
    const evaluation = await created('/v1/evaluations/', { agent_id: agent.id, harness_names: ['safety'], sample_size: 1 }, 'evaluation_id');
    const campaign = await created('/v1/campaigns', { tool: 'diamond_security', agent_id: agent.id, purpose: 'Support', categories: ['pii'] }, 'campaign_id');
    const harness = await created('/v1/custom-harnesses/', { name: 'Empty body', agent_id: agent.id }, 'id');
    const config = await created('/v1/dome-configs', { agent_id: agent.id }, 'id');
    for (const [url, answer] of [
      [`/v1/evaluations/${evaluation}/cancel`, { status: 'cancelled' }],
      [`/v1/campaigns/${campaign}/cancel`, { status: 'cancelled' }],
      [`/v1/custom-harnesses/${harness}/cancel`, { status: 'cancelled' }],
      [`/v1/dome-configs/${config}/apply`, { id: config, status: 'applied' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: asJson(), payload: '' });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject(answer);
    }
  });

  it('is still a 422 `missing` at ["body"] where the operation requires one', async () => {
    const config = await created('/v1/dome-configs', {}, 'id');
    for (const [method, url] of [
      ['POST', '/v1/evaluations/'],
      ['POST', '/v1/campaigns'],
      ['POST', '/v1/dome-configs'],
      ['PUT', `/v1/dome-configs/${config}`],
    ] as const) {
      expect422(await t.app.inject({ method, url, headers: asJson(), payload: '' }), ['body'], 'missing');
    }
  });
});

describe('docs/api.md, "Guardrails, evaluations and red team"', () => {
  type Parameter = { name: string; in: string };
  type Operation = { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
  type Schema = { $ref?: string; properties?: Record<string, unknown> };
  const reference = JSON.parse(readFileSync(new URL('./fixtures/console-openapi.json', import.meta.url), 'utf8'));
  const markdown = readFileSync(new URL('../docs/api.md', import.meta.url), 'utf8');
  const section = markdown.slice(markdown.indexOf('### Guardrails, evaluations and red team'));
  const rows = [...section.matchAll(/^\| [^|]+ \| `(GET|POST|PUT|PATCH|DELETE) ([^`?]+)[^`]*` \| (.+) \| (.+) \|$/gm)].map((m) => ({
    operation: `${m[1]} ${m[2]}`,
    text: m[3] ?? '',
    permission: m[4] ?? '',
  }));

  it('states the permission of every operation as the route matrix checks it (test/isolation.test.ts)', () => {
    const cases = [...DOME_ROUTE_CASES, ...EVALUATION_ROUTE_CASES, ...REDTEAM_ROUTE_CASES, ...GATEWAY_ROUTE_CASES, ...TELEMETRY_ROUTE_CASES];
    const expected = cases.map((c) => ({ operation: `${c.method} ${openApiPath(c.url)}`, permission: c.needs === null ? 'none' : `\`${c.needs}\`` }));
    const stated = rows.map((row) => ({ operation: row.operation, permission: row.permission.startsWith('none') ? 'none' : row.permission }));
    const order = (list: Array<{ operation: string }>) => [...list].sort((a, b) => a.operation.localeCompare(b.operation));
    expect(order(stated)).toEqual(order(expected));
  });

  it('marks what the reference does not have as an addition: operations, parameters, body fields', async () => {
    type Document = { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
    const ours = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
    const bodyFields = (operation: Operation | undefined, schemas: Record<string, Schema>): string[] => {
      const schema = operation?.requestBody?.content?.['application/json']?.schema;
      const resolved = schema?.$ref === undefined ? schema : schemas[schema.$ref.split('/').pop() ?? ''];
      return Object.keys(resolved?.properties ?? {});
    };
    const problems: string[] = [];
    for (const row of rows) {
      const [verb, path] = row.operation.split(' ') as [string, string];
      const method = verb.toLowerCase();
      const mine = ours.paths[path]?.[method];
      const theirs = reference.paths[path]?.[method] as Operation | undefined;
      if (mine === undefined) problems.push(`${row.operation}: not in /openapi.json`);
      if (theirs === undefined) {
        if (!row.text.includes('*(addition)*')) problems.push(`${row.operation}: not in the reference, not marked *(addition)*`);
        continue;
      }
      const known = (theirs.parameters ?? []).map((p) => `${p.in}:${p.name.toLowerCase()}`);
      const extraParameters = (mine?.parameters ?? []).filter((p) => p.name !== 'team_id' && !known.includes(`${p.in}:${p.name.toLowerCase()}`));
      const theirFields = bodyFields(theirs, reference.components.schemas);
      const extraFields = bodyFields(mine, ours.components.schemas).filter((name) => name !== 'team_id' && !theirFields.includes(name));
      for (const name of [...extraParameters.map((p) => p.name), ...extraFields]) {
        if (!row.text.includes(`\`${name}\``) || !row.text.includes('*(addition')) problems.push(`${row.operation}: ${name} is not marked as an addition`);
      }
    }
    expect(problems).toEqual([]);
  });
});
