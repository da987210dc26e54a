import type { FastifyInstance } from 'fastify';
import { ISSUE3_ROUTES } from '../route-cases/issue3.js';
import { ISSUE4_ROUTES } from '../route-cases/issue4.js';
import { DOME_ROUTES } from '../route-cases/dome.js';
import { EVALUATION_ROUTES } from '../route-cases/evaluations.js';
import { ISSUE17_ROUTES } from '../route-cases/issue17.js';
import type { Actor, World } from './factories.js';

export type Caller =
  | 'anonymous'
  | 'malformed'
  | 'expired'
  | 'revokedSession'
  | 'revokedKey'
  | 'keyWithoutPermission'
  | 'otherTeam'
  | 'member'
  | 'superAdmin';

export interface Ctx {
  app: FastifyInstance;
  world: World;
  /** The person behind the caller's credential (a fresh one on routes with `freshActors`). */
  actor?: Actor | undefined;
  createAgent(body?: Record<string, unknown>): Promise<{ id: string }>;
  createUser(label: string): Promise<Actor>;
  uniqueEmail(label?: string): string;
}

/**
 * One route of the isolation matrix. `member` is a MEMBER of team A, which owns the
 * resources `prepare` makes; `otherTeam` a MEMBER of team B. Statuses not given follow
 * CONTRACT.md: 401 for the bad credentials, 403 for a key without `needs`, 404 for the other team,
 * the member's status for a super admin.
 */
export interface RouteCase {
  method: string;
  url: string;
  /** The permission the route checks (null: none beyond being authenticated). */
  needs: string | null;
  public?: boolean;
  /** The route changes the caller's own session or password: use a fresh person per cell. */
  freshActors?: boolean;
  expect: Partial<Record<Caller, number>> & { member: number };
  /** `body` is sent as JSON unless `headers` give another content type (then as it is: a multipart Buffer). */
  prepare(ctx: Ctx, caller: Caller): Promise<{ url: string; body?: unknown; headers?: Record<string, string> }>;
}

const A = (ctx: Ctx) => ctx.world.teamA;

const agentRoute = (method: string, suffix: string, needs: string, member: number, body?: unknown): RouteCase => ({
  method,
  url: `/v1/agent-configurations/:id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/agent-configurations/${(await ctx.createAgent()).id}${suffix}`, body }),
});

export const ROUTES: RouteCase[] = [
  // auth
  {
    method: 'POST',
    url: '/v1/auth/jwt/login',
    needs: null,
    public: true,
    expect: { member: 200, anonymous: 200, malformed: 200, expired: 200, revokedSession: 200, revokedKey: 200, keyWithoutPermission: 200, otherTeam: 200, superAdmin: 200 },
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
    expect: { member: 200, anonymous: 401, malformed: 401, expired: 200, revokedSession: 401, revokedKey: 400, keyWithoutPermission: 400, otherTeam: 200, superAdmin: 200 },
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
  { method: 'GET', url: '/v1/auth/users/me', needs: null, expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/auth/users/me' }) },
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
      const res = await ctx.app.inject({ method: 'POST', url: '/v1/api-keys/', headers: { authorization: `Bearer ${A(ctx).member.token}` }, payload: { name: 'doomed' } });
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
  { method: 'GET', url: '/v1/users/me/teams', needs: null, expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/users/me/teams' }) },
  { method: 'GET', url: '/v1/users/:user_id', needs: null, expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/users/${A(ctx).owner.id}` }) },
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
      const to = caller === 'member' || caller === 'superAdmin' || caller === 'keyWithoutPermission' ? (ctx.actor?.email ?? ctx.uniqueEmail('someone')) : ctx.uniqueEmail('someone-else');
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
  { method: 'GET', url: '/v1/teams/:team_id/users', needs: 'team:read', expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}/users` }) },
  { method: 'GET', url: '/v1/teams/:team_id', needs: 'team:read', expect: { member: 200 }, prepare: async (ctx) => ({ url: `/v1/teams/${A(ctx).id}` }) },
  // team administration (issue 17, additions)
  ...ISSUE17_ROUTES,
  // agents (the caller's own team for create and list)
  {
    method: 'POST',
    url: '/v1/agent-configurations/',
    needs: 'agent:write',
    expect: { member: 201, otherTeam: 201 },
    prepare: async () => ({ url: '/v1/agent-configurations/', body: { agent_name: 'matrix', model_name: 'm' } }),
  },
  { method: 'GET', url: '/v1/agent-configurations/', needs: 'agent:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/agent-configurations/' }) },
  agentRoute('GET', '', 'agent:read', 200),
  agentRoute('PUT', '', 'agent:write', 200, { agent_name: 'renamed' }),
  agentRoute('PUT', '/archive', 'agent:write', 200),
  agentRoute('PUT', '/lifecycle', 'agent:write', 200, { trust_stage: 'hardened' }),
  agentRoute('GET', '/lifecycle/history', 'agent:read', 200),
  agentRoute('GET', '/evaluation-config', 'agent:read', 200),
  {
    method: 'GET',
    url: '/v1/agent-configurations/:agent_id/dome-configs',
    needs: 'guardrail:read',
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
  // policies, documents, rules and their review, extraction
  ...ISSUE3_ROUTES,
  // personas, demographics, agent import, trust dashboard
  ...ISSUE4_ROUTES,
  // guardrails: Dome configurations, scans, Dome's registration, detections
  ...DOME_ROUTES,
  // evaluations: runs, results, summaries, reports, harnesses, custom harnesses
  ...EVALUATION_ROUTES,
];
