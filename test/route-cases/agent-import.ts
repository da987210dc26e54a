import type { Ctx, RouteCase } from '../helpers/route-table.js';

const A = (ctx: Ctx) => ctx.world.teamA;
const CARD = { name: 'Matrix agent', url: 'https://matrix-agent.example.com/a2a', skills: [{ id: 'echo', name: 'Echo' }] };

/** The isolation-matrix entries of agent import (test/helpers/route-table.ts). */
export const AGENT_IMPORT_ROUTE_CASES: RouteCase[] = [
  // agent import (a card, so that no network call is made)
  {
    method: 'POST',
    url: '/v1/agent-configurations/import/validate',
    needs: 'agent:write',
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/agent-configurations/import/validate', body: { agent_card: CARD } }),
  },
  {
    method: 'POST',
    url: '/v1/agent-configurations/import',
    needs: 'agent:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/agent-configurations/import?team_id=${A(ctx).id}`, body: { agent_card: CARD } }),
  },
];
