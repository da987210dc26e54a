import type { JobContext } from '../../../jobs/types.js';
import { insertResults, updateRunOf, type NewResult } from '../evaluations.repo.js';
import { progressMessage } from './messages.js';

export interface ResultBatchOptions {
  /** The job's fenced transaction: a batch is written only while the run holds its job. */
  fenced: JobContext['fenced'];
  evaluationId: string;
  /** The run's job: the evaluation must still be running it. */
  jobId: string;
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
 * was cancelled or deleted, or after the run lost its job, is dropped (what is stored is what
 * its end says): each batch is written in the job's fenced transaction, on the evaluation
 * still running this job. Writes happen one at a time, in the
 * order results came in; senders go on while a batch is written, unless too many wait.
 */
export function createResultBatches(options: ResultBatchOptions) {
  const { fenced, evaluationId, jobId, total, size, intervalMs } = options;
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
    const running = await fenced(async (trx) => {
      const message = progressMessage(nextDone, total, nextErrors);
      // This run's evaluation still running first: a cancelled, deleted or re-created one gets no result of it.
      if (!(await updateRunOf(trx, evaluationId, jobId, { progress_done: nextDone, error_count: nextErrors, status_message: message }))) return false;
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
