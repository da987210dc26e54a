import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import type { Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { abortJob, addLine, endLine, finalOf, jobContext, newActiveJob, type ActiveJob } from './active-job.js';
import { endInTransaction } from './ending.js';
import { listenLocally } from './local-signals.js';
import { recoverInterrupted, type RecoveryScope } from './recovery.js';
import { claimNext, endHeld, holdsJob, nextLogSeq, readHeld, renewLeases, writePending, type Fence, type PendingLine } from './runner.store.js';
import { failureDetail } from './text.js';
import type { JobAbortReason, JobHandler, JobLogger } from './types.js';
import { Value } from 'typebox/value';

export interface JobRunnerOptions {
  db: Kysely<DB>;
  dialect: Dialect;
  /** One per kind; each has its own payload type. */
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

/** After a local enqueue, extra polls: the enqueuing transaction may commit after the first one looked. */
const WAKE_FOLLOW_UPS_MS = [20, 100, 500];
/** After a local deletion of a held job: polls this often, this long, until the deletion has committed. */
const WATCH_MS = 10;
const WATCH_FOR_MS = 5000;
const noLogger: JobLogger = { info() {}, warn() {}, error() {} };
/** Pacing (polls, renewals, flushes) follows the monotonic clock; leases and records follow `nowMs`. */
const elapsed = () => performance.now();

export function createJobRunner(options: JobRunnerOptions): JobRunner {
  const { db, dialect } = options;
  const concurrency = Math.max(1, Math.floor(options.concurrency ?? JOB_DEFAULTS.concurrency));
  const pollMs = Math.max(1, options.pollMs ?? JOB_DEFAULTS.pollMs);
  const leaseMs = Math.max(3, options.leaseMs ?? JOB_DEFAULTS.leaseMs);
  const flushMs = Math.max(0, options.flushMs ?? JOB_DEFAULTS.flushMs);
  const stopTimeoutMs = Math.max(0, options.stopTimeoutMs ?? JOB_DEFAULTS.stopTimeoutMs);
  const keep = Math.min(Math.max(1, Math.floor(options.maxLogLines ?? JOB_DEFAULTS.maxLogLines)), 5000);
  const workerId = options.workerId ?? `${hostname()}/${process.pid}/${randomUUID().slice(0, 8)}`;
  const nowMs = options.nowMs ?? Date.now;
  const nowSec = () => Math.floor(nowMs() / 1000);
  const logger = options.logger ?? noLogger;
  const handlers = new Map(options.handlers.map((h) => [h.kind, h]));
  const kinds = [...handlers.keys()];
  const recovery: RecoveryScope = { db, handlers, workerId, keep, nowMs, logger };

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
    if ([...active.values()].some((job) => !job.settled && job.watchUntil > elapsed())) delay = Math.min(delay, WATCH_MS);
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
    const steps: Array<[string, () => Promise<unknown>]> = [
      ['retrying the end of a job', retryFinals],
      ['checking running jobs', checkHeld],
      ['renewing leases', renewIfDue],
      ['recovering interrupted jobs', () => recoverInterrupted(recovery, nowMs())],
      ['claiming jobs', claim],
    ];
    for (const [what, step] of steps) {
      if (state !== 'running') return;
      try {
        await step();
      } catch (error) {
        logger.error({ workerId, error: failureDetail(error) }, `job runner: ${what} failed`);
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
        nowMs: at,
      });
      if (row === undefined) return;
      if (active.size === 0) nextRenewalAt = elapsed() + leaseMs / 3;
      const fence = { id: row.id, workerId, claim: row.claims, attempt: row.attempt };
      await launch(fence, row.kind, row.payload, row.cancel_requested === 1, { deferrals: row.deferrals, best: row.progress_best });
    }
  }

  /** Cancel requests, and jobs taken away (lease expired and recovered elsewhere, row deleted). */
  async function checkHeld(): Promise<void> {
    const held = [...active.values()].filter((job) => !job.settled);
    if (held.length === 0) return;
    const rows = new Map((await readHeld(db, held.map((job) => job.fence.id))).map((row) => [row.id, row]));
    for (const job of held) {
      const row = rows.get(job.fence.id);
      const stillOurs = row !== undefined && row.status === 'running' && row.locked_by === workerId && row.claims === job.fence.claim;
      if (!stillOurs) abortJob(job, 'lost');
      else if (row.cancel_requested === 1) abortJob(job, 'cancelled');
    }
  }

  async function renewIfDue(): Promise<void> {
    if (active.size === 0 || elapsed() < nextRenewalAt) return;
    nextRenewalAt = elapsed() + leaseMs / 3;
    await renewLeases(db, workerId, [...active.keys()], nowMs() + leaseMs);
  }

  async function retryFinals(): Promise<void> {
    for (const job of active.values()) if (job.final !== undefined) await writeFinal(job);
  }

  // ------------------------------------------------------------------ running a job

  async function launch(fence: Fence, kind: string, payloadText: string, cancelRequested: boolean, budget: { deferrals: number; best: number }): Promise<void> {
    const { id, attempt } = fence;
    const job = newActiveJob(fence, handlers.get(kind) as JobHandler<any>, payloadText, budget);
    active.set(id, job);
    try {
      job.nextSeq = await nextLogSeq(db, id);
    } catch (error) {
      // Lines numbered from a guess could clash with stored ones and fail every flush: the job
      // is given back to the queue instead (retried at each poll, like any end not yet written).
      logger.warn({ jobId: id, error: failureDetail(error) }, 'job runner: could not read the log position; giving the job back');
      job.settled = true;
      job.final = { status: 'queued', error: null, reason: 'shutdown' };
      await writeFinal(job);
      return;
    }
    addLine(job, 'info', `attempt ${attempt} started`, nowMs(), keep);
    logger.info({ jobId: id, kind, attempt }, 'job started');
    // Given back by a shutdown or recovered with a cancel request not yet seen: it ends at once.
    if (cancelRequested) abortJob(job, 'cancelled');
    if (state !== 'running') abortJob(job, 'shutdown');
    job.done = run(job);
  }

  async function run(job: ActiveJob): Promise<void> {
    const { signal } = job.controller;
    let failure: { error: unknown } | undefined;
    await null; // the handler does not run inside the poll that claimed it
    try {
      try {
        job.payload = JSON.parse(job.payloadText);
      } catch {
        throw new Error('the job payload is not valid JSON');
      }
      const schema = job.handler.payload;
      if (schema !== undefined && !Value.Check(schema, job.payload)) throw new Error(`the job payload is not what a ${job.kind} job takes`);
      const fenced = (write: (trx: Kysely<DB>) => Promise<boolean>) =>
        db.transaction().execute(async (trx) => (await holdsJob(trx, dialect, job.fence)) && (await write(trx)));
      if (!signal.aborted) await job.handler.run(jobContext(job, { nowMs, keep, changed: scheduleFlush, fenced }));
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
      job.final = finalOf(reason, failure, job.deferral);
      if (job.final.status === 'failed' && failure !== undefined) {
        logger.error({ jobId: job.fence.id, kind: job.kind, error: failureDetail(failure.error) }, 'job failed');
      }
      addLine(job, job.final.status === 'failed' ? 'error' : 'info', endLine(job.final), nowMs(), keep);
      await writeFinal(job);
    }
    if (state === 'running') void poll();
  }

  /** Writes the end of a settled job with its pending progress and lines (and onEnded, in the same transaction). */
  async function writeFinal(job: ActiveJob): Promise<void> {
    const final = job.final;
    if (final === undefined || state === 'stopped') return;
    await flushing; // a flush in progress may be writing some of the same lines
    const { handler, payload, fence } = job;
    const { status } = final;
    const onEnded = handler.onEnded?.bind(handler);
    try {
      const changed = await endInTransaction(
        db,
        logger,
        fence.id,
        (trx) =>
          endHeld(trx, fence, { status, error: final.error, progress: job.progress, lines: job.lines, keep, at: nowSec(), notBefore: final.notBefore }),
        (status === 'failed' || status === 'cancelled') && onEnded !== undefined
          ? (trx) => onEnded({ id: fence.id, payload, status, reason: final.reason }, trx)
          : undefined,
      );
      active.delete(fence.id);
      job.final = undefined;
      if (!changed) logger.warn({ jobId: fence.id, kind: job.kind }, 'job taken over elsewhere before it ended here; its end is dropped');
      else logger.info({ jobId: fence.id, kind: job.kind, status, ...(final.error ? { reason: final.error } : {}) }, 'job ended');
    } catch (error) {
      // Kept in `active` (its lease renewed) and tried again at the next poll.
      logger.error({ jobId: fence.id, error: failureDetail(error) }, 'job runner: could not record the end of a job');
    }
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

  /** Writes every held job's pending progress and lines, in one transaction. */
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
        for (const { job, progress, lines } of dirty) if (!(await writePending(trx, job.fence, { progress, lines, keep, at }))) gone.push(job);
        return gone;
      });
    } catch (error) {
      logger.warn({ workerId, error: failureDetail(error) }, 'job runner: could not write progress; trying again');
      scheduleFlush();
      return;
    }
    for (const { job, progress, lines } of dirty) {
      const written = lines.length === 0 ? 0 : (lines[lines.length - 1] as PendingLine).seq;
      job.lines = job.lines.filter((line) => line.seq > written);
      if (job.progress === progress) job.progress = undefined;
    }
    for (const job of lost) abortJob(job, 'lost');
  }

  // ------------------------------------------------------------------ lifecycle

  async function stop(): Promise<void> {
    if (state === 'new' || state === 'stopped') {
      state = 'stopped';
      return;
    }
    if (state === 'stopping') return;
    state = 'stopping';
    unlisten?.();
    if (pollTimer !== undefined) clearTimeout(pollTimer);
    await current?.catch(() => undefined);
    for (const job of active.values()) abortJob(job, 'shutdown');
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
  }

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
        // The deleting transaction may commit after this: its held jobs are looked at every few
        // milliseconds until their rows are gone (then aborted, reason lost) or for a few seconds.
        deleted: (jobIds) => {
          const held = jobIds.map((jobId) => active.get(jobId)).filter((job) => job !== undefined);
          if (held.length === 0) return;
          for (const job of held) job.watchUntil = elapsed() + WATCH_FOR_MS;
          void poll();
        },
        // Committed: nothing to look at, the rows are gone.
        gone: (jobIds) => {
          for (const jobId of jobIds) {
            const job = active.get(jobId);
            if (job !== undefined) abortJob(job, 'lost');
          }
        },
      });
      // One process per SQLite file (docs/deployment.md): what is running now was left by the previous one.
      if (dialect === 'sqlite') {
        try {
          await recoverInterrupted(recovery, undefined);
        } catch (error) {
          // Not fatal: their leases expire unrenewed, and a later poll recovers them then.
          logger.error({ workerId, error: failureDetail(error) }, 'job runner: recovering interrupted jobs failed');
        }
      }
      await poll();
    },

    stop,

    wake: () => (state === 'running' ? poll() : Promise.resolve()),
  };
}
