import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { JobContext } from './types.js';

export interface BatchWriterOptions<R> {
  /** The job's fenced transaction: a batch is written only while the run holds its job. */
  fenced: JobContext['fenced'];
  /**
   * Writes one batch in that transaction: checks first that the feature's record still runs this
   * job (and moves its progress), then inserts the rows. False when the record no longer runs
   * it (cancelled, deleted, re-created): nothing is written and the writer stops.
   */
  store(trx: Kysely<DB>, rows: R[]): Promise<boolean>;
  /** A batch is written once this many rows wait… */
  size: number;
  /** …or this long after the first of them came in (ms). */
  intervalMs: number;
  /** After each batch is stored (the job's own progress). */
  onWritten?(rows: readonly R[]): void;
}

/** Rows waiting past this many batches make the senders wait for the writes (memory stays bounded). */
const MAX_WAITING_BATCHES = 4;

/**
 * The one batch writer of the jobs that call agents (evaluations' results, campaigns' findings):
 * one transaction per batch stores its rows and the record's progress together, so a restart
 * loses at most the batch being filled (those units are sent again) and never a stored one; a
 * batch that comes after the record ended, or after the run lost its job, is dropped (what is
 * stored is what its end says). Writes happen one at a time, in the order rows came in;
 * senders go on while a batch is written, unless too many wait.
 */
export function createBatchWriter<R>(options: BatchWriterOptions<R>) {
  const { fenced, size, intervalMs } = options;
  let pending: R[] = [];
  let writing: Promise<void> = Promise.resolve();
  let batchesWaiting = 0;
  let failure: unknown;
  let timer: NodeJS.Timeout | undefined;
  /** The record stopped running this job under us: nothing more should be sent or stored. */
  let stopped = false;

  async function write(batch: R[]): Promise<void> {
    if (stopped) return;
    const running = await fenced((trx) => options.store(trx, batch));
    if (!running) {
      stopped = true;
      return;
    }
    options.onWritten?.(batch);
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
    /** The record stopped running this job (a batch found it so): nothing more is stored. */
    get stopped() {
      return stopped;
    },
    /** Rows added and not yet written. */
    get pending(): readonly R[] {
      return pending;
    },

    /** Adds a unit's rows; waits only when writes fall far behind. Throws once a write has failed. */
    async add(rows: readonly R[]): Promise<void> {
      if (failure !== undefined) throw failure;
      if (stopped) return;
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

export type BatchWriter<R> = ReturnType<typeof createBatchWriter<R>>;
