import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { listenLocally } from './local-signals.js';
import { appendLines, claimNext, endHeld, findInterrupted, markInterrupted, nextLogSeq, readHeld, renewLeases, writePending } from './runner.store.js';
import type { Fence, InterruptedRow, PendingLine, PendingProgress } from './runner.store.js';
import { cleanText, failureReason, redactSecrets } from './text.js';
import type { JobAbortReason, JobContext, JobHandler, JobProgress } from './types.js';

/** What the runner writes to the service log (pino and Fastify's logger fit). Never payloads or secrets. */
export interface JobLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export interface JobRunnerOptions {
  db: Kysely<DB>;
  dialect: Dialect;
  handlers: ReadonlyArray<JobHandler<any>>;
  /** Jobs this process runs at once (default 2). */
  concurrency?: number;
  /** How often the queue, cancel requests and expired leases are looked at (default 1000 ms). */
  pollMs?: number;
  /** How long a claim lasts without renewal (default 30 s); renewed every third of it. */
  leaseMs?: number;
  /** Progress and log lines are written at most once per this interval, for all jobs at once (default 1000 ms). */
  flushMs?: number;
  /** How long stop() waits for aborted handlers (default 10 s). */
  stopTimeoutMs?: number;
  /** Log lines kept per job (default 1000, at most 5000). */
  maxLogLines?: number;
  /** Unique per runner; default: host, process id and a random part. */
  workerId?: string;
  /** Epoch milliseconds, for leases and recorded times (injected in tests). */
  nowMs?: () => number;
  logger?: JobLogger;
}

export interface JobRunner {
  readonly workerId: string;
  /** Recovers what a previous process left running (SQLite), then polls. */
  start(): Promise<void>;
  /** Aborts running handlers (reason `shutdown`), waits for them (bounded) and gives their jobs back to the queue. */
  stop(): Promise<void>;
  /** Polls now; resolves once that poll is done. */
  wake(): Promise<void>;
}

export const JOB_DEFAULTS = {
  concurrency: 2,
  pollMs: 1000,
  leaseMs: 30_000,
  flushMs: 1000,
  stopTimeoutMs: 10_000,
  maxLogLines: 1000,
} as const;

/** The failure reason of a job whose handler says it cannot resume. */
export const INTERRUPTED = 'interrupted by a restart';
const MAX_PROGRESS_MESSAGE = 500;
const MAX_LOG_MESSAGE = 2000;
const MAX_COUNT = 2_147_483_647;
/** After a local enqueue, extra polls: the enqueuing transaction may commit after the first one looked. */
const WAKE_FOLLOW_UPS_MS = [20, 100, 500];
const RECOVERY_BATCH = 50;

const noLogger: JobLogger = { info() {}, warn() {}, error() {} };

interface FinalWrite {
  status: 'queued' | 'completed' | 'failed' | 'cancelled';
  error: string | null;
  /** For onEnded: why it failed or was cancelled. */
  reason: string;
}

interface ActiveJob {
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
  /** The end to write, kept when writing it failed (retried at each poll). */
  final: FinalWrite | undefined;
}

class OnEndedFailed extends Error {
  constructor(cause: unknown) {
    super('onEnded failed', { cause });
  }
}

