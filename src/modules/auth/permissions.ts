import { AppError, forbidden, notFound } from '../../http/errors.js';

export const TEAM_ROLES = ['OWNER', 'ADMIN', 'MEMBER'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/**
 * Team-scoped permissions (held for one team through a membership) and their
 * `_all` counterparts (held for every team by a super admin). Names follow the reference.
 */
const MEMBER_PERMISSIONS = [
  'agent:read',
  'agent:write',
  'persona:read',
  'persona:write',
  'policy:read',
  'policy:write',
  'team:read',
  // Wave 2 (CONTRACT.md): every team member holds them for the team; super admins the `_all` form.
  'guardrail:read',
  'guardrail:write',
  'evaluation:read',
  'evaluation:write',
  'redteam:read',
  'redteam:write',
  'telemetry:read',
  'telemetry:write',
  'gateway:invoke',
] as const;
const MANAGER_PERMISSIONS = [...MEMBER_PERMISSIONS, 'team:write_user', 'team:invite'] as const;

export const TEAM_PERMISSIONS = MANAGER_PERMISSIONS;
export type TeamPermission = (typeof TEAM_PERMISSIONS)[number];

export const PERMISSIONS = [
  ...TEAM_PERMISSIONS,
  ...TEAM_PERMISSIONS.map((p) => `${p}_all` as const),
  'team:create_all',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const ROLE_PERMISSIONS: Record<TeamRole, ReadonlySet<TeamPermission>> = {
  OWNER: new Set(MANAGER_PERMISSIONS),
  ADMIN: new Set(MANAGER_PERMISSIONS),
  MEMBER: new Set(MEMBER_PERMISSIONS),
};

export interface Principal {
  userId: string;
  email: string;
  isSuperAdmin: boolean;
  /** `expiresAt`: an API key's expiry (epoch seconds), when it has one. */
  credential: { kind: 'session' | 'api_key'; id: string; expiresAt?: number | null };
  /** The API key's permission list; null when the credential is not limited. */
  keyPermissions: ReadonlySet<string> | null;
  /** team id → role */
  memberships: ReadonlyMap<string, TeamRole>;
  /** The caller's first team (earliest membership): the team an operation without team_id acts on. */
  primaryTeamId: string | null;
  /** The account's password was set by someone else and must be changed before anything else. */
  passwordChangeRequired: boolean;
}

const keyAllows = (principal: Principal, permission: string) =>
  principal.keyPermissions === null || principal.keyPermissions.has(permission);

/** Whether the caller may see resources of this team at all (members and super admins). */
export function canSeeTeam(principal: Principal, teamId: string): boolean {
  return principal.isSuperAdmin || principal.memberships.has(teamId);
}

/** Whether the caller holds `permission` for `teamId`, through a membership or as a super admin. */
export function holds(principal: Principal, permission: TeamPermission, teamId: string): boolean {
  const role = principal.memberships.get(teamId);
  if (role !== undefined && ROLE_PERMISSIONS[role].has(permission) && keyAllows(principal, permission)) return true;
  return principal.isSuperAdmin && keyAllows(principal, `${permission}_all`);
}

/** Whether the credential could hold `permission` for some team (the first check of a service). */
export function holdsAnywhere(principal: Principal, permission: TeamPermission): boolean {
  if (principal.isSuperAdmin && keyAllows(principal, `${permission}_all`)) return true;
  if (!keyAllows(principal, permission)) return false;
  for (const role of principal.memberships.values()) if (ROLE_PERMISSIONS[role].has(permission)) return true;
  return false;
}

/**
 * The check for an operation on a resource of `teamId`: a team the caller cannot see
 * answers 404 (existence does not leak); a visible one without the permission answers 403.
 */
export function authorize(principal: Principal, permission: TeamPermission, teamId: string, what: string): void {
  if (!canSeeTeam(principal, teamId)) throw notFound(what);
  if (!holds(principal, permission, teamId)) throw forbidden(permission);
}

/** First line of a service: refuse early when the credential cannot hold the permission anywhere. */
export function requireAnywhere(principal: Principal, permission: TeamPermission): void {
  if (!holdsAnywhere(principal, permission)) throw forbidden(permission);
}

/** A global permission (`team:create_all`): super admins whose credential allows it. */
export function requireGlobal(principal: Principal, permission: Extract<Permission, `${string}_all`>): void {
  if (!(principal.isSuperAdmin && keyAllows(principal, permission))) throw forbidden(permission);
}

/**
 * The team an operation acts on (CONTRACT.md): the `team_id` parameter where the operation
 * has one (one of the caller's teams, or any team for a super admin), otherwise the
 * caller's primary team.
 */
export function resolveTeam(principal: Principal, teamId: string | undefined): string {
  if (teamId !== undefined) {
    if (!canSeeTeam(principal, teamId)) throw notFound('Team');
    return teamId;
  }
  if (principal.primaryTeamId === null) {
    throw new AppError('bad_request', 'You are not a member of any team: pass team_id to choose one');
  }
  return principal.primaryTeamId;
}

/**
 * Whether the user behind the credential holds `permission` at all, ignoring any key limits:
 * what a new API key may be limited to (issue 17: a key given a permission its owner lacks
 * answered 403 to everything). A super admin holds every permission; anyone else the team
 * permissions of a role they have in some team, and no `_all` form.
 */
export function userHoldsSomewhere(principal: Principal, permission: string): boolean {
  if (principal.isSuperAdmin) return true;
  for (const role of principal.memberships.values()) if ((ROLE_PERMISSIONS[role] as ReadonlySet<string>).has(permission)) return true;
  return false;
}

/** Whether the credential may use `permission` at all: any session; an API key limited to a list that names it. */
export function credentialAllows(principal: Principal, permission: Permission): boolean {
  return keyAllows(principal, permission);
}
