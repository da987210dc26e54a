import { bearer } from '../helpers/app.js';
import type { Ctx, RouteCase } from '../helpers/route-table.js';
import { multipartBody } from '../policy-fixtures.js';

/**
 * The isolation-matrix entries of the policy, document, extraction and rule routes, for
 * test/helpers/route-table.ts (`...POLICY_ROUTE_CASES` in its ROUTES). Resources are made by team A's member; team B's
 * member gets 404 on them; team-less routes (lists, create, presets) answer other teams too.
 */
async function call(ctx: Ctx, method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await ctx.app.inject({
    method,
    url,
    headers: bearer(ctx.world.teamA.member.token),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
  return res.json();
}

const newPolicy = (ctx: Ctx, body: Record<string, unknown> = {}) =>
  call(ctx, 'POST', '/v1/policies/', { name: 'Isolation', category: 'privacy', source_text: 'Agents must not share emails.', ...body }) as Promise<{
    id: string;
  }>;

const newRule = async (ctx: Ctx) => {
  const policy = await newPolicy(ctx);
  return call(ctx, 'POST', `/v1/policies/${policy.id}/rules`, {
    rule_type: 'prohibition',
    action: 'share_email',
    consequence: { action: 'block', severity: 'high' },
    natural_language: 'Agents must not share emails.',
  }) as Promise<{ id: string }>;
};

const withFile = async (ctx: Ctx) => {
  const policy = await newPolicy(ctx);
  const { payload, headers } = multipartBody('file', 'policy.md', Buffer.from('# Policy\n\nAgents must not share emails.\n'));
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/policies/${policy.id}/upload`,
    headers: { ...headers, ...bearer(ctx.world.teamA.member.token) },
    payload,
  });
  if (res.statusCode !== 200) throw new Error(`upload → ${res.statusCode}: ${res.body}`);
  return policy;
};

const withApprovedRule = async (ctx: Ctx) => {
  const policy = await newPolicy(ctx);
  const rule = await call(ctx, 'POST', `/v1/policies/${policy.id}/rules`, {
    rule_type: 'prohibition',
    action: 'share_email',
    consequence: { action: 'block', severity: 'high' },
    natural_language: 'Agents must not share emails.',
  });
  await call(ctx, 'POST', `/v1/rules/${rule.id}/approve`);
  return policy;
};

const presetId = async (ctx: Ctx) => ((await call(ctx, 'GET', '/v1/policies/presets/')) as { results: Array<{ id: string }> }).results[0]?.id ?? '';

const onPolicy = (method: string, suffix: string, needs: string, member: number, body?: unknown, make = newPolicy): RouteCase => ({
  method,
  url: `/v1/policies/:policy_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/policies/${(await make(ctx)).id}${suffix}`, body }),
});

const onRule = (method: string, suffix: string, needs: string, member: number, body?: unknown): RouteCase => ({
  method,
  url: `/v1/rules/:rule_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/rules/${(await newRule(ctx)).id}${suffix}`, body }),
});

export const POLICY_ROUTE_CASES: RouteCase[] = [
  {
    method: 'POST',
    url: '/v1/policies/',
    needs: 'policy:write',
    expect: { member: 201, otherTeam: 201 },
    prepare: async () => ({ url: '/v1/policies/', body: { name: 'p', category: 'custom' } }),
  },
  {
    method: 'GET',
    url: '/v1/policies/',
    needs: 'policy:read',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/policies/' }),
  },
  {
    method: 'GET',
    url: '/v1/policies/presets/',
    needs: 'policy:read',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/policies/presets/' }),
  },
  {
    method: 'POST',
    url: '/v1/policies/presets/:preset_id/copy',
    needs: 'policy:write',
    expect: { member: 201, otherTeam: 201 },
    prepare: async (ctx) => ({ url: `/v1/policies/presets/${await presetId(ctx)}/copy` }),
  },
  onPolicy('GET', '', 'policy:read', 200),
  onPolicy('PATCH', '', 'policy:write', 200, { name: 'renamed' }),
  onPolicy('DELETE', '', 'policy:write', 204),
  // No rules yet: activation is refused with 409 to those allowed to ask.
  // A policy whose one rule is approved: activated by those allowed to.
  onPolicy('POST', '/activate', 'policy:write', 200, undefined, withApprovedRule),
  {
    method: 'POST',
    url: '/v1/policies/:policy_id/upload',
    needs: 'policy:write',
    expect: { member: 200 },
    prepare: async (ctx) => {
      const { payload, headers } = multipartBody('file', 'policy.md', Buffer.from('# Policy\n\nAgents must not share emails.\n'));
      return { url: `/v1/policies/${(await newPolicy(ctx)).id}/upload`, body: payload, headers };
    },
  },
  onPolicy('GET', '/file', 'policy:read', 200, undefined, withFile),
  onPolicy('DELETE', '/file', 'policy:write', 200, undefined, withFile),
  onPolicy('GET', '/converted', 'policy:read', 200, undefined, withFile),
  // The matrix's app has a fake language model (test/helpers/fake-llm.ts) that finds no rules.
  onPolicy('POST', '/extract-rules', 'policy:write', 201),
  onPolicy('GET', '/rules', 'policy:read', 200),
  onPolicy('POST', '/rules', 'policy:write', 201, {
    rule_type: 'permission',
    action: 'answer',
    consequence: {},
    natural_language: 'The agent may answer.',
  }),
  { method: 'GET', url: '/v1/rules/', needs: 'policy:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/rules/' }) },
  onRule('GET', '', 'policy:read', 200),
  onRule('PATCH', '', 'policy:write', 200, { action: 'changed' }),
  onRule('DELETE', '', 'policy:write', 204),
  onRule('POST', '/approve', 'policy:write', 200),
  { ...onRule('POST', '/reject', 'policy:write', 200), prepare: async (ctx) => ({ url: `/v1/rules/${(await newRule(ctx)).id}/reject?reason=no` }) },
];
