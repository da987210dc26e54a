import { createBatchWriter } from '../../../jobs/batches.js';
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

const errorsIn = (rows: readonly NewResult[]) => rows.filter((row) => row.passed === null).length;

/**
 * An evaluation's results through the jobs' batch writer (src/jobs/batches.ts): each batch is
 * stored with the evaluation's progress, in the job's fenced transaction, on the evaluation
 * still running this job (a cancelled, deleted or re-created one gets no result of it).
 */
export function createResultBatches(options: ResultBatchOptions) {
  const { evaluationId, jobId, total } = options;
  let done = options.done;
  let errors = options.errors;
  const writer = createBatchWriter<NewResult>({
    fenced: options.fenced,
    size: options.size,
    intervalMs: options.intervalMs,
    async store(trx, batch) {
      const nextDone = done + batch.length;
      const nextErrors = errors + errorsIn(batch);
      const message = progressMessage(nextDone, total, nextErrors);
      if (!(await updateRunOf(trx, evaluationId, jobId, { progress_done: nextDone, error_count: nextErrors, status_message: message }))) return false;
      await insertResults(trx, batch);
      return true;
    },
    onWritten(batch) {
      done += batch.length;
      errors += errorsIn(batch);
      options.onWritten(done, total, errors);
    },
  });

  return {
    get stopped() {
      return writer.stopped;
    },
    /** Results stored or waiting to be. */
    get done() {
      return done + writer.pending.length;
    },
    get errors() {
      return errors + errorsIn(writer.pending);
    },
    add: writer.add,
    flush: writer.flush,
    close: writer.close,
  };
}

export type ResultBatches = ReturnType<typeof createResultBatches>;
