import type { Kysely } from 'kysely';
import { createVersionedMemo, type VersionedMemo } from './versioned-memo.js';

/** A list query's `count(*)` as a repo builds it: one row, the count in `n`. */
export interface CountQuery {
  compile(): { sql: string; parameters: readonly unknown[] };
  executeTakeFirstOrThrow(): Promise<{ n: unknown }>;
}

/**
 * Counts kept until the database's read version changes (docs/caching.md): a list's total
 * walks every matching index entry (86 ms for 910,000 rules) and every page asks for it. A repo
 * that wants it says so, with `countRows(db, query, memo)`; without a memo (PostgreSQL, where
 * there is no read version) every count runs.
 */
export type CountMemo = VersionedMemo<number> | undefined;

export const createCountMemo = (readVersion: (() => string) | undefined): CountMemo => createVersionedMemo<number>(readVersion, 1_000);

/**
 * The query's count, from `memo` when the same statement with the same parameters was counted
 * under the current read version. Inside a transaction it always runs: the transaction may
 * have written rows that no version shows yet.
 */
export async function countRows(db: Kysely<any>, query: CountQuery, memo?: CountMemo): Promise<number> {
  const run = async () => Number((await query.executeTakeFirstOrThrow()).n);
  if (memo === undefined || db.isTransaction) return run();
  const { sql, parameters } = query.compile();
  return memo.get(`${sql}\u0000${JSON.stringify(parameters)}`, run);
}
