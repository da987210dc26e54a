import type { Ctx, RouteCase } from '../helpers/route-table.js';

const A = (ctx: Ctx) => ctx.world.teamA;

/** The isolation-matrix entries of authentication, API keys, users and teams (test/helpers/route-table.ts). */
export const IDENTITY_ROUTE_CASES: RouteCase[] = [
  // auth
  {
    method: 'POST',
    url: '/v1/auth/jwt/login',
    needs: null,
    public: true,
    expect: {
      member: 200,
      anonymous: 200,
      malformed: 200,
      expired: 200,
      revokedSession: 200,
      revokedKey: 200,
      keyWithoutPermission: 200,
      otherTeam: 200,
      superAdmin: 200,
    },
    prepare: async (ctx) => ({ url: '/v1/auth/jwt/login', body: { email: A(ctx).member.email, password: A(ctx).member.password } }),
  },
  {
    method: 'POST',
    url: '/v1/auth/jwt/logout',
    needs: null,
    freshActors: true,
    expect: { member: 200, otherTeam: 200, keyWithoutPermission: 400 },
    prepare: async () => ({ url: '/v1/auth/jwt/logout' }),
  },
  {
    method: 'POST',
    url: '/v1/auth/jwt/refresh',
    needs: null,
    public: true,
    freshActors: true,
    expect: {
      member: 200,
      anonymous: 401,
      malformed: 401,
      expired: 200,
      revokedSession: 401,
      revokedKey: 400,
      keyWithoutPermission: 400,
      otherTeam: 200,
      superAdmin: 200,
    },
    prepare: async () => ({ url: '/v1/auth/jwt/refresh' }),
  },
  {
    method: 'POST',
    url: '/v1/auth/change-password',
    needs: null,
    freshActors: true,
    expect: { member: 200, otherTeam: 200, keyWithoutPermission: 403 },
    prepare: async (ctx) => ({
      url: '/v1/auth/change-password',
      body: { current_password: ctx.actor?.password ?? 'unknown-password', new_password: `${ctx.actor?.password ?? 'x'}-next` },
    }),
  },
  {
    method: 'GET',
    url: '/v1/auth/users/me',
    needs: null,
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/auth/users/me' }),
  },
  // API keys (an addition)
  {
    method: 'POST',
    url: '/v1/api-keys/',
    needs: null,
    expect: { member: 201, otherTeam: 201, keyWithoutPermission: 403 },
    prepare: async () => ({ url: '/v1/api-keys/', body: { name: 'matrix' } }),
  },
  { method: 'GET', url: '/v1/api-keys/', needs: null, expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/api-keys/' }) },
  {
    method: 'DELETE',
    url: '/v1/api-keys/:id',
    needs: null,
    // Only the key's owner sees it: a super admin too gets 404 for someone else's key.
    expect: { member: 200, otherTeam: 404, superAdmin: 404 },
    prepare: async (ctx) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/v1/api-keys/',
        headers: { authorization: `Bearer ${A(ctx).member.token}` },
        payload: { name: 'doomed' },
      });
      return { url: `/v1/api-keys/${res.json().id}` };
    },
  },
  // users
  {
    method: 'POST',
    url: '/v1/users/',
    needs: 'team:write_user',
    expect: { member: 403, superAdmin: 201 },
    prepare: async (ctx) => ({ url: '/v1/users/', body: { email: ctx.uniqueEmail('matrix'), password: 'password-123', team_id: A(ctx).id } }),
  },
  {
    method: 'GET',
    url: '/v1/users/',
    needs: null,
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/users/?email=${encodeURIComponent(A(ctx).owner.email)}` }),
  },
  { method: 'GET', url: '/v1/users/me', needs: null, expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/users/me' }) },
  {
    method: 'GET',
    url: '/v1/users/me/teams',
    needs: null,
    expect: { member: 200, otherTeam: 200 },
    prepare: async () => ({ url: '/v1/users/me/teams' }),
  },
  {
    method: 'GET',
    url: '/v1/users/:user_id',
    needs: null,
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/users/${A(ctx).owner.id}` }),
  },
  // teams
  {
    method: 'POST',
    url: '/v1/teams/',
    needs: 'team:create_all',
    expect: { member: 403, otherTeam: 403, superAdmin: 201 },
    prepare: async (ctx) => ({ url: `/v1/teams/?owner_id=${A(ctx).owner.id}`, body: { name: 'matrix team' } }),
  },
  {
    method: 'POST',
    url: '/v1/teams/:team_id/invites',
    needs: 'team:invite',
    expect: { member: 403, superAdmin: 201 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/invites`, body: { email: ctx.uniqueEmail('invitee') } }),
  },
  {
    method: 'POST',
    url: '/v1/teams/invites/:invitation_id/accept',
    needs: null,
    freshActors: true,
    // Addressed to the caller (a fresh person, into team B, of which they are not a member): the
    // member and a super admin accept it; to a member of another team it is addressed to
    // someone else, and does not exist. Accepting needs no permission: any key of the invitee.
    expect: { member: 201, superAdmin: 201, otherTeam: 404 },
    prepare: async (ctx, caller) => {
      const to =
        caller === 'member' || caller === 'superAdmin' || caller === 'keyWithoutPermission'
          ? (ctx.actor?.email ?? ctx.uniqueEmail('someone'))
          : ctx.uniqueEmail('someone-else');
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/v1/teams/${ctx.world.teamB.id}/invites`,
        headers: { authorization: `Bearer ${ctx.world.teamB.owner.token}` },
        payload: { email: to },
      });
      if (res.statusCode !== 201) throw new Error(`invite → ${res.statusCode}: ${res.body}`);
      return { url: `/v1/teams/invites/${res.json().id}/accept` };
    },
  },
  {
    method: 'GET',
    url: '/v1/teams/:team_id/users',
    needs: 'team:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/users` }),
  },
  {
    method: 'GET',
    url: '/v1/teams/:team_id',
    needs: 'team:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}` }),
  },
];
