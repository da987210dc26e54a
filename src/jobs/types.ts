/**
 * Durable background jobs (docs/jobs.md): evaluations, red-team campaigns, custom-harness
 * generation. A job row is written in the same transaction as the feature's own record; a
 * runner in each Warden process claims queued jobs (on PostgreSQL with FOR UPDATE SKIP LOCKED,
 * so no job runs twice), runs its handler with a signal that aborts on cancel or shutdown,
 * and after a restart resumes or fails what was left running.
 */
import type { Kysely } from 'kysely';
import type { TSchema } from 'typebox';
import type { DB } from '../db/schema.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

/**
 * Why a handler's signal aborted:
 * - `cancelled`: someone cancelled the job; it ends `cancelled` whatever the handler does next;
 * - `shutdown`: this process is stopping; the job goes back to the queue (resumed later);
 * - `lost`: the job is no longer this process's (its lease expired and another process took it
 *   over, or its row was deleted); nothing the handler does next is recorded, and its fenced
 *   writes are refused;
 * - `deferred`: the handler asked to wait (`deferFor`); the job goes back to the queue until
 *   then, its slot free for other jobs.
 */
export type JobAbortReason = 'cancelled' | 'shutdown' | 'lost' | 'deferred';

export interface JobProgress {
  done: number;
  total: number;
  /** For a person, e.g. "120 of 400 prompts". */
  message?: string | undefined;
}

export interface JobContext<P = unknown> {
  id: string;
  kind: string;
  payload: P;
  /**
   * 1 on the first run; one more each time a run was interrupted (a crash, a restart that did
   * not stop it in time, a lost lease) and resumed. A graceful stop puts the job back in the
   * queue without counting an attempt. Whatever the attempt, skip work already stored.
   */
  attempt: number;
  /** Aborts with a JobAbortReason: cancelled, shutdown, or lost. */
  signal: AbortSignal;
  /** Records progress (cheap: kept in memory and written at most once per flush interval). */
  progress(progress: JobProgress): Promise<void>;
  /** Appends a line to the job's log (the feature's `/logs` endpoint), written like progress. Never pass secrets. */
  log(message: string, level?: 'info' | 'warn' | 'error'): Promise<void>;
  /**
   * Runs `write` in one transaction that first checks that this run still holds the job (it is
   * `running`, claimed by this runner, in this claim) and, on PostgreSQL, locks the job's row
   * until the commit, so that no end, recovery or deletion of the job commits in between.
   * Answers false without running `write` when the run no longer holds the job, else what
   * `write` answers. Every write of a run to its feature's records (results, progress, the
   * completion) goes through it: a run taken over, deleted or ended writes nothing more.
   * A cancel is not part of the check: the feature's own status says that.
   */
  fenced(write: (trx: Kysely<DB>) => Promise<boolean>): Promise<boolean>;
  /**
   * Gives the slot back for `delayMs` (from now, on the runner's clock): the signal aborts
   * with `deferred`; once the handler returns, the job is queued again, not claimed before then,
   * its attempt and budget unchanged, and the handler runs again then (skipping what it
   * stored). For an agent that asks to wait (Retry-After) longer than a few seconds. Answers
   * true when the run stops (also when it was stopping already), false (nothing happens) when
   * the job was deferred MAX_DEFERRALS times in a row without progress: the handler then
   * treats the wait as a failure of that call.
   */
  deferFor(delayMs: number, reason: string): boolean;
}

export interface JobHandler<P = unknown> {
  kind: string;
  /**
   * After a restart found the job `running` with no live worker: `resume` runs `run` again
   * (the handler skips work it already stored), `fail` marks it failed with a reason.
   */
  onInterrupted: 'resume' | 'fail';
  /** The payload's schema (TypeBox): a stored payload of another shape fails the job with a clear message, never reaches `run`. */
  payload?: TSchema | undefined;
  /** Does the work. Resolving completes the job; throwing fails it with the error's message. */
  run(context: JobContext<P>): Promise<void>;
  /**
   * Called once the job has ended as failed or cancelled (not completed), to update the
   * feature's record. `db` is the transaction that records the job's end: write through it
   * (the end and the feature's update commit together) and make no network call in it. When
   * it throws, the job's end is recorded without it (and the error logged).
   */
  onEnded?(job: { id: string; payload: P; status: 'failed' | 'cancelled'; reason: string }, db: Kysely<DB>): Promise<void>;
}

export interface EnqueueOptions<P> {
  kind: string;
  payload: P;
  /** The team the job works for (shown in listings, used for isolation). */
  teamId: string;
  /** The feature record's id (evaluation, campaign, harness), for lookups by record. */
  subjectId: string;
  /** Runs a restart may interrupt in a row, without progress, before the job fails (default 3). */
  maxAttempts?: number | undefined;
  /** What the job calls (an agent id; a campaign's URL): slots are shared fairly between targets. */
  targetKey?: string | null | undefined;
  /** Epoch seconds of the creation (the feature's injected clock); the wall clock by default. */
  now?: number | undefined;
}

/** A job as the features see it (not the row: see toJob). */
export interface Job<P = unknown> {
  id: string;
  kind: string;
  teamId: string;
  subjectId: string;
  payload: P;
  status: JobStatus;
  attempt: number;
  maxAttempts: number;
  progress: { done: number; total: number; message: string | null };
  /** Why it failed (the handler's error message, or the interruption); null otherwise. */
  error: string | null;
  cancelRequested: boolean;
  /** The worker running it (or that last ran it). */
  lockedBy: string | null;
  /** Epoch milliseconds. */
  leaseExpiresAt: number | null;
  /** Epoch seconds. */
  createdAt: number;
  startedAt: number | null;
  finishedAt: number | null;
  updatedAt: number;
}

export interface JobLogLine {
  seq: number;
  /** Epoch milliseconds. */
  at: number;
  level: 'info' | 'warn' | 'error';
  message: string;
}

/** What the runner writes to the service log (pino and Fastify's logger fit). Never payloads or secrets. */
export interface JobLogger {
  info(fields: object, message: string): void;
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}
