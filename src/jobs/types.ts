/**
 * Durable background jobs (docs/jobs.md): evaluations, red-team campaigns, custom-harness
 * generation. A job row is written in the same transaction as the feature's own record; a
 * runner in each Warden process claims queued jobs (on PostgreSQL with FOR UPDATE SKIP LOCKED,
 * so no job runs twice), runs its handler with a signal that aborts on cancel or shutdown,
 * and after a restart resumes or fails what was left running.
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';

export type JobStatus = 'queued' | 'running' | 'completed' | 'failed' | 'cancelled';

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
  /** 1 on the first run; more after a restart resumed it. */
  attempt: number;
  /** Aborts when the job is cancelled (reason: 'cancelled') or the process shuts down (reason: 'shutdown'). */
  signal: AbortSignal;
  /** Records progress (cheap: writes are coalesced). */
  progress(progress: JobProgress): Promise<void>;
  /** Appends a line to the job's log (the feature's `/logs` endpoint). Never pass secrets. */
  log(message: string, level?: 'info' | 'warn' | 'error'): Promise<void>;
}

export interface JobHandler<P = unknown> {
  kind: string;
  /**
   * After a restart found the job `running` with no live worker: `resume` runs `run` again
   * (the handler skips work it already stored), `fail` marks it failed with a reason.
   */
  onInterrupted: 'resume' | 'fail';
  /** Does the work. Resolving completes the job; throwing fails it with the error's message. */
  run(context: JobContext<P>): Promise<void>;
  /** Called once the job has ended as failed or cancelled (not completed), to update the feature's record. */
  onEnded?(job: { id: string; payload: P; status: 'failed' | 'cancelled'; reason: string }, db: Kysely<DB>): Promise<void>;
}

export interface EnqueueOptions<P> {
  kind: string;
  payload: P;
  /** The team the job works for (shown in listings, used for isolation). */
  teamId: string;
  /** The feature record's id (evaluation, campaign, harness), for lookups by record. */
  subjectId: string;
}
