import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import type { Fence, PendingLine, PendingProgress } from './runner.store.js';
import { cleanText, failureReason, redactSecrets } from './text.js';
import type { JobAbortReason, JobContext, JobHandler, JobProgress } from './types.js';

/** A job this runner holds: its handler's run, and what is waiting to be written. */
export interface ActiveJob {
  fence: Fence;
  kind: string;
  handler: JobHandler<any>;
  payloadText: string;
  /** Parsed when the run starts (a payload that is not JSON fails the job). */
  payload: unknown;
  controller: AbortController;
  /** The handler has returned or thrown: nothing it does any more is recorded. */
  settled: boolean;
  /** Settles once the job's end is written (or given up). */
  done: Promise<void>;
  progress: PendingProgress | undefined;
  lines: PendingLine[];
  nextSeq: number;
  /** The end to write, kept when writing it failed (tried again at each poll). */
  final: FinalWrite | undefined;
  /** Deferrals in a row and the best progress when it was claimed (the deferral budget). */
  deferralsAtClaim: number;
  bestAtClaim: number;
  /** This run reported progress past the best before it. */
  madeProgress: boolean;
  /** Asked by the handler: given back to the queue until then (epoch ms). */
  deferral: { atMs: number; reason: string } | undefined;
  /** Its row is being deleted (a transaction not yet committed): looked at often until then. */
  watchUntil: number;
}

/** Deferrals in a row without progress a job may make; the next request is refused. */
export const MAX_DEFERRALS = 20;

export interface FinalWrite {
  /** `queued`: given back after a shutdown, or deferred (then `notBefore`, epoch ms). */
  status: 'queued' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  notBefore?: number | undefined;
  /** For onEnded: why it failed or was cancelled. */
  reason: string;
}

const MAX_PROGRESS_MESSAGE = 500;
const MAX_LOG_MESSAGE = 2000;
/** progress_done and progress_total are int4 on PostgreSQL. */
const MAX_COUNT = 2_147_483_647;

const count = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(Math.floor(n), 0), MAX_COUNT) : 0);

export function newActiveJob(
  fence: Fence,
  handler: JobHandler<any>,
  payloadText: string,
  budget: { deferrals: number; best: number } = { deferrals: 0, best: 0 },
): ActiveJob {
  return {
    fence,
    kind: handler.kind,
    handler,
    payloadText,
    payload: undefined,
    controller: new AbortController(),
    settled: false,
    done: Promise.resolve(),
    progress: undefined,
    lines: [],
    nextSeq: 1,
    final: undefined,
    deferralsAtClaim: budget.deferrals,
    bestAtClaim: budget.best,
    madeProgress: false,
    deferral: undefined,
    watchUntil: 0,
  };
}

export function abortJob(job: ActiveJob, reason: JobAbortReason): void {
  if (!job.settled && !job.controller.signal.aborted) job.controller.abort(reason);
}

/** Buffers a log line; only the last `keep` are held (only those are kept in the table anyway). */
export function addLine(job: ActiveJob, level: PendingLine['level'], message: string, at: number, keep: number): void {
  const safeLevel = level === 'warn' || level === 'error' ? level : 'info';
  job.lines.push({ seq: job.nextSeq++, at, level: safeLevel, message: cleanText(redactSecrets(String(message)), MAX_LOG_MESSAGE) });
  if (job.lines.length > keep) job.lines.splice(0, job.lines.length - keep);
}

/** The handler's view of the job; progress and lines are buffered, and `changed` schedules their write. */
export function jobContext(
  job: ActiveJob,
  options: { nowMs: () => number; keep: number; changed: () => void; fenced: (write: (trx: Kysely<DB>) => Promise<boolean>) => Promise<boolean> },
): JobContext<unknown> {
  return {
    id: job.fence.id,
    kind: job.kind,
    payload: job.payload,
    attempt: job.fence.attempt,
    signal: job.controller.signal,
    progress: async (progress: JobProgress) => {
      if (job.settled) return;
      job.progress = {
        done: count(progress.done),
        total: count(progress.total),
        message: progress.message === undefined ? null : cleanText(redactSecrets(String(progress.message)), MAX_PROGRESS_MESSAGE),
      };
      if (job.progress.done > job.bestAtClaim) job.madeProgress = true;
      options.changed();
    },
    log: async (message: string, level: 'info' | 'warn' | 'error' = 'info') => {
      if (job.settled) return;
      addLine(job, level, message, options.nowMs(), options.keep);
      options.changed();
    },
    fenced: (write) => (job.settled ? Promise.resolve(false) : options.fenced(write)),
    deferFor: (delayMs: number, reason: string) => {
      // Stopping already (deferred, cancelled, shut down): nothing more to decide.
      if (job.settled || job.controller.signal.aborted) return true;
      if (!job.madeProgress && job.deferralsAtClaim >= MAX_DEFERRALS) return false;
      const at = options.nowMs() + (Number.isFinite(delayMs) ? Math.max(0, Math.floor(delayMs)) : 0);
      job.deferral = { atMs: at, reason: cleanText(redactSecrets(String(reason)), MAX_PROGRESS_MESSAGE) };
      job.controller.abort('deferred' satisfies JobAbortReason);
      return true;
    },
  };
}

/** How a run ends, from what aborted it (if anything) and whether the handler threw. */
export function finalOf(reason: JobAbortReason | undefined, failure: { error: unknown } | undefined, deferral?: ActiveJob['deferral']): FinalWrite {
  if (reason === 'shutdown') return { status: 'queued', error: null, reason: 'shutdown' };
  if (reason === 'deferred' && deferral !== undefined) return { status: 'queued', error: null, reason: deferral.reason, notBefore: deferral.atMs };
  if (reason === 'cancelled') return { status: 'cancelled', error: null, reason: 'cancelled' };
  if (failure === undefined) return { status: 'completed', error: null, reason: 'completed' };
  const error = failureReason(failure.error);
  return { status: 'failed', error, reason: error };
}

/** The job log's last line for that end. */
export function endLine(final: FinalWrite): string {
  if (final.status === 'queued' && final.notBefore !== undefined) {
    return `gave its slot back (${final.reason}); queued again, not before ${new Date(final.notBefore).toISOString()}`;
  }
  if (final.status === 'queued') return 'stopped by a shutdown; queued again';
  if (final.status === 'failed') return `failed: ${final.reason}`;
  return final.status;
}
