import type { ExpressionBuilder, Insertable, Kysely, Selectable, Updateable } from 'kysely';
import { countRows, type CountMemo } from '../../db/count-memo.js';
import type { Dialect } from '../../db/database.js';
import type { DB, PolicyRulesTable } from '../../db/schema.js';
import { tableCaching } from '../../db/table-caching.js';
import type { VersionedMemo } from '../../db/versioned-memo.js';

/** Cache classes (docs/caching.md). */
export const RULE_TABLES = tableCaching({ policy_rules: 'data' });
/**
 * What the rule list reads (the principal aside): its answers, counts and anchors are kept
 * while other tables are written (docs/caching.md); the driver adds the tables cascading into
 * it (policies, teams).
 */
export const RULE_LIST_READS = ['policy_rules'] as const;

export type RuleRow = Selectable<PolicyRulesTable>;
export type RulePatch = Updateable<PolicyRulesTable>;

export const insertRules = (db: Kysely<DB>, rows: Array<Insertable<PolicyRulesTable>>) =>
  rows.length === 0 ? Promise.resolve() : db.insertInto('policy_rules').values(rows).execute().then(() => undefined);

/**
 * Reads a rule. With `lock`, inside a transaction, on PostgreSQL its row is also locked until the
 * transaction ends (SQLite's write transactions are already serial).
 */
export const findRule = (db: Kysely<DB>, id: string, lock?: { dialect: Dialect }) => {
  const query = db.selectFrom('policy_rules').selectAll().where('id', '=', id);
  return (lock?.dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
};

export const updateRule = (db: Kysely<DB>, id: string, patch: RulePatch) =>
  db.updateTable('policy_rules').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteRule = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('policy_rules').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

export interface RuleListFilter {
  teamId?: string | undefined;
  policyId?: string | undefined;
  status?: string | undefined;
  category?: string | undefined;
}

/**
 * A rule's team is its policy's team, so with a policy the team predicate is implied and
 * left out: the (policy_id, …) indexes then answer the page and the count on their own.
 */
function ruleFilter<Q extends { where: (...args: any[]) => Q }>(query: Q, f: RuleListFilter): Q {
  let q = query;
  if (f.policyId !== undefined) q = q.where('policy_id', '=', f.policyId);
  else if (f.teamId !== undefined) q = q.where('team_id', '=', f.teamId);
  if (f.status !== undefined) q = q.where('status', '=', f.status);
  if (f.category !== undefined) q = q.where('category', '=', f.category);
  return q;
}

/** The row a page after `offset` rows starts from: the last of the rows skipped. */
export interface RuleAnchor {
  created_at: number;
  id: string;
}

/**
 * OFFSET walks every skipped index entry (100 ms for 900,000 rules). Past this many rows, a
 * page starts from a remembered anchor, the rule at a multiple of ANCHOR_STEP, kept per
 * database version (`anchors`, SQLite only) and then reached in one index seek: a page walks
 * fewer than ANCHOR_STEP entries past its anchor. A new anchor is found from the nearest lower
 * one known under the same version (a walk of at most the distance between them), or from the
 * start when there is none.
 */
export const ANCHOR_STEP = 1_000;

/** Creation order, oldest first, ties by id (CONTRACT.md): pages stay stable while rules are added. */
export async function listRules(
  db: Kysely<DB>,
  f: RuleListFilter,
  limit: number,
  offset: number,
  anchors?: VersionedMemo<RuleAnchor | undefined>,
): Promise<RuleRow[]> {
  const ordered = () => ruleFilter(db.selectFrom('policy_rules').selectAll(), f).orderBy('created_at').orderBy('id');
  const after = (anchor: RuleAnchor) => (eb: ExpressionBuilder<DB, 'policy_rules'>) =>
    eb(eb.refTuple('created_at', 'id'), '>', eb.tuple(anchor.created_at, anchor.id));
  const base = Math.floor(offset / ANCHOR_STEP) * ANCHOR_STEP;
  if (anchors === undefined || base === 0) return ordered().limit(limit).offset(offset).execute();
  const filterKey = JSON.stringify([f.teamId, f.policyId, f.status, f.category]);
  const keyAt = (position: number) => `${filterKey}@${position}`;
  const anchor = await anchors.get(keyAt(base), (peek) => {
    let from = base - ANCHOR_STEP;
    let below: RuleAnchor | undefined;
    for (; from > 0 && below === undefined; from -= ANCHOR_STEP) below = peek(keyAt(from));
    if (below !== undefined) from += ANCHOR_STEP; // the loop stepped past the one it found
    const keys = ruleFilter(db.selectFrom('policy_rules').select(['created_at', 'id']), f).orderBy('created_at').orderBy('id');
    // The rule at position `base` (1-based) is the (base - from)-th after the one at `from`.
    return (below === undefined ? keys : keys.where(after(below))).limit(1).offset(base - from - 1).executeTakeFirst();
  });
  if (anchor === undefined) return []; // fewer than `base` rules: the page is past the end
  return ordered()
    .where(after(anchor))
    .limit(limit)
    .offset(offset - base)
    .execute();
}

/** Kept until the next commit (`counts`, SQLite): 86 ms for 910,000 rules, asked for with every page. */
export const countRules = (db: Kysely<DB>, f: RuleListFilter, counts?: CountMemo) =>
  countRows(db, ruleFilter(db.selectFrom('policy_rules').select((eb) => eb.fn.countAll().as('n')), f), counts);

/** How many rules of the policy are not approved, and how many it has. */
export async function ruleReviewCounts(db: Kysely<DB>, policyId: string) {
  const row = await db
    .selectFrom('policy_rules')
    .select((eb) => [
      eb.fn.countAll().as('total'),
      eb.fn.count(eb.case().when('status', '!=', 'approved').then(1).end()).as('pending'),
    ])
    .where('policy_id', '=', policyId)
    .executeTakeFirstOrThrow();
  return { total: Number(row.total), notApproved: Number(row.pending) };
}

/** The team's approved rules, as the guard's `policy-sections` checks text against them (at most `limit`). */
export const approvedRules = (db: Kysely<DB>, teamId: string, limit: number) =>
  db
    .selectFrom('policy_rules')
    .select(['id', 'policy_id', 'rule_type', 'natural_language'])
    .where('team_id', '=', teamId)
    .where('status', '=', 'approved')
    .orderBy('created_at')
    .orderBy('id')
    .limit(limit)
    .execute();

/** The approved rules of the team's `policyIds`, with their policy's name and category (a custom harness is built from them). */
export const approvedRulesOfPolicies = (db: Kysely<DB>, teamId: string, policyIds: readonly string[]) =>
  policyIds.length === 0
    ? Promise.resolve([])
    : db
        .selectFrom('policy_rules')
        .innerJoin('policies', 'policies.id', 'policy_rules.policy_id')
        .select([
          'policy_rules.id',
          'policy_rules.rule_id',
          'policy_rules.policy_id',
          'policies.name as policy_name',
          'policies.category as policy_category',
          'policy_rules.rule_type',
          'policy_rules.action',
          'policy_rules.target',
          'policy_rules.natural_language',
          'policy_rules.category',
        ])
        .where('policy_rules.policy_id', 'in', policyIds)
        .where('policy_rules.team_id', '=', teamId)
        .where('policy_rules.status', '=', 'approved')
        .orderBy('policy_rules.policy_id')
        .orderBy('policy_rules.created_at')
        .orderBy('policy_rules.id')
        .execute();
