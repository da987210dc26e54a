import type { Deps } from '../../deps.js';
import { constantTimeEqualHex, sha256 } from '../../crypto/keys.js';
import { hashPassword, verifyPassword } from '../../crypto/passwords.js';
import { AppError, RequestValidationError, notFound, unauthenticated } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { findUserByEmail, findUserById, listMembershipsOfUser, updateUser } from '../identity/identity.repo.js';
import * as repo from './auth.repo.js';
import type { ApiKeyRow } from './auth.repo.js';
import type { LoginThrottle } from './login-throttle.js';
import type { Principal, TeamRole } from './permissions.js';
import { PERMISSIONS, userHoldsSomewhere } from './permissions.js';
import { API_KEY_PREFIX, formatApiKey, newApiKeySecret, parseApiKey, signAccessToken, verifyAccessToken } from './tokens.js';

type AuthDeps = Pick<Deps, 'db' | 'keys' | 'now' | 'passwordHashCost' | 'tokenTtlSeconds'> & { loginThrottle: LoginThrottle };

export interface TokenResponse {
  access_token: string;
  token_type: 'bearer';
}

/** How long after expiry a token may still be exchanged by /auth/jwt/refresh. */
const REFRESH_GRACE_SECONDS = 7 * 24 * 60 * 60;
/** A session can be refreshed for at most this long after its login: then log in again. */
const MAX_SESSION_AGE_SECONDS = 30 * 24 * 60 * 60;
/** last_used_at of an API key is written at most this often, not on every request. */
const KEY_TOUCH_INTERVAL_SECONDS = 60;

