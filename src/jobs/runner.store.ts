import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB, JobsTable } from '../db/schema.js';

/**
 * The runner's statements. Every write to a job that a runner holds is fenced by the claim it
 * holds (id, status `running`, its worker id, the attempt): a runner that lost the job (its
 * lease expired and another process took it over) can no longer change it.
 */
export interface Fence {
  id: string;
  workerId: string;
  attempt: number;
}

export interface PendingLine {
  seq: number;
  at: number;
  level: 'info' | 'warn' | 'error';
  message: string;
}

export interface PendingProgress {
  done: number;
  total: number;
  message: string | null;
}

type JobRow = Selectable<JobsTable>;

const fenced = (db: Kysely<DB>, fence: Fence) =>
  db
    .updateTable('jobs')
    .where('id', '=', fence.id)
    .where('status', '=', 'running')
    .where('locked_by', '=', fence.workerId)
    .where('attempt', '=', fence.attempt);

/**
 * Claims the oldest queued job of the given kinds. A read comes first: polling an idle queue
 * writes nothing (on SQLite a write, even one that changes no row, is a commit that moves the
 * read version and empties the read caches). The claim is one statement: on PostgreSQL its
 * subquery locks the row it picks and skips rows other processes are claiming (SKIP LOCKED),
 * and the outer `status = 'queued'` is checked again on the locked row, so a job is claimed
 * once whatever the interleaving; SQLite has one writer.
 */
export async function claimNext(
  db: Kysely<DB>,
  dialect: Dialect,
  options: { kinds: readonly string[]; exclude: readonly string[]; workerId: string; leaseUntil: number; at: number },
): Promise<JobRow | undefined> {
  const candidates = (q: Kysely<DB>) =>
    q
      .selectFrom('jobs')
      .select('id')
      .where('status', '=', 'queued')
      .where('kind', 'in', options.kinds)
      .$if(options.exclude.length > 0, (w) => w.where('id', 'not in', options.exclude))
      .orderBy('created_at')
      .orderBy('id')
      .limit(1);
  if ((await candidates(db).executeTakeFirst()) === undefined) return undefined;
  return db
    .updateTable('jobs')
    .set({
      status: 'running',
      locked_by: options.workerId,
      lease_expires_at: options.leaseUntil,
      started_at: sql<number>`coalesce(started_at, ${options.at})`,
      updated_at: options.at,
    })
    .where('id', '=', candidates(db).$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked()))
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Where the jobs a runner holds stand (a read: cancel requests, and whether they are still its own). */
export async function readHeld(db: Kysely<DB>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('jobs').select(['id', 'status', 'locked_by', 'attempt', 'cancel_requested']).where('id', 'in', ids).execute();
}

/** Extends the leases of the jobs a runner holds (one statement for all of them). */
export async function renewLeases(db: Kysely<DB>, workerId: string, ids: readonly string[], leaseUntil: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('jobs')
    .set({ lease_expires_at: leaseUntil })
    .where('id', 'in', ids)
    .where('status', '=', 'running')
    .where('locked_by', '=', workerId)
    .execute();
}

export type InterruptedRow = Pick<JobRow, 'id' | 'kind' | 'payload' | 'attempt' | 'max_attempts' | 'locked_by'>;

/**
 * Running jobs of these kinds that no live worker holds: held by another worker and, when
 * `expiredBefore` is given, with a lease that expired before it (without it: every one, as on
 * the start of the single process of a SQLite file).
 */
export async function findInterrupted(
  db: Kysely<DB>,
  options: { kinds: readonly string[]; workerId: string; expiredBefore: number | undefined; limit: number },
): Promise<InterruptedRow[]> {
  return db
    .selectFrom('jobs')
    .select(['id', 'kind', 'payload', 'attempt', 'max_attempts', 'locked_by'])
    .where('status', '=', 'running')
    .where('kind', 'in', options.kinds)
    .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_by', '<>', options.workerId)]))
    .$if(options.expiredBefore !== undefined, (q) => q.where('lease_expires_at', '<', options.expiredBefore as number))
    .orderBy('created_at')
    .orderBy('id')
    .limit(options.limit)
    .execute();
}

/** Moves an interrupted job on (back to the queue, or failed), if it still stands as it was found. */
export async function markInterrupted(
  trx: Kysely<DB>,
  row: InterruptedRow,
  change: { status: 'queued' } | { status: 'failed'; error: string },
  options: { at: number; expiredBefore: number | undefined },
): Promise<boolean> {
  const set =
    change.status === 'queued'
      ? { status: 'queued', attempt: row.attempt + 1, locked_by: null, lease_expires_at: null, updated_at: options.at }
      : { status: 'failed', error: change.error, lease_expires_at: null, finished_at: options.at, updated_at: options.at };
  const result = await trx
    .updateTable('jobs')
    .set(set)
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .where('attempt', '=', row.attempt)
    .where('locked_by', row.locked_by === null ? 'is' : '=', row.locked_by)
    .$if(options.expiredBefore !== undefined, (q) => q.where('lease_expires_at', '<', options.expiredBefore as number))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** The next sequence number of a job's log. */
export async function nextLogSeq(db: Kysely<DB>, jobId: string): Promise<number> {
  const row = await db.selectFrom('job_logs').select((eb) => eb.fn.max('seq').as('last')).where('job_id', '=', jobId).executeTakeFirst();
  return Number(row?.last ?? 0) + 1;
}

/** Appends lines and keeps only the last `keep` lines of the job. */
export async function appendLines(trx: Kysely<DB>, jobId: string, lines: readonly PendingLine[], keep: number): Promise<void> {
  if (lines.length === 0) return;
  await trx
    .insertInto('job_logs')
    .values(lines.map((line) => ({ job_id: jobId, seq: line.seq, at: line.at, level: line.level, message: line.message })))
    .execute();
  const last = (lines[lines.length - 1] as PendingLine).seq;
  if (last > keep) await trx.deleteFrom('job_logs').where('job_id', '=', jobId).where('seq', '<=', last - keep).execute();
}

const progressColumns = (progress: PendingProgress | undefined) =>
  progress === undefined ? {} : { progress_done: progress.done, progress_total: progress.total, progress_message: progress.message };

/** Writes a held job's pending progress and log lines; false when the job is no longer held. */
export async function writePending(
  trx: Kysely<DB>,
  fence: Fence,
  pending: { progress: PendingProgress | undefined; lines: readonly PendingLine[]; keep: number; at: number },
): Promise<boolean> {
  const result = await fenced(trx, fence)
    .set({ ...progressColumns(pending.progress), updated_at: pending.at })
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await appendLines(trx, fence.id, pending.lines, pending.keep);
  return true;
}

/**
 * Ends a held job: `queued` gives it back (a graceful stop; the attempt is not counted), the
 * others are final. Pending progress and lines are written with it.
 */
export async function endHeld(
  trx: Kysely<DB>,
  fence: Fence,
  end: {
    status: 'queued' | 'completed' | 'failed' | 'cancelled';
    error: string | null;
    progress: PendingProgress | undefined;
    lines: readonly PendingLine[];
    keep: number;
    at: number;
  },
): Promise<boolean> {
  const result = await fenced(trx, fence)
    .set({
      ...progressColumns(end.progress),
      status: end.status,
      error: end.error,
      lease_expires_at: null,
      ...(end.status === 'queued' ? { locked_by: null } : { finished_at: end.at }),
      updated_at: end.at,
    })
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await appendLines(trx, fence.id, end.lines, end.keep);
  return true;
}
