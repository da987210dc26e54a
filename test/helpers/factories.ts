import type { FastifyInstance } from 'fastify';
import { bearer } from './app.js';

let counter = 0;
export const uniqueEmail = (label = 'user') => `${label}-${Date.now().toString(36)}-${++counter}@example.com`;

export interface Actor {
  id: string;
  email: string;
  password: string;
  token: string;
}

export interface TeamFixture {
  id: string;
  owner: Actor;
  member: Actor;
}

export interface World {
  admin: Actor;
  adminTeamId: string;
  teamA: TeamFixture;
  teamB: TeamFixture;
}

async function call(app: FastifyInstance, method: string, url: string, token: string | undefined, payload?: unknown) {
  const res = await app.inject({
    method: method as 'GET',
    url,
    headers: token ? bearer(token) : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url} → ${res.statusCode}: ${res.body}`);
  return res.json();
}

export async function login(app: FastifyInstance, email: string, password: string): Promise<string> {
  return (await call(app, 'POST', '/v1/auth/jwt/login', undefined, { email, password })).access_token as string;
}

/** The super admin that first start creates, logged in. */
export async function createSuperAdmin(app: FastifyInstance): Promise<{ admin: Actor; teamId: string }> {
  const email = uniqueEmail('admin');
  const password = 'admin-password-1';
  await app.services.identity.bootstrapAdmin({ email, password });
  const token = await login(app, email, password);
  const me = await call(app, 'GET', '/v1/users/me', token);
  const teams = await call(app, 'GET', '/v1/users/me/teams', token);
  return { admin: { id: me.id, email, password, token }, teamId: teams[0].team_id };
}

/**
 * A user created by `creatorToken` into `teamId` (as MEMBER), who then logs in with the
 * password the admin set and changes it, as a new user must before anything else.
 */
export async function createUser(app: FastifyInstance, creatorToken: string, teamId: string, label = 'user'): Promise<Actor> {
  const email = uniqueEmail(label);
  const initial = `${label}-initial-1`;
  const password = `${label}-password-1`;
  const user = await call(app, 'POST', '/v1/users/', creatorToken, { email, password: initial, team_id: teamId });
  const first = await login(app, email, initial);
  const changed = await call(app, 'POST', '/v1/auth/change-password', first, { current_password: initial, new_password: password });
  return { id: user.id, email, password, token: changed.access_token as string };
}

/**
 * A team with an OWNER and a MEMBER. The owner was created in the admin's team first (every
 * user starts in a team), so pass team_id explicitly when acting as the owner; the member's
 * primary team is this one.
 */
export async function createTeam(app: FastifyInstance, admin: Actor, adminTeamId: string, name: string): Promise<TeamFixture> {
  const owner = await createUser(app, admin.token, adminTeamId, `${name}-owner`);
  const team = await call(app, 'POST', `/v1/teams/?owner_id=${owner.id}`, admin.token, { name });
  const member = await createUser(app, owner.token, team.id, `${name}-member`);
  return { id: team.id, owner, member };
}

/** A super admin, and two teams each with an owner-level user and a member. */
export async function createWorld(app: FastifyInstance): Promise<World> {
  const { admin, teamId } = await createSuperAdmin(app);
  const teamA = await createTeam(app, admin, teamId, 'alpha');
  const teamB = await createTeam(app, admin, teamId, 'beta');
  return { admin, adminTeamId: teamId, teamA, teamB };
}

export async function createApiKey(app: FastifyInstance, token: string, permissions?: string[], expiresAt?: number): Promise<string> {
  const body: Record<string, unknown> = { name: 'test key' };
  if (permissions) body.permissions = permissions;
  if (expiresAt !== undefined) body.expires_at = expiresAt;
  return (await call(app, 'POST', '/v1/api-keys/', token, body)).key as string;
}

export async function createAgent(app: FastifyInstance, token: string, body: Record<string, unknown> = {}) {
  return call(app, 'POST', '/v1/agent-configurations/', token, { agent_name: 'Agent', model_name: 'gpt-4o', ...body });
}

/** What an evaluation and a campaign both say when the agent's stored key does not open (one message for both). */
export const UNDECRYPTABLE_KEY = "The agent's API key cannot be decrypted (was WARDEN_SECRET_KEY changed?): save the key again";