const count = (n: number) => (Number.isFinite(n) ? Math.min(Math.max(Math.floor(n), 0), MAX_COUNT) : 0);
const elapsed = () => performance.now();

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, dialect } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? JOB_DEFAULTS.concurrency));
  const pollMs = Math.max(1, options.pollMs ?? JOB_DEFAULTS.pollMs);
  const leaseMs = Math.max(3, options.leaseMs ?? JOB_DEFAULTS.leaseMs);
  const renewEveryMs = leaseMs / 3;
  const flushMs = Math.max(0, options.flushMs ?? JOB_DEFAULTS.flushMs);
  const stopTimeoutMs = Math.max(0, options.stopTimeoutMs ?? JOB_DEFAULTS.stopTimeoutMs);
  const keep = Math.min(Math.max(1, Math.floor(options.maxLogLines ?? JOB_DEFAULTS.maxLogLines)), 5000);
  const workerId = options.workerId ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const nowMs = options.nowMs ?? Date.now;
  const nowSec = () => Math.floor(nowMs() / 1000);
  const logger = options.logger ?? noLogger;
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const kinds = [...handlers.keys()];

  let state: 'new' | 'running' | 'stopping' | 'stopped' = 'new';
  const active = new Map<string, ActiveJob>();
  let unlisten: (() => void) | undefined;
  let pollTimer: NodeJS.Timeout | undefined;
  let followUps: number[] = [];
  let nextRenewalAt = 0;
  let current: Promise<void> | undefined;
  let queued: Promise<void> | undefined;
  let flushTimer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> | undefined;
  let lastFlushAt = -Infinity;

  // ------------------------------------------------------------------ polling

  function schedule(): void {
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    pollTimer = undefined;
    if (state !== 'running') return;
    let delay = followUps.shift() ?? pollMs;
    if (active.size > 0) delay = Math.min(delay, Math.max(0, nextRenewalAt - elapsed()));
    pollTimer = setTimeout(() => void poll(), delay);
    pollTimer.unref();
  }

  /** One poll at a time; a poll asked for during one runs right after it. */
  function poll(): Promise<void> {
    if (current === undefined) {
      current = tick().finally(() => {
        current = undefined;
        schedule();
      });
      return current;
    }
    queued ??= current.then(() => {
      queued = undefined;
      return poll();
    });
    return queued;
  }

  async function tick(): Promise<void> {
    if (state !== 'running') return;
    const steps: Array<[string, () => Promise<void>]> = [
      ['retrying the end of a job', retryFinals],
      ['checking running jobs', checkHeld],
      ['renewing leases', renewIfDue],
      ['recovering interrupted jobs', () => recover(nowMs())],
      ['claiming jobs', claim],
    ];
    for (const [what, step] of steps) {
      if (state !== 'running') return;
      try {
        await step();
      } catch (error) {
        logger.error({ workerId, error: failureReason(error) }, `job runner: ${what} failed`);
      }
    }
  }

  async function claim(): Promise<void> {
    if (kinds.length === 0) return;
    while (state === 'running' && active.size < concurrency) {
      const at = nowMs();
      const row = await claimNext(db, dialect, {
        kinds,
        exclude: [...active.keys()],
        workerId,
        leaseUntil: at + leaseMs,
        at: Math.floor(at / 1000),
      });
      if (row === undefined) return;
      if (active.size === 0) nextRenewalAt = elapsed() + renewEveryMs;
      await launch(row.id, row.kind, row.payload, row.attempt, row.cancel_requested === 1);
    }
  }

  /** Cancel requests, and jobs taken away (lease expired and recovered elsewhere, row deleted). */
  async function checkHeld(): Promise<void> {
    const held = [...active.values()].filter((job) => !job.settled);
    if (held.length === 0) return;
    const rows = new Map((await readHeld(db, held.map((job) => job.fence.id))).map((row) => [row.id, row]));
    for (const job of held) {
      const row = rows.get(job.fence.id);
      const stillOurs = row !== undefined && row.status === 'running' && row.locked_by === workerId && row.attempt === job.fence.attempt;
      if (!stillOurs) abort(job, 'lost');
      else if (row.cancel_requested === 1) abort(job, 'cancelled');
    }
  }

  async function renewIfDue(): Promise<void> {
    if (active.size === 0 || elapsed() < nextRenewalAt) return;
    nextRenewalAt = elapsed() + renewEveryMs;
    await renewLeases(db, workerId, [...active.keys()], nowMs() + leaseMs);
  }

  async function retryFinals(): Promise<void> {
    for (const job of active.values()) if (job.final !== undefined) await writeFinal(job);
  }

  // ------------------------------------------------------------------ recovery

  /**
   * Jobs left `running` by a worker that is gone: with `expiredBefore`, those whose lease
   * expired before it (PostgreSQL, at every poll); without, every one (the start of the only
   * process of a SQLite file).
   */
  async function recover(expiredBefore: number | undefined): Promise<void> {
    if (kinds.length === 0) return;
    for (;;) {
      const rows = await findInterrupted(db, { kinds, workerId, expiredBefore, limit: RECOVERY_BATCH });
      for (const row of rows) await recoverOne(row, expiredBefore);
      if (rows.length < RECOVERY_BATCH || state !== 'running') return;
    }
  }

  async function recoverOne(row: InterruptedRow, expiredBefore: number | undefined): Promise<void> {
    const handler = handlers.get(row.kind);
    if (handler === undefined) return;
    const error =
      handler.onInterrupted === 'fail'
        ? INTERRUPTED
        : row.attempt >= row.max_attempts
          ? `${INTERRUPTED} on each of its ${row.attempt} attempts`
          : undefined;
    const at = nowMs();
    const message = error === undefined ? `interrupted by a restart; queued again as attempt ${row.attempt + 1} of ${row.max_attempts}` : `failed: ${error}`;
    const payload = parsePayload(row.payload);
    const moved = await inTransaction(
      row.id,
      async (trx) => {
        const ok = await markInterrupted(trx, row, error === undefined ? { status: 'queued' } : { status: 'failed', error }, {
          at: Math.floor(at / 1000),
          expiredBefore,
        });
        // Read after the update: on PostgreSQL its row lock keeps a slow previous holder from adding lines.
        if (ok) await appendLines(trx, row.id, [{ seq: await nextLogSeq(trx, row.id), at, level: error === undefined ? 'warn' : 'error', message }], keep);
        return ok;
      },
      error === undefined || handler.onEnded === undefined
        ? undefined
        : (trx) => handler.onEnded!({ id: row.id, payload, status: 'failed', reason: error }, trx),
    );
    if (moved) {
      const fields = { jobId: row.id, kind: row.kind, attempt: row.attempt, previousWorker: row.locked_by };
      if (error === undefined) logger.warn(fields, 'job interrupted; queued again');
      else logger.warn({ ...fields, reason: error }, 'job interrupted; failed');
      if (error === undefined) void poll();
    }
  }

  /**
   * Runs `write` and, when it changed the job, `ended` in one transaction: the job's end and the
   * feature's record commit together. If `ended` throws, the end is recorded without it.
   */
  async function inTransaction(
    jobId: string,
    write: (trx: Kysely<DB>) => Promise<boolean>,
    ended: ((trx: Kysely<DB>) => Promise<void>) | undefined,
  ): Promise<boolean> {
    const attempt = (withEnded: boolean) =>
      db.transaction().execute(async (trx) => {
        const changed = await write(trx);
        if (changed && withEnded && ended !== undefined) {
          try {
            await ended(trx);
          } catch (error) {
            throw new OnEndedFailed(error);
          }
        }
        return changed;
      });
    try {
      return await attempt(true);
    } catch (error) {
      if (!(error instanceof OnEndedFailed)) throw error;
      logger.error({ jobId, error: failureReason(error.cause) }, 'job onEnded failed; the job ended without it');
      return attempt(false);
    }
  }

  // ------------------------------------------------------------------ running a job

  function abort(job: ActiveJob, reason: JobAbortReason): void {
    if (!job.settled && !job.controller.signal.aborted) job.controller.abort(reason);
  }

  async function launch(id: string, kind: string, payloadText: string, attempt: number, cancelRequested: boolean): Promise<void> {
    const handler = handlers.get(kind) as JobHandler<unknown>;
    const job: ActiveJob = {
      fence: { id, workerId, attempt },
      kind,
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
    active.set(id, job);
    try {
      job.nextSeq = await nextLogSeq(db, id);
    } catch (error) {
      // Only the numbering of log lines depends on it: a clash fails a flush, not the job.
      logger.warn({ jobId: id, error: failureReason(error) }, 'job runner: could not read the log position');
    }
    addLine(job, 'info', `attempt ${attempt} started`);
    logger.info({ jobId: id, kind, attempt }, 'job started');
    // Released by a shutdown or recovered with a cancel request not yet seen: it ends at once.
    if (cancelRequested) abort(job, 'cancelled');
    if (state !== 'running') abort(job, 'shutdown');
    job.done = run(job);
  }

  async function run(job: ActiveJob): Promise<void> {
    const { signal } = job.controller;
    let failure: { error: unknown } | undefined;
    await null; // the handler does not run inside the poll that claimed it
    try {
      job.payload = JSON.parse(job.payloadText);
      if (!signal.aborted) await job.handler.run(contextOf(job));
    } catch (error) {
      failure = { error };
    }
    // What ended the run is decided now: an abort that comes later changes nothing.
    const reason = signal.aborted ? (signal.reason as JobAbortReason) : undefined;
    job.settled = true;
    if (reason === 'lost') {
      active.delete(job.fence.id);
      logger.warn({ jobId: job.fence.id, kind: job.kind }, 'job taken over elsewhere; its result here is dropped');
    } else {
      job.final = finalOf(reason, failure);
      addLine(job, job.final.status === 'failed' ? 'error' : 'info', endLine(job.final));
      await writeFinal(job);
    }
    if (state === 'running') void poll();
  }

  function finalOf(reason: JobAbortReason | undefined, failure: { error: unknown } | undefined): FinalWrite {
    if (reason === 'shutdown') return { status: 'queued', error: null, reason: 'shutdown' };
    if (reason === 'cancelled') return { status: 'cancelled', error: null, reason: 'cancelled' };
    if (failure === undefined) return { status: 'completed', error: null, reason: 'completed' };
    const error = failureReason(failure.error);
    return { status: 'failed', error, reason: error };
  }

  const endLine = (final: FinalWrite) =>
    final.status === 'queued'
      ? 'stopped by a shutdown; queued again'
      : final.status === 'failed'
        ? `failed: ${final.reason}`
        : final.status;

  async function writeFinal(job: ActiveJob): Promise<void> {
    const final = job.final;
    if (final === undefined || state === 'stopped') return;
    await flushing;
    const lines = job.lines.slice();
    const { handler, payload } = job;
    const status = final.status;
    try {
      const changed = await inTransaction(
        job.fence.id,
        (trx) => endHeld(trx, job.fence, { status, error: final.error, progress: job.progress, lines, keep, at: nowSec() }),
        (status === 'failed' || status === 'cancelled') && handler.onEnded !== undefined
          ? (trx) => handler.onEnded!({ id: job.fence.id, payload, status, reason: final.reason }, trx)
          : undefined,
      );
      active.delete(job.fence.id);
      job.final = undefined;
      if (!changed) logger.warn({ jobId: job.fence.id, kind: job.kind }, 'job taken over elsewhere before it ended here; its end is dropped');
      else logger.info({ jobId: job.fence.id, kind: job.kind, status, ...(final.error ? { reason: final.error } : {}) }, 'job ended');
    } catch (error) {
      // Kept in `active` (its lease renewed) and tried again at the next poll.
      logger.error({ jobId: job.fence.id, error: failureReason(error) }, 'job runner: could not record the end of a job');
    }
  }

  function contextOf(job: ActiveJob): JobContext<unknown> {
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
          message: progress.message === undefined ? null : cleanText(redactSecrets(progress.message), MAX_PROGRESS_MESSAGE),
        };
        scheduleFlush();
      },
      log: async (message: string, level: 'info' | 'warn' | 'error' = 'info') => {
        if (job.settled) return;
        addLine(job, level, message);
        scheduleFlush();
      },
    };
  }

  function addLine(job: ActiveJob, level: PendingLine['level'], message: string): void {
    const safeLevel = level === 'warn' || level === 'error' ? level : 'info';
    job.lines.push({ seq: job.nextSeq++, at: nowMs(), level: safeLevel, message: cleanText(redactSecrets(String(message)), MAX_LOG_MESSAGE) });
    // Only the last `keep` lines are kept anyway: a handler logging in a loop holds no more.
    if (job.lines.length > keep) job.lines.splice(0, job.lines.length - keep);
  }

  // ------------------------------------------------------------------ progress and logs

  function scheduleFlush(): void {
    if (flushTimer !== undefined || state === 'stopped') return;
    flushTimer = setTimeout(
      () => {
        flushTimer = undefined;
        void flush();
      },
      Math.max(0, lastFlushAt + flushMs - elapsed()),
    );
    flushTimer.unref();
  }

  /** Writes every held job's pending progress and lines in one transaction. */
  function flush(): Promise<void> {
    if (flushing !== undefined) {
      scheduleFlush();
      return flushing;
    }
    flushing = flushNow().finally(() => {
      flushing = undefined;
    });
    return flushing;
  }

  async function flushNow(): Promise<void> {
    lastFlushAt = elapsed();
    const dirty = [...active.values()]
      .filter((job) => !job.settled && (job.progress !== undefined || job.lines.length > 0))
      .map((job) => ({ job, progress: job.progress, lines: job.lines.slice() }));
    if (dirty.length === 0) return;
    const at = nowSec();
    let lost: ActiveJob[];
    try {
      lost = await db.transaction().execute(async (trx) => {
        const gone: ActiveJob[] = [];
        for (const { job, progress, lines } of dirty) {
          if (!(await writePending(trx, job.fence, { progress, lines, keep, at }))) gone.push(job);
        }
        return gone;
      });
    } catch (error) {
      logger.warn({ workerId, error: failureReason(error) }, 'job runner: could not write progress; trying again');
      scheduleFlush();
      return;
    }
    for (const { job, progress, lines } of dirty) {
      const written = lines.length === 0 ? 0 : (lines[lines.length - 1] as PendingLine).seq;
      job.lines = job.lines.filter((line) => line.seq > written);
      if (job.progress === progress) job.progress = undefined;
    }
    for (const job of lost) abort(job, 'lost');
  }

  function parsePayload(text: string): unknown {
    try {
      return JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  // ------------------------------------------------------------------ lifecycle

  return {
    workerId,

    async start() {
      if (state !== 'new') throw new Error('a job runner starts once');
      state = 'running';
      unlisten = listenLocally({
        enqueued: () => {
          followUps = [...WAKE_FOLLOW_UPS_MS];
          void poll();
        },
        cancelRequested: (jobId) => {
          if (active.has(jobId)) void poll();
        },
      });
      // One process per SQLite file (docs/deployment.md): what is running now was left by the previous one.
      if (dialect === 'sqlite') await recover(undefined);
      await poll();
    },

    async stop() {
      if (state === 'new' || state === 'stopped') {
        state = 'stopped';
        return;
      }
      if (state === 'stopping') return;
      state = 'stopping';
      unlisten?.();
      if (pollTimer !== undefined) clearTimeout(pollTimer);
      await current?.catch(() => undefined);
      for (const job of active.values()) abort(job, 'shutdown');
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled([...active.values()].map((job) => job.done)),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, stopTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      if (flushTimer !== undefined) clearTimeout(flushTimer);
      flushTimer = undefined;
      // Handlers that did not stop in time stay `running`: the next start (SQLite) or another
      // process once the lease expires (PostgreSQL) recovers them. Their last progress is kept.
      await flush().catch(() => undefined);
      state = 'stopped';
      if (active.size > 0) logger.warn({ workerId, jobs: [...active.keys()] }, 'job runner stopped with handlers still running');
    },

    wake: () => (state === 'running' ? poll() : Promise.resolve()),
  };
}
