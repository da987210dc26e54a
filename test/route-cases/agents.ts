import type { RouteCase } from '../helpers/route-table.js';

const agentRoute = (method: string, suffix: string, needs: string, member: number, body?: unknown): RouteCase => ({
  method,
  url: `/v1/agent-configurations/:id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/agent-configurations/${(await ctx.createAgent()).id}${suffix}`, body }),
});

/** The isolation-matrix entries of the agent routes (test/helpers/route-table.ts); create and list act on the caller's own team. */
export const AGENT_ROUTE_CASES: RouteCase[] = [
  {
    method: 'POST',
    url: '/v1/agent-configurations/',
    needs: 'agent:write',
    expect: { member: 201, otherTeam: 201 },
    prepare: async () => ({ url: '/v1/agent-configurations/', body: { agent_name: 'matrix', model_name: 'm' } }),
  },
  {
    method: 'GET',
    url: '/v1/agent-configurations/',
    needs: 'agent:read',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/agent-configurations/' }),
  },
  agentRoute('GET', '', 'agent:read', 200),
  agentRoute('PUT', '', 'agent:write', 200, { agent_name: 'renamed' }),
  agentRoute('PUT', '/archive', 'agent:write', 200),
  agentRoute('PUT', '/lifecycle', 'agent:write', 200, { trust_stage: 'hardened' }),
  agentRoute('GET', '/lifecycle/history', 'agent:read', 200),
  agentRoute('GET', '/evaluation-config', 'agent:read', 200),
];
