import type { Insertable, Kysely, Selectable } from 'kysely';
import type { ApiKeysTable, DB, SessionsTable } from '../../db/schema.js';
import { Type } from 'typebox';
import { decodeNullableJsonColumn } from '../../db/json-columns.js';
import { tableCaching } from '../../db/table-caching.js';

/**
 * The tables a principal is read from (`authenticate` in auth.service.ts: the session or key,
 * the user, their memberships and teams) and those whose writes change who may do what
 * (invitations become memberships). A commit to any of them moves the identity version, so a
 * logout, a revoked key, a disabled account or a new membership is seen by the very next
 * request (src/http/auth.ts, docs/caching.md). The identity module writes most of them.
 */
export const IDENTITY_TABLES = tableCaching({
  users: 'identity',
  teams: 'identity',
  memberships: 'identity',
  invitations: 'identity',
  sessions: 'identity',
  api_keys: 'identity',
});

export type ApiKeyRow = Selectable<ApiKeysTable>;

export const insertSession = (db: Kysely<DB>, row: Insertable<SessionsTable>) =>
  db.insertInto('sessions').values(row).execute();

/** The session with its user, in one query: this runs on every request made with a token. */
export const findSessionWithUser = (db: Kysely<DB>, sessionId: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id as session_id',
      'sessions.user_id',
      'sessions.created_at',
      'sessions.expires_at',
      'sessions.revoked_at',
      'users.email',
      'users.is_active',
      'users.is_super_admin',
      'users.password_change_required',
    ])
    .where('sessions.id', '=', sessionId)
    .executeTakeFirst();

export const revokeSession = (db: Kysely<DB>, sessionId: string, at: number) =>
  db.updateTable('sessions').set({ revoked_at: at }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();

export const extendSession = (db: Kysely<DB>, sessionId: string, expiresAt: number) =>
  db.updateTable('sessions').set({ expires_at: expiresAt }).where('id', '=', sessionId).execute();

export const revokeOtherSessions = (db: Kysely<DB>, userId: string, keepSessionId: string | null, at: number) => {
  let q = db.updateTable('sessions').set({ revoked_at: at }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (keepSessionId !== null) q = q.where('id', '!=', keepSessionId);
  return q.execute();
};

export const insertApiKey = (db: Kysely<DB>, row: Insertable<ApiKeysTable>) => db.insertInto('api_keys').values(row).execute();

export const findApiKeyWithUser = (db: Kysely<DB>, id: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.user_id',
      'api_keys.secret_hash',
      'api_keys.permissions',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.last_used_at',
      'users.email',
      'users.is_active',
      'users.is_super_admin',
      'users.password_change_required',
    ])
    .where('api_keys.id', '=', id)
    .executeTakeFirst();

export const listApiKeysOfUser = (db: Kysely<DB>, userId: string) =>
  db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).orderBy('created_at').orderBy('id').execute();

export const findApiKeyOfUser = (db: Kysely<DB>, userId: string, id: string) =>
  db.selectFrom('api_keys').selectAll().where('user_id', '=', userId).where('id', '=', id).executeTakeFirst();

export const revokeApiKey = (db: Kysely<DB>, id: string, at: number) =>
  db.updateTable('api_keys').set({ revoked_at: at }).where('id', '=', id).where('revoked_at', 'is', null).execute();

export const touchApiKey = (db: Kysely<DB>, id: string, at: number) =>
  db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', id).execute();

/** What an API key is limited to (null: all its holder's permissions), decoded once here. */
export const apiKeyPermissions = (row: Pick<ApiKeyRow, 'permissions'>): string[] | null =>
  decodeNullableJsonColumn(Type.Array(Type.String()), row.permissions, 'api_keys.permissions');
