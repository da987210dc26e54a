import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers/app.js';

/**
 * Our /openapi.json against the reference's, for every operation both have: the same
 * parameters (name, `in`, required). Parameters of ours the reference lacks are additions:
 * each must be optional and listed here (docs/api.md marks them).
 */
const reference = JSON.parse(readFileSync(new URL('./fixtures/console-openapi.json', import.meta.url), 'utf8'));
const ADDED_PARAMETERS: Record<string, string[]> = {
  'post /v1/agent-configurations/': ['query:team_id'],
  // Agents (docs/api.md, "Agents"): a search of the name and id, a trust-stage filter.
  'get /v1/agent-configurations/': ['query:team_id', 'query:search', 'query:trust_stage'],
  'post /v1/agent-configurations/import': ['query:team_id'],
  'post /v1/personas/from-preset/{preset_id}': ['query:team_id'],
  'get /v1/dashboard/trust': ['query:team_id'],
  'post /v1/policies/': ['query:team_id'],
  'get /v1/policies/': ['query:team_id'],
  'post /v1/policies/presets/{preset_id}/copy': ['query:team_id'],
  'get /v1/rules/': ['query:team_id'],
  // Evaluations (docs/evaluations.md, "The API"): pages of the run list and of a run's prompts, its last log lines.
  'get /v1/evaluations/': ['query:limit', 'query:offset'],
  'get /v1/evaluations/{evaluation_id}/logs': ['query:limit'],
  'get /v1/evaluation-results/{evaluation_id}/results': ['query:limit', 'query:offset', 'query:passed'],
  // Red team (docs/redteam.md, "Operations"): a page of the campaign list and of a campaign's findings, the download's format, the log's last lines.
  'get /v1/campaigns': ['query:limit', 'query:offset'],
  'get /v1/campaigns/{campaign_id}/results': ['query:offset'],
  'get /v1/campaigns/{campaign_id}/results/download': ['query:format'],
  'get /v1/campaigns/{campaign_id}/logs': ['query:limit'],
};

/**
 * Wave 2 (CONTRACT.md, "Team scope"): on the reference's Diamond, Dome and Red Team operations
 * `team_id` may be left out (the caller's primary team is used), so Warden publishes it optional
 * where the reference requires it, and takes it where the reference has none.
 */
const WAVE_2_TAGS = ['Diamond', 'Dome', 'Red Team'];
const isWave2 = (operation: string) => {
  const [method, path] = operation.split(' ') as [string, string];
  const tags: string[] = reference.paths[path]?.[method]?.tags ?? [];
  return tags.some((tag) => WAVE_2_TAGS.includes(tag));
};

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
}

let t: TestApp;
let ours: { paths: Record<string, Record<string, { parameters?: Parameter[] }>>; components?: { schemas?: Record<string, unknown> } };
beforeAll(async () => {
  t = await buildTestApp();
  ours = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
});
afterAll(async () => t.close());

function sharedOperations(): Array<[string, Parameter[], Parameter[]]> {
  const out: Array<[string, Parameter[], Parameter[]]> = [];
  for (const [path, item] of Object.entries(ours.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const theirs = reference.paths[path]?.[method];
      if (theirs !== undefined) out.push([`${method} ${path}`, operation.parameters ?? [], theirs.parameters ?? []]);
    }
  }
  return out;
}

