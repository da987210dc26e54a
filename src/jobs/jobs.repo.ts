import type { Kysely, Selectable } from 'kysely';
import type { DB, JobsTable } from '../db/schema.js';
import { newId, nowSeconds } from '../ids.js';
import { announceCancel, announceDeleted, announceEnqueued, announceGone } from './local-signals.js';
import type { EnqueueOptions, Job, JobLogLine, JobStatus } from './types.js';
import { tableCaching } from '../db/table-caching.js';

/** The job tables (docs/caching.md): written in the background while jobs run; no principal is read from them. */
export const JOB_TABLES = tableCaching({ jobs: 'data', job_logs: 'data' });

/** The public side of the job engine: what features call, each with their own handle or transaction. */

export const DEFAULT_MAX_ATTEMPTS = 3;
export const MAX_KIND_LENGTH = 64;

/** A job as the features see it; its payload as stored (the runner checks it against its handler's schema before a run). */
export function toJob(row: Selectable<JobsTable>): Job {
  return {
    id: row.id,
    kind: row.kind,
    teamId: row.team_id,
    subjectId: row.subject_id,
    payload: JSON.parse(row.payload) as unknown,
    status: row.status as JobStatus,
    attempt: row.attempt,
    maxAttempts: row.max_attempts,
    progress: { done: row.progress_done, total: row.progress_total, message: row.progress_message },
    error: row.error,
    cancelRequested: row.cancel_requested === 1,
    lockedBy: row.locked_by,
    leaseExpiresAt: row.lease_expires_at,
    createdAt: row.created_at,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    updatedAt: row.updated_at,
  };
}

/**
 * Queues a job in the caller's transaction, so that it exists exactly when the feature's record
 * does (a rollback leaves neither). Runners of this process are woken; see local-signals.ts.
 */
export async function enqueueJob<P>(trx: Kysely<DB>, options: EnqueueOptions<P>): Promise<string> {
  if (options.kind.length === 0 || options.kind.length > MAX_KIND_LENGTH) throw new RangeError(`a job kind has 1 to ${MAX_KIND_LENGTH} characters`);
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  if (!Number.isInteger(maxAttempts) || maxAttempts < 1) throw new RangeError('maxAttempts is a positive integer');
  const payload = JSON.stringify(options.payload);
  if (payload === undefined) throw new TypeError('a job payload must be JSON');
  const id = newId();
  const at = options.now ?? nowSeconds();
  await trx
    .insertInto('jobs')
    .values({
      id,
      kind: options.kind,
      team_id: options.teamId,
      subject_id: options.subjectId,
      payload,
      status: 'queued',
      attempt: 1,
      max_attempts: maxAttempts,
      progress_done: 0,
      progress_total: 0,
      progress_message: null,
      error: null,
      cancel_requested: 0,
      locked_by: null,
      lease_expires_at: null,
      created_at: at,
      started_at: null,
      finished_at: null,
      updated_at: at,
      not_before: null,
      target_key: options.targetKey ?? null,
    })
    .execute();
  announceEnqueued();
  return id;
}

/**
 * Asks for a job to stop, and answers its status after the request (undefined: no such job):
 * - `cancelled`: it was still queued and is cancelled now. No handler runs and `onEnded` is
 *   not called: the caller updates its record itself (in the same transaction);
 * - `running`: the runner holding it aborts its handler (at once in this process, within a poll
 *   interval in another) and ends it `cancelled`, calling `onEnded`;
 * - anything else: it had ended already; nothing changes.
 */
export async function cancelJob(db: Kysely<DB>, id: string, options: { now?: number } = {}): Promise<JobStatus | undefined> {
  const at = options.now ?? nowSeconds();
  const queued = await db
    .updateTable('jobs')
    .set({ status: 'cancelled', cancel_requested: 1, finished_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'queued')
    .executeTakeFirst();
  if (queued.numUpdatedRows > 0n) return 'cancelled';
  // Claimed between the two statements: then it is running, and this one finds it.
  const running = await db
    .updateTable('jobs')
    .set({ cancel_requested: 1, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (running.numUpdatedRows > 0n) {
    announceCancel(id);
    return 'running';
  }
  const row = await db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status as JobStatus | undefined;
}

export async function getJob(db: Kysely<DB>, id: string): Promise<Job | undefined> {
  const row = await db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toJob(row);
}

/** The jobs of a feature record, newest first (a record re-run after a failure has several). */
export async function findJobsBySubject(db: Kysely<DB>, subjectId: string): Promise<Job[]> {
  const rows = await db
    .selectFrom('jobs')
    .selectAll()
    .where('subject_id', '=', subjectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => toJob(row));
}

/**
 * Deletes a record's jobs and their logs (when the feature deletes the record). A job still
 * running loses its row: its runner aborts the handler with reason `lost` (in this process as
 * soon as the caller's transaction may have committed, at once with deleteWithJobs; within a
 * poll interval in another) and records nothing, and its fenced writes are refused from the
 * commit on. Only the jobs of that kind and team: a subject id may be chosen by a client (an
 * evaluation's `evaluation_id`, a custom harness's `id`), so another team's record may carry the
 * same one. Answers the ids of the jobs deleted.
 */
export async function deleteJobsBySubject(db: Kysely<DB>, subjectId: string, scope: { kind: string; teamId: string }): Promise<string[]> {
  const rows = await db
    .deleteFrom('jobs')
    .where('subject_id', '=', subjectId)
    .where('kind', '=', scope.kind)
    .where('team_id', '=', scope.teamId)
    .returning('id')
    .execute();
  const ids = rows.map((row) => row.id);
  if (ids.length > 0) announceDeleted(ids);
  return ids;
}

/**
 * Deletes a record (`deleteRecord`, in the same transaction) with its jobs, and once that has
 * committed stops this process's runs of them before answering (docs/jobs.md, "Fencing"): a
 * caller told the record is deleted sees no call of its run start afterwards. Without it, the
 * runner would find the deletion at its next look at the table, a few milliseconds later, during
 * which a run may still start calls to its agent.
 */
export async function deleteWithJobs(
  db: Kysely<DB>,
  subjectId: string,
  scope: { kind: string; teamId: string },
  deleteRecord: (trx: Kysely<DB>) => Promise<unknown>,
): Promise<void> {
  const ids = await db.transaction().execute(async (trx) => {
    const deleted = await deleteJobsBySubject(trx, subjectId, scope);
    await deleteRecord(trx);
    return deleted;
  });
  if (ids.length > 0) announceGone(ids);
}

export const DEFAULT_LOG_LIMIT = 200;
export const MAX_LOG_LIMIT = 5000;

/** The last `limit` lines of a job's log, oldest first. */
export async function listJobLogs(db: Kysely<DB>, id: string, options: { limit?: number } = {}): Promise<JobLogLine[]> {
  const limit = Math.min(Math.max(Math.floor(options.limit ?? DEFAULT_LOG_LIMIT), 1), MAX_LOG_LIMIT);
  const rows = await db
    .selectFrom('job_logs')
    .select(['seq', 'at', 'level', 'message'])
    .where('job_id', '=', id)
    .orderBy('seq', 'desc')
    .limit(limit)
    .execute();
  return rows.reverse().map((row) => ({ seq: row.seq, at: row.at, level: row.level as JobLogLine['level'], message: row.message }));
}
