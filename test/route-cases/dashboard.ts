import type { Ctx, RouteCase } from '../helpers/route-table.js';

const A = (ctx: Ctx) => ctx.world.teamA;

/** The isolation-matrix entries of the trust dashboard (test/helpers/route-table.ts). */
export const DASHBOARD_ROUTE_CASES: RouteCase[] = [
  {
    method: 'GET',
    url: '/v1/dashboard/trust',
    needs: 'agent:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/dashboard/trust?team_id=${A(ctx).id}` }),
  },
];
