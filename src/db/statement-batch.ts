import { CompiledQuery, SqliteAdapter, type Kysely, type QueryResult } from 'kysely';

/**
 * Several statements of one request sent to the database together (docs/decisions.md,
 * "Statement batches"). On SQLite each statement is a synchronous call to the writer thread,
 * and each call costs two thread switches, the largest part of a durable write's CPU on one
 * core; a batch is one call. Elsewhere (PostgreSQL, the in-memory database of ad-hoc tools)
 * the statements run one after the other on the same connection, with the same results.
 *
 * A batch is all or nothing: if one of its statements fails, none of them is kept (inside a
 * transaction the caller's own error handling then rolls the rest back, as for statements sent
 * one by one). Outside a transaction it commits as one unit; on SQLite it is answered, like any
 * write, once its group commit is durable.
 */
export interface BatchStep {
  query: CompiledQuery;
  /**
   * Run this statement only if the one before it changed a row or returned one (an `UPDATE …
   * RETURNING` that matched, an `INSERT` that inserted): a follow-up that belongs to a
   * conditional write. A skipped statement counts as changing nothing for the next one.
   */
  onlyIfPreviousChanged?: boolean;
}

/** The result of each step, undefined for a step skipped by `onlyIfPreviousChanged`. */
export type BatchResults = Array<QueryResult<unknown> | undefined>;

const STEPS = Symbol('warden.batchSteps');

/** The query the batch travels as through Kysely to a connection that sends batches. */
export interface BatchQuery extends CompiledQuery {
  readonly [STEPS]: readonly BatchStep[];
}

export const batchStepsOf = (query: CompiledQuery): readonly BatchStep[] | undefined => (query as Partial<BatchQuery>)[STEPS];

/** The adapter of a dialect whose connections take a BatchQuery as one call (the SQLite group commit). */
export class BatchingSqliteAdapter extends SqliteAdapter {}

/** Whether a step's result counts as a change for the next step's `onlyIfPreviousChanged`. */
export const changedSomething = (result: QueryResult<unknown> | undefined): boolean =>
  result !== undefined && (result.rows.length > 0 || (result.numAffectedRows ?? 0n) > 0n);

export async function executeBatch(db: Kysely<any>, steps: readonly BatchStep[]): Promise<BatchResults> {
  if (db.getExecutor().adapter instanceof BatchingSqliteAdapter) {
    const query: BatchQuery = { ...CompiledQuery.raw('-- a batch of statements'), [STEPS]: steps };
    const result = await db.executeQuery(query);
    return result.rows as BatchResults;
  }
  if (!db.isTransaction) return db.transaction().execute((trx) => executeBatch(trx, steps));
  const results: BatchResults = [];
  let changed = true;
  for (const step of steps) {
    if (step.onlyIfPreviousChanged === true && !changed) {
      results.push(undefined);
      continue;
    }
    const result = await db.executeQuery(step.query);
    changed = changedSomething(result);
    results.push(result);
  }
  return results;
}
