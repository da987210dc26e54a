import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { endInTransaction } from './ending.js';
import { appendLines, findInterrupted, markInterrupted, nextLogSeq, type InterruptedRow } from './runner.store.js';
import type { JobHandler, JobLogger } from './types.js';

/** The failure reason of a job whose handler says it cannot resume. */
export const INTERRUPTED = 'interrupted by a restart';
const BATCH = 50;

export interface RecoveryScope {
  db: Kysely<DB>;
  handlers: ReadonlyMap<string, JobHandler<any>>;
  workerId: string;
  /** Log lines kept per job. */
  keep: number;
  nowMs: () => number;
  logger: JobLogger;
}

/**
 * Jobs left `running` by a worker that is gone, of the kinds this runner handles: with
 * `expiredBefore`, those whose lease expired before it (at every poll); without, every one held
 * by another worker (the start of the only process of a SQLite file). Each goes back to the
 * queue as its next attempt (handler `resume`, attempts left) or fails (handler `fail`, or no
 * attempt left; onEnded is called). The budget counts runs interrupted in a row without
 * progress: `max_attempts` of them fail the job. Answers how many went back to the queue.
 */
export async function recoverInterrupted(scope: RecoveryScope, expiredBefore: number | undefined): Promise<number> {
  const kinds = [...scope.handlers.keys()];
  if (kinds.length === 0) return 0;
  let requeued = 0;
  for (;;) {
    const rows = await findInterrupted(scope.db, { kinds, workerId: scope.workerId, expiredBefore, limit: BATCH });
    for (const row of rows) if ((await recoverOne(scope, row, expiredBefore)) === 'queued') requeued++;
    // A row that could not be moved was changed meanwhile, so it is not found again.
    if (rows.length < BATCH) return requeued;
  }
}

async function recoverOne(scope: RecoveryScope, row: InterruptedRow, expiredBefore: number | undefined): Promise<'queued' | 'failed' | undefined> {
  const handler = scope.handlers.get(row.kind);
  if (handler === undefined) return undefined;
  const error =
    handler.onInterrupted === 'fail'
      ? INTERRUPTED
      : row.strikes + 1 >= row.max_attempts
        ? `${INTERRUPTED} on ${row.strikes + 1} attempts in a row, without progress`
        : undefined;
  const at = scope.nowMs();
  const inARow = `${row.strikes + 1} of ${row.max_attempts} interruptions in a row without progress`;
  const line = {
    at,
    level: error === undefined ? ('warn' as const) : ('error' as const),
    message:
      error === undefined
        ? `interrupted by a restart; queued again as attempt ${row.attempt + 1} (${inARow})`
        : `failed: ${error}`,
  };
  const moved = await endInTransaction(
    scope.db,
    scope.logger,
    row.id,
    async (trx) => {
      const change = error === undefined ? ({ status: 'queued' } as const) : ({ status: 'failed', error } as const);
      const ok = await markInterrupted(trx, row, change, { at: Math.floor(at / 1000), expiredBefore });
      // Numbered after the update: on PostgreSQL its row lock keeps a slow previous holder from adding lines.
      if (ok) await appendLines(trx, row.id, [{ seq: await nextLogSeq(trx, row.id), ...line }], scope.keep);
      return ok;
    },
    error === undefined || handler.onEnded === undefined
      ? undefined
      : (trx) => handler.onEnded!({ id: row.id, payload: parsePayload(row.payload), status: 'failed', reason: error }, trx),
  );
  if (!moved) return undefined;
  const fields = { jobId: row.id, kind: row.kind, attempt: row.attempt, previousWorker: row.locked_by };
  scope.logger.warn(
    error === undefined ? fields : { ...fields, reason: error },
    error === undefined ? 'job interrupted; queued again' : 'job interrupted; failed',
  );
  return error === undefined ? 'queued' : 'failed';
}

function parsePayload(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