export function createAuthService(deps: AuthDeps) {
  const { db, keys, now } = deps;
  let dummyHash: Promise<string> | undefined;

  async function issueToken(userId: string, sessionId: string): Promise<TokenResponse> {
    const issuedAt = now();
    const expiresAt = issuedAt + deps.tokenTtlSeconds;
    const access_token = await signAccessToken(keys.jwt, { userId, sessionId, expiresAt }, issuedAt);
    return { access_token, token_type: 'bearer' };
  }

  async function startSession(userId: string): Promise<TokenResponse> {
    const sessionId = newId();
    const at = now();
    await repo.insertSession(db, { id: sessionId, user_id: userId, created_at: at, expires_at: at + deps.tokenTtlSeconds, revoked_at: null });
    return issueToken(userId, sessionId);
  }

  async function loadPrincipal(
    user: { user_id: string; email: string; is_super_admin: number; password_change_required: number },
    credential: Principal['credential'],
    keyPermissions: ReadonlySet<string> | null,
  ): Promise<Principal> {
    const memberships = await listMembershipsOfUser(db, user.user_id);
    return {
      userId: user.user_id,
      email: user.email,
      isSuperAdmin: user.is_super_admin === 1,
      credential,
      keyPermissions,
      memberships: new Map(memberships.map((m) => [m.team_id, m.role as TeamRole])),
      primaryTeamId: memberships[0]?.team_id ?? null,
      passwordChangeRequired: user.password_change_required === 1,
    };
  }

  async function authenticateApiKey(token: string): Promise<Principal> {
    const parsed = parseApiKey(token);
    if (parsed === null) throw unauthenticated('Invalid API key');
    const row = await repo.findApiKeyWithUser(db, parsed.id);
    // Compare even when the key is unknown, so that timing does not tell which ids exist.
    const matches = constantTimeEqualHex(sha256(parsed.secret), row?.secret_hash ?? '0'.repeat(64));
    const at = now();
    if (row === undefined || !matches) throw unauthenticated('Invalid API key');
    if (row.revoked_at !== null) throw unauthenticated('This API key has been revoked');
    if (row.expires_at !== null && row.expires_at <= at) throw unauthenticated('This API key has expired');
    if (row.is_active !== 1) throw unauthenticated('This account is disabled');
    if (row.last_used_at === null || at - row.last_used_at >= KEY_TOUCH_INTERVAL_SECONDS) await repo.touchApiKey(db, row.id, at);
    const limited = repo.apiKeyPermissions(row);
    const permissions = limited === null ? null : new Set(limited);
    return loadPrincipal(row, { kind: 'api_key', id: row.id, expiresAt: row.expires_at }, permissions);
  }

  async function authenticateToken(token: string): Promise<Principal> {
    const claims = await verifyAccessToken(keys.jwt, token, now());
    if (claims === null) throw unauthenticated('Invalid or expired token');
    const session = await repo.findSessionWithUser(db, claims.sessionId);
    if (session === undefined || session.user_id !== claims.userId) throw unauthenticated('Invalid or expired token');
    if (session.revoked_at !== null) throw unauthenticated('This session has ended: log in again');
    if (session.expires_at <= now()) throw unauthenticated('Invalid or expired token');
    if (session.is_active !== 1) throw unauthenticated('This account is disabled');
    return loadPrincipal(session, { kind: 'session', id: session.session_id }, null);
  }

  return {
    /** The principal behind an `Authorization: Bearer …` value (a login token or an API key). */
    async authenticate(token: string): Promise<Principal> {
      return token.startsWith(API_KEY_PREFIX) ? authenticateApiKey(token) : authenticateToken(token);
    },

    /** `address` is the client's address, for the failed-login limit per address. */
    async login(email: string, password: string, address: string): Promise<TokenResponse> {
      const account = email.trim().toLowerCase();
      // Counted before the slow hash: concurrent guesses cannot all pass the check (login-throttle.ts).
      const reservation = deps.loginThrottle.reserve(account, address, now());
      if (!('attempt' in reservation)) {
        const wait = reservation.wait;
        throw new AppError('too_many_requests', `Too many failed logins: try again in ${wait} seconds`, { 'retry-after': String(wait) });
      }
      const user = await findUserByEmail(db, account);
      let ok: boolean;
      if (user === undefined) {
        // Spend the same time as a real check, so that timing does not tell which emails exist.
        dummyHash ??= hashPassword('not-a-password', deps.passwordHashCost);
        await verifyPassword(password, await dummyHash);
        ok = false;
      } else {
        ok = (await verifyPassword(password, user.password_hash)) && user.is_active === 1;
      }
      if (!ok || user === undefined) throw unauthenticated('Incorrect email or password');
      reservation.attempt.succeeded();
      return startSession(user.id);
    },

    async logout(principal: Principal): Promise<{ detail: string }> {
      if (principal.credential.kind !== 'session') {
        throw new AppError('bad_request', 'Logout ends a login session; revoke an API key with DELETE /v1/api-keys/{id}');
      }
      await repo.revokeSession(db, principal.credential.id, now());
      return { detail: 'Logged out' };
    },

    /** Exchanges a valid or recently expired token of a live session for a fresh one. */
    async refresh(token: string | undefined): Promise<TokenResponse> {
      if (token === undefined) throw unauthenticated();
      if (token.startsWith(API_KEY_PREFIX)) throw new AppError('bad_request', 'API keys do not need refreshing');
      const claims = await verifyAccessToken(keys.jwt, token, now(), REFRESH_GRACE_SECONDS);
      if (claims === null) throw unauthenticated('Invalid or expired token');
      const session = await repo.findSessionWithUser(db, claims.sessionId);
      if (session === undefined || session.user_id !== claims.userId || session.revoked_at !== null) {
        throw unauthenticated('This session has ended: log in again');
      }
      if (session.is_active !== 1) throw unauthenticated('This account is disabled');
      if (now() - session.created_at > MAX_SESSION_AGE_SECONDS) throw unauthenticated('This session is more than 30 days old: log in again');
      await repo.extendSession(db, session.session_id, now() + deps.tokenTtlSeconds);
      return issueToken(session.user_id, session.session_id);
    },

    /** Verifies the current password, sets the new one, ends every other session, returns a fresh token. */
    async changePassword(principal: Principal, current: string, next: string): Promise<TokenResponse> {
      // A leaked API key must not be enough to take the account over.
      if (principal.credential.kind !== 'session') {
        throw new AppError('forbidden', 'The password is changed from a login session, not with an API key');
      }
      const user = await findUserById(db, principal.userId);
      if (user === undefined) throw unauthenticated();
      if (!(await verifyPassword(current, user.password_hash))) throw unauthenticated('The current password is not correct');
      if (current === next) throw new AppError('bad_request', 'The new password must differ from the current one');
      const password_hash = await hashPassword(next, deps.passwordHashCost);
      await db.transaction().execute(async (trx) => {
        await updateUser(trx, user.id, { password_hash, password_change_required: 0, updated_at: now() });
        await repo.revokeOtherSessions(trx, user.id, null, now());
      });
      return startSession(user.id);
    },

    async createApiKey(
      principal: Principal,
      input: { name: string; permissions?: string[] | null | undefined; expires_at?: number | null | undefined },
    ) {
      if (principal.credential.kind !== 'session') {
        throw new AppError('forbidden', 'API keys are created from a login session, not with another API key');
      }
      const at = now();
      if (input.expires_at != null && input.expires_at <= at) {
        throw new AppError('bad_request', 'expires_at must be in the future');
      }
      // A permission the user does not hold would make a key that answers 403 to everything.
      const lacking = (input.permissions ?? []).flatMap((permission, index) => {
        if (userHoldsSomewhere(principal, permission)) return [];
        const msg = `You do not hold the permission "${permission}", so a key of yours cannot have it`;
        return [{ loc: ['body', 'permissions', index], msg, type: 'value_error' }];
      });
      if (lacking.length > 0) throw new RequestValidationError(lacking);
      const permissions = input.permissions == null ? null : [...new Set(input.permissions)].sort();
      const id = newId();
      const secret = newApiKeySecret();
      const row = {
        id,
        user_id: principal.userId,
        name: input.name,
        secret_hash: sha256(secret),
        permissions: permissions === null ? null : JSON.stringify(permissions),
        created_at: at,
        expires_at: input.expires_at ?? null,
        last_used_at: null,
        revoked_at: null,
      };
      await repo.insertApiKey(db, row);
      return { ...toApiKey(row), key: formatApiKey(id, secret) };
    },

    async listApiKeys(principal: Principal) {
      const rows = await repo.listApiKeysOfUser(db, principal.userId);
      return { results: rows.map(toApiKey), count: rows.length };
    },

    async revokeApiKey(principal: Principal, id: string) {
      const row = await repo.findApiKeyOfUser(db, principal.userId, id);
      if (row === undefined) throw notFound('API key');
      await repo.revokeApiKey(db, id, now());
      return toApiKey({ ...row, revoked_at: row.revoked_at ?? now() });
    },
  };
}

export type AuthService = ReturnType<typeof createAuthService>;

export function toApiKey(row: ApiKeyRow) {
  return {
    id: row.id,
    name: row.name,
    permissions: repo.apiKeyPermissions(row),
    created_at: row.created_at,
    expires_at: row.expires_at,
    last_used_at: row.last_used_at,
    revoked_at: row.revoked_at,
  };
}

export const KNOWN_PERMISSIONS: readonly string[] = PERMISSIONS;