describe('/openapi.json against the reference', () => {
  it('has the agents and identity operations of the reference', () => {
    const names = sharedOperations().map(([name]) => name);
    for (const expected of [
      'get /v1/agent-configurations/',
      'get /v1/agent-configurations/{id}',
      'put /v1/agent-configurations/{id}/lifecycle',
      'get /v1/users/',
      'get /v1/teams/{team_id}',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it('declares the same parameters as the reference, with the same `in` and required flag, on every shared operation', () => {
    const problems: string[] = [];
    const key = (p: Parameter) => `${p.in}:${p.name}`;
    for (const [operation, mine, theirs] of sharedOperations()) {
      const wave2 = isWave2(operation);
      const added = [...(ADDED_PARAMETERS[operation] ?? []), ...(wave2 ? ['query:team_id'] : [])];
      // Header names are case-insensitive (Fastify publishes them lower-cased).
      const same = (p: Parameter, q: Parameter) => (p.in === 'header' ? p.name.toLowerCase() === q.name.toLowerCase() : p.name === q.name);
      for (const expected of theirs) {
        const found = mine.find((p) => same(p, expected));
        if (found === undefined) problems.push(`${operation}: no parameter ${key(expected)}`);
        else if (found.in !== expected.in) problems.push(`${operation}: ${expected.name} is in ${found.in}, the reference has ${expected.in}`);
        else if (wave2 && key(expected) === 'query:team_id' && found.required !== true) continue;
        else if ((found.required ?? false) !== (expected.required ?? false)) {
          problems.push(`${operation}: ${key(expected)} required=${found.required ?? false}, the reference has ${expected.required ?? false}`);
        }
      }
      for (const extra of mine.filter((p) => !theirs.some((r: Parameter) => same(p, r)))) {
        if (!added.includes(key(extra))) problems.push(`${operation}: ${key(extra)} is not in the reference nor listed as an addition`);
        else if (extra.required) problems.push(`${operation}: the addition ${key(extra)} must be optional`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('answers with the reference’s success statuses and carries its tags, on every shared operation', () => {
    const problems: string[] = [];
    const paths = ours.paths as Record<string, Record<string, { tags?: string[]; responses?: Record<string, unknown> }>>;
    const successes = (responses: Record<string, unknown> | undefined) => Object.keys(responses ?? {}).filter((code) => code.startsWith('2')).sort();
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const theirs = reference.paths[path]?.[method];
        if (theirs === undefined) continue;
        const [mine, expected] = [successes(operation.responses), successes(theirs.responses)];
        if (JSON.stringify(mine) !== JSON.stringify(expected)) problems.push(`${method} ${path}: answers ${mine}, the reference ${expected}`);
        if (JSON.stringify(operation.tags) !== JSON.stringify(theirs.tags)) {
          problems.push(`${method} ${path}: tags ${operation.tags}, the reference ${theirs.tags}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('publishes the reference’s request bodies on the Diamond, Dome and Red Team operations: required fields and defaults', () => {
    type Body = { $ref?: string; anyOf?: Body[]; type?: string; required?: string[]; properties?: Record<string, { default?: unknown }> };
    const resolve = (schema: Body, components: Record<string, unknown>): Body => {
      if (schema.$ref !== undefined) return resolve(components[schema.$ref.split('/').pop() ?? ''] as Body, components);
      const objects = (schema.anyOf ?? []).filter((branch) => branch.type !== 'null');
      return objects.length === 1 ? resolve(objects[0]!, components) : schema;
    };
    const problems: string[] = [];
    const paths = ours.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: Body }> } }>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        const theirs = reference.paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
        if (theirs === undefined || !isWave2(`${method} ${path}`)) continue;
        const expected = resolve(theirs, reference.components.schemas);
        const mine = resolve(operation.requestBody?.content['application/json']?.schema ?? {}, ours.components?.schemas ?? {});
        // CONTRACT.md, "Team scope": team_id may be left out.
        const required = (body: Body) => (body.required ?? []).filter((name) => name !== 'team_id').sort();
        if (JSON.stringify(required(mine)) !== JSON.stringify(required(expected))) {
          problems.push(`${method} ${path}: requires ${required(mine)}, the reference ${required(expected)}`);
        }
        for (const [name, property] of Object.entries(expected.properties ?? {})) {
          const own = mine.properties?.[name];
          if (own === undefined) problems.push(`${method} ${path}: no body field ${name}`);
          else if (JSON.stringify(own.default) !== JSON.stringify(property.default)) {
            problems.push(`${method} ${path}: ${name} defaults to ${JSON.stringify(own.default)}, the reference to ${JSON.stringify(property.default)}`);
          }
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('gives the parameters of the Diamond, Dome and Red Team operations the reference’s defaults, bounds and values', () => {
    type Schema = { default?: unknown; minimum?: number; maximum?: number; format?: string; enum?: string[]; anyOf?: Schema[]; $ref?: string };
    type Described = { name: string; in: string; schema?: Schema };
    const facets = (schema: Schema = {}, components: Record<string, Schema>): string => {
      const branches = (schema.anyOf ?? [schema]).map((b) => (b.$ref ? (components[b.$ref.split('/').pop() ?? ''] ?? {}) : b));
      const values = branches.map((b) => JSON.stringify([b.minimum, b.maximum, b.format, b.enum]));
      return JSON.stringify([schema.default, values.sort()]);
    };
    const problems: string[] = [];
    const paths = ours.paths as Record<string, Record<string, { parameters?: Described[] }>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!isWave2(`${method} ${path}`)) continue;
        for (const expected of (reference.paths[path][method].parameters ?? []) as Described[]) {
          const mine = operation.parameters?.find((p) => p.in === expected.in && p.name.toLowerCase() === expected.name.toLowerCase());
          const a = facets(expected.schema, reference.components.schemas);
          const b = facets(mine?.schema, (ours.components?.schemas ?? {}) as Record<string, Schema>);
          if (a !== b) problems.push(`${method} ${path} ${expected.name}: ${b}, the reference ${a}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('publishes the reference’s answer fields with their types and formats on the Diamond, Dome and Red Team operations', () => {
    type Schema = { $ref?: string; anyOf?: Schema[]; type?: string; format?: string; enum?: string[]; items?: Schema; properties?: Record<string, Schema> };
    const resolve = (schema: Schema, components: Record<string, Schema>): Schema =>
      schema.$ref === undefined ? schema : resolve(components[schema.$ref.split('/').pop() ?? ''] ?? {}, components);
    const signature = (raw: Schema, components: Record<string, Schema>): string => {
      const schema = resolve(raw, components);
      if (schema.anyOf !== undefined) return schema.anyOf.map((branch) => signature(branch, components)).sort().join(' | ');
      if (schema.enum !== undefined) return `enum ${[...schema.enum].sort().join(',')}`;
      if (schema.type === 'array') return `array of ${signature(schema.items ?? {}, components)}`;
      return `${schema.type ?? 'any'}${schema.format === undefined ? '' : `/${schema.format}`}`;
    };
    const problems: string[] = [];
    const compare = (where: string, theirs: Schema, mine: Schema, depth: number): void => {
      const [expected, own] = [resolve(theirs, reference.components.schemas), resolve(mine, ours.components?.schemas as Record<string, Schema>)];
      const single = (schema: Schema, components: Record<string, Schema>) => {
        const branches = (schema.anyOf ?? [schema]).filter((branch) => branch.type !== 'null');
        return branches.length === 1 ? resolve(branches[0]!, components) : schema;
      };
      const [a, b] = [single(expected, reference.components.schemas), single(own, ours.components?.schemas as Record<string, Schema>)];
      if (a.type === 'array' && b.type === 'array') return compare(`${where}[]`, a.items ?? {}, b.items ?? {}, depth);
      for (const [name, property] of Object.entries(a.properties ?? {})) {
        const mineProperty = b.properties?.[name];
        if (mineProperty === undefined) {
          problems.push(`${where}.${name}: missing`);
          continue;
        }
        const [s, t] = [signature(property, reference.components.schemas), signature(mineProperty, ours.components?.schemas as Record<string, Schema>)];
        if (s !== t) problems.push(`${where}.${name}: ${t}, the reference ${s}`);
        else if (depth < 4) compare(`${where}.${name}`, property, mineProperty, depth + 1);
      }
    };
    const paths = ours.paths as Record<string, Record<string, { responses?: Record<string, { content?: Record<string, { schema: Schema }> }> }>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const [method, operation] of Object.entries(item)) {
        if (!isWave2(`${method} ${path}`)) continue;
        for (const [status, response] of Object.entries(reference.paths[path][method].responses as Record<string, { content?: any }>)) {
          const theirs = response.content?.['application/json']?.schema;
          const mine = operation.responses?.[status]?.content?.['application/json']?.schema;
          if (status.startsWith('2') && theirs !== undefined && mine !== undefined) compare(`${method} ${path} ${status}`, theirs, mine, 0);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it('marks query parameters with a default as optional', () => {
    const list = ours.paths['/v1/agent-configurations/']?.get?.parameters ?? [];
    for (const name of ['limit', 'offset', 'include_scores', 'statuses']) {
      expect(list.find((p) => p.name === name), name).toMatchObject({ in: 'query', required: false });
    }
  });

  it('names its components like the reference and refers to them from the operations', () => {
    const components = ours.components?.schemas ?? {};
    for (const name of [
      'Agent',
      'AgentConfigListResponse',
      'AgentUpdate',
      'AgentLifecycleUpdate',
      'AgentConfigRequest',
      'UserRead',
      'Team',
      'Membership',
      'HTTPValidationError',
      'ValidationError',
    ]) {
      expect(components, name).toHaveProperty(name);
      expect(reference.components.schemas, name).toHaveProperty(name);
    }
    const paths = ours.paths as Record<string, Record<string, any>>;
    const success = (path: string, method: string, status: string) => paths[path]?.[method]?.responses?.[status]?.content?.['application/json']?.schema;
    const body = (path: string, method: string) => paths[path]?.[method]?.requestBody?.content?.['application/json']?.schema;
    expect(success('/v1/agent-configurations/{id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Agent' });
    expect(success('/v1/agent-configurations/', 'get', '200')).toEqual({ $ref: '#/components/schemas/AgentConfigListResponse' });
    expect(body('/v1/agent-configurations/{id}/lifecycle', 'put')).toEqual({ $ref: '#/components/schemas/AgentLifecycleUpdate' });
    expect(body('/v1/agent-configurations/{id}', 'put')).toEqual({ $ref: '#/components/schemas/AgentUpdate' });
    expect(success('/v1/users/me', 'get', '200')).toEqual({ $ref: '#/components/schemas/UserRead' });
    expect(success('/v1/teams/{team_id}', 'get', '200')).toEqual({ $ref: '#/components/schemas/Team' });
    expect(success('/v1/agent-configurations/{id}/lifecycle', 'put', '422')).toEqual({ $ref: '#/components/schemas/HTTPValidationError' });
    expect((components.AgentConfigListResponse as any).properties.results.items).toEqual({ $ref: '#/components/schemas/Agent' });
  });

  it('publishes the enums of the Diamond and Red Team schemas with the reference’s values, and refers to them', () => {
    const components = (ours.components?.schemas ?? {}) as Record<string, { enum?: string[]; properties?: Record<string, unknown> }>;
    for (const name of ['EvaluationStatus', 'EvaluationTool', 'RedteamTool', 'AttackCategory', 'HarnessType', 'CustomHarnessStatus', 'WorkflowStatus']) {
      expect(components[name]?.enum, name).toEqual(reference.components.schemas[name].enum);
    }
    expect(components.RedteamResult?.properties?.tool).toEqual({ $ref: '#/components/schemas/RedteamTool' });
    expect(components.CustomHarness?.properties?.status).toEqual({ $ref: '#/components/schemas/CustomHarnessStatus' });
    expect(components.WorkflowStatusInfo?.properties?.status).toEqual({ $ref: '#/components/schemas/WorkflowStatus' });
  });

  it('has no $ref that does not resolve', () => {
    const components = ours.components?.schemas ?? {};
    const dangling: string[] = [];
    const walk = (node: unknown): void => {
      if (Array.isArray(node)) return node.forEach(walk);
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref' && typeof value === 'string') {
          const name = value.replace('#/components/schemas/', '');
          if (!value.startsWith('#/components/schemas/') || !(name in components)) dangling.push(value);
        } else walk(value);
      }
    };
    walk(ours);
    expect(dangling).toEqual([]);
  });
});

describe('/openapi.json: credentials and media types', () => {
  const operation = (path: string, method: string) => (ours.paths as Record<string, Record<string, any>>)[path]?.[method];

  it('asks no credential of login and refresh (security: []), and a bearer token of the rest', () => {
    expect(operation('/v1/auth/jwt/login', 'post').security).toEqual([]);
    expect(operation('/v1/auth/jwt/refresh', 'post').security).toEqual([]);
    expect(operation('/v1/users/me', 'get').security).toBeUndefined();
    expect((ours as { security?: unknown }).security).toEqual([{ bearer: [] }]);
  });

  it('declares the file downloads with the media types they are sent with', () => {
    const binary = { schema: { type: 'string', format: 'binary' } };
    const file = operation('/v1/policies/{policy_id}/file', 'get').responses['200'];
    expect(Object.keys(file.content).sort()).toEqual(['application/pdf', 'text/markdown', 'text/plain']);
    for (const media of Object.values(file.content)) expect(media).toEqual(binary);
    const converted = operation('/v1/policies/{policy_id}/converted', 'get').responses['200'];
    expect(converted.content).toEqual({ 'text/markdown': binary });
  });

  it('declares the reports and the campaign download with the media types they are sent with', () => {
    const binary = { schema: { type: 'string', format: 'binary' } };
    const media = (path: string) => operation(path, 'get').responses['200'].content;
    expect(media('/v1/evaluations/{evaluation_id}/html')).toEqual({ 'text/html': binary });
    expect(media('/v1/evaluation-results/{evaluation_id}/report.html')).toEqual({ 'text/html': binary });
    expect(media('/v1/evaluations/{evaluation_id}/pdf')).toEqual({ 'application/pdf': binary });
    expect(media('/v1/evaluation-results/{evaluation_id}/report')).toEqual({ 'application/pdf': binary });
    expect(Object.keys(media('/v1/campaigns/{campaign_id}/results/download')).sort()).toEqual(['application/json', 'application/x-ndjson', 'text/csv']);
  });
});
