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
}

export interface FinalWrite {
  /** `queued`: given back after a shutdown. */
  status: 'queued' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  /** For onEnded: why it failed or was cancelled. */
  reason: string;
}

const MAX_PROGRESS_MESSAGE = 500;
const MAX_LOG_MESSAGE = 2000;
/** progress_done and progress_total are int4 on PostgreSQL. */
const MAX_COUNT = 2_147_483_647;

const count = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(Math.floor(n), 0), MAX_COUNT) : 0);

export function newActiveJob(fence: Fence, handler: JobHandler<any>, payloadText: string): ActiveJob {
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
export function jobContext(job: ActiveJob, options: { nowMs: () => number; keep: number; changed: () => void }): JobContext<unknown> {
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
      options.changed();
    },
    log: async (message: string, level: 'info' | 'warn' | 'error' = 'info') => {
      if (job.settled) return;
      addLine(job, level, message, options.nowMs(), options.keep);
      options.changed();
    },
  };
}

/** How a run ends, from what aborted it (if anything) and whether the handler threw. */
export function finalOf(reason: JobAbortReason | undefined, failure: { error: unknown } | undefined): FinalWrite {
  if (reason === 'shutdown') return { status: 'queued', error: null, reason: 'shutdown' };
  if (reason === 'cancelled') return { status: 'cancelled', error: null, reason: 'cancelled' };
  if (failure === undefined) return { status: 'completed', error: null, reason: 'completed' };
  const error = failureReason(failure.error);
  return { status: 'failed', error, reason: error };
}

/** The job log's last line for that end. */
export function endLine(final: FinalWrite): string {
  if (final.status === 'queued') return 'stopped by a shutdown; queued again';
  if (final.status === 'failed') return `failed: ${final.reason}`;
  return final.status;
}
