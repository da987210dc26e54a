import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, PoliciesTable } from '../../db/schema.js';
import type { Dialect } from '../../db/database.js';
import { countRows } from '../../db/count-memo.js';
import { tableCaching } from '../../db/table-caching.js';
import { containsIgnoringCase } from '../../db/contains.js';

/** Cache classes (docs/caching.md). */
export const POLICY_TABLES = tableCaching({ policies: 'data' });

export type PolicyRow = Selectable<PoliciesTable>;
export type PolicyPatch = Updateable<PoliciesTable>;

export const insertPolicy = (db: Kysely<DB>, row: Insertable<PoliciesTable>) => db.insertInto('policies').values(row).execute();

export const findPolicy = (db: Kysely<DB>, id: string) => db.selectFrom('policies').selectAll().where('id', '=', id).executeTakeFirst();

export const updatePolicy = (db: Kysely<DB>, id: string, patch: PolicyPatch) =>
  db.updateTable('policies').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

/** Deletes the policy; its rules and its file go with it (ON DELETE CASCADE). */
export const deletePolicy = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('policies').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

/** Of `ids`, those that are policies of the team. */
export const teamPolicyIds = async (db: Kysely<DB>, teamId: string, ids: readonly string[]) =>
  ids.length === 0 ? [] : (await db.selectFrom('policies').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute()).map((r) => r.id);

export interface PolicyListFilter {
  teamId: string;
  category?: string | undefined;
  status?: string | undefined;
  search?: string | undefined;
}

function policyFilter<Q extends { where: (...args: any[]) => Q }>(query: Q, f: PolicyListFilter): Q {
  let q = query.where('team_id', '=', f.teamId);
  if (f.category !== undefined) q = q.where('category', '=', f.category);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.search !== undefined && f.search.length > 0) {
    const term = f.search;
    q = q.where(sql<boolean>`(${containsIgnoringCase(sql.ref('name'), term)} or ${containsIgnoringCase(sql`coalesce(description, '')`, term)})`);
  }
  return q;
}

export const listPolicies = (db: Kysely<DB>, f: PolicyListFilter, limit: number, offset: number) =>
  policyFilter(db.selectFrom('policies').selectAll(), f).orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();

export const countPolicies = (db: Kysely<DB>, f: PolicyListFilter) =>
  countRows(db, policyFilter(db.selectFrom('policies').select((eb) => eb.fn.countAll().as('n')), f));

/**
 * A page and the count of all matching policies, read from one snapshot: one transaction,
 * REPEATABLE READ on PostgreSQL (its default READ COMMITTED gives each statement its own
 * snapshot); on SQLite a transaction is a snapshot and writers are serial.
 */
export const listPoliciesWithTotal = (db: Kysely<DB>, dialect: Dialect, f: PolicyListFilter, limit: number, offset: number) => {
  const tx = db.transaction();
  return (dialect === 'postgres' ? tx.setIsolationLevel('repeatable read') : tx).execute(async (trx) => {
    const rows = await listPolicies(trx, f, limit, offset);
    return { rows, total: await countPolicies(trx, f) };
  });
};
