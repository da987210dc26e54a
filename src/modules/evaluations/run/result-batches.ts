import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { insertResults, updateRunning, type NewResult } from '../evaluations.repo.js';
import { progressMessage } from './messages.js';

export interface ResultBatchOptions {
  db: Kysely<DB>;
  evaluationId: string;
  total: number;
  /** Already stored when the run (re)started. */
  done: number;
  errors: number;
  /** A batch is written once this many results wait… */
  size: number;
  /** …or this long after the first of them came in. */
  intervalMs: number;
  /** After each batch is written (the job's own progress). */
  onWritten(done: number, total: number, errors: number): void;
}

/** Results waiting past this many batches make the senders wait for the writes (memory stays bounded). */
const MAX_WAITING_BATCHES = 4;

/**
 * Results are written in batches: one transaction per batch stores its results and the
 * evaluation's progress together, so a restart loses at most the batch being filled (those
 * prompts are sent again) and never a stored prompt; a batch that comes after the evaluation
 * was cancelled or deleted is dropped (what is stored is what its end says). Writes happen one at a time, in the
 * order results came in; senders go on while a batch is written, unless too many wait.
 */
export function createResultBatches(options: ResultBatchOptions) {
  const { db, evaluationId, total, size, intervalMs } = options;
  let pending: NewResult[] = [];
  let done = options.done;
  let errors = options.errors;
  let writing: Promise<void> = Promise.resolve();
  let batchesWaiting = 0;
  let failure: unknown;
  let timer: NodeJS.Timeout | undefined;
  /** The evaluation stopped running under us (cancelled, or deleted): nothing more should be sent. */
  let stopped = false;

  async function write(batch: NewResult[]): Promise<void> {
    const batchErrors = batch.filter((row) => row.passed === null).length;
    const nextDone = done + batch.length;
    const nextErrors = errors + batchErrors;
    const running = await db.transaction().execute(async (trx) => {
      const message = progressMessage(nextDone, total, nextErrors);
      // The evaluation still running first: a cancelled or deleted one gets no result after its end.
      if (!(await updateRunning(trx, evaluationId, { progress_done: nextDone, error_count: nextErrors, status_message: message }))) return false;
      await insertResults(trx, batch);
      return true;
    });
    if (!running) {
      stopped = true;
      return;
    }
    done = nextDone;
    errors = nextErrors;
    options.onWritten(done, total, errors);
  }

  /** Starts writing what waits (after the writes before it). */
  function startWrite(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (pending.length === 0) return writing;
    const batch = pending;
    pending = [];
    batchesWaiting++;
    writing = writing
      .then(() => (failure === undefined ? write(batch) : undefined))
      .catch((error: unknown) => {
        failure ??= error;
      })
      .finally(() => {
        batchesWaiting--;
      });
    return writing;
  }

  return {
    get stopped() {
      return stopped;
    },
    get done() {
      return done + pending.length;
    },
    get errors() {
      return errors + pending.filter((row) => row.passed === null).length;
    },

    /** Adds a unit's results; waits only when writes fall far behind. Throws once a write has failed. */
    async add(rows: readonly NewResult[]): Promise<void> {
      if (failure !== undefined) throw failure;
      pending.push(...rows);
      if (pending.length >= size) {
        const written = startWrite();
        if (batchesWaiting >= MAX_WAITING_BATCHES) await written;
      } else if (timer === undefined) {
        timer = setTimeout(() => void startWrite(), intervalMs);
        timer.unref();
      }
      if (failure !== undefined) throw failure;
    },

    /** Writes everything that waits and resolves once it is stored; throws if a write failed. */
    async flush(): Promise<void> {
      await startWrite();
      if (failure !== undefined) throw failure;
    },

    /** Stops the timer (the run is over). */
    close(): void {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

export type ResultBatches = ReturnType<typeof createResultBatches>;
