import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of team administration (test/helpers/route-table.ts). Team A's MEMBER may list the
 * teams (their own) but not manage team A; a member of team B does not see team A (404).
 */
const A = (ctx: Ctx) => ctx.world.teamA;

export const TEAM_ADMIN_ROUTE_CASES: RouteCase[] = [
  // Every caller lists the teams they can see: their own, or every team for a super admin.
  { method: 'GET', url: '/v1/teams/', needs: 'team:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/teams/' }) },
  {
    method: 'GET',
    url: '/v1/teams/:team_id/invites',
    needs: 'team:invite',
    expect: { member: 403, superAdmin: 200 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/invites` }),
  },
  {
    method: 'PATCH',
    url: '/v1/teams/:team_id/users/:user_id',
    needs: 'team:write_user',
    expect: { member: 403, superAdmin: 200 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/users/${(await ctx.createUser('promoted')).id}`, body: { role: 'ADMIN' } }),
  },
  {
    method: 'DELETE',
    url: '/v1/teams/:team_id/users/:user_id',
    needs: 'team:write_user',
    expect: { member: 403, superAdmin: 204 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/users/${(await ctx.createUser('removed')).id}` }),
  },
];
