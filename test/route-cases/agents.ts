import type { Ctx, RouteCase } from '../helpers/route-table.js';

const A = (ctx: Ctx) => ctx.world.teamA;

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
  {
    method: 'GET',
    url: '/v1/agent-configurations/:agent_id/dome-configs',
    needs: 'agent:read',
    expect: { member: 200 },
    prepare: async (ctx) => {
      const agent = await ctx.createAgent({ dome_config_id: '01890000-0000-7000-8000-00000000d0e0' });
      return { url: `/v1/agent-configurations/${agent.id}/dome-configs?team_id=${A(ctx).id}` };
    },
  },
  {
    method: 'GET',
    url: '/v1/agents/:agent_id/constraints',
    needs: 'agent:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/agents/${(await ctx.createAgent()).id}/constraints` }),
  },
];
