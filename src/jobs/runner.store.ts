import type { Kysely, Selectable } from 'kysely';
import { sql } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB, JobsTable } from '../db/schema.js';

/**
 * The runner's statements. Every write to a job that a runner holds is fenced by the claim it
 * holds (id, status `running`, its worker id, the claim number): a runner that lost the job
 * (its lease expired and another process took it over, the job was deleted, or it was given
 * back and claimed again) can no longer change it.
 */
export interface Fence {
  id: string;
  workerId: string;
  /** The job's `claims` after this claim: each claim is a new run. */
  claim: number;
  /** The job's attempt (interrupted runs + 1), told to the handler. */
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
    .where('claims', '=', fence.claim);

/**
 * Whether a run still holds its job, read in the caller's transaction. On PostgreSQL the row is
 * locked (FOR SHARE) until that transaction ends, so that no end, recovery or deletion of the
 * job commits between this check and the caller's writes; on SQLite the transaction holds the
 * only writer.
 */
export async function holdsJob(trx: Kysely<DB>, dialect: Dialect, fence: Fence): Promise<boolean> {
  const row = await trx
    .selectFrom('jobs')
    .select('id')
    .where('id', '=', fence.id)
    .where('status', '=', 'running')
    .where('locked_by', '=', fence.workerId)
    .where('claims', '=', fence.claim)
    .$if(dialect === 'postgres', (q) => q.forShare())
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims a queued job of the given kinds, sharing the slots fairly (docs/jobs.md, "Claiming"):
 * the oldest job of the team with the fewest running jobs, then of the target (agent) with the
 * fewest, counted over every process; a job given back until a time (`not_before`) waits for
 * it. A read comes first: polling an idle queue writes nothing (on SQLite a write, even one
 * that changes no row, is a commit that moves the read version and empties the read caches).
 * The claim is one statement: on PostgreSQL its subquery locks the row it picks and skips rows
 * other processes are claiming (SKIP LOCKED), and the outer `status = 'queued'` is checked again
 * on the locked row, so a job is claimed once whatever the interleaving; SQLite has one writer.
 */
export async function claimNext(
  db: Kysely<DB>,
  dialect: Dialect,
  options: { kinds: readonly string[]; exclude: readonly string[]; workerId: string; leaseUntil: number; at: number; nowMs: number },
): Promise<JobRow | undefined> {
  const queued = (q: Kysely<DB>) =>
    q
      .selectFrom('jobs as q')
      .select('q.id')
      .where('q.status', '=', 'queued')
      .where('q.kind', 'in', options.kinds)
      .where((eb) => eb.or([eb('q.not_before', 'is', null), eb('q.not_before', '<=', options.nowMs)]))
      .$if(options.exclude.length > 0, (w) => w.where('q.id', 'not in', options.exclude));
  if ((await queued(db).limit(1).executeTakeFirst()) === undefined) return undefined;
  const candidate = queued(db)
    .orderBy((eb) =>
      eb.selectFrom('jobs as r').select(eb.fn.countAll().as('n')).where('r.status', '=', 'running').whereRef('r.team_id', '=', 'q.team_id'),
    )
    .orderBy((eb) =>
      eb.selectFrom('jobs as r').select(eb.fn.countAll().as('n')).where('r.status', '=', 'running').whereRef('r.target_key', '=', 'q.target_key'),
    )
    .orderBy('q.created_at')
    .orderBy('q.id')
    .limit(1)
    .$if(dialect === 'postgres', (q) => q.forUpdate().skipLocked());
  return db
    .updateTable('jobs')
    .set((eb) => ({
      status: 'running',
      locked_by: options.workerId,
      lease_expires_at: options.leaseUntil,
      claims: eb('claims', '+', 1),
      not_before: null,
      started_at: sql<number>`coalesce(started_at, ${options.at})`,
      updated_at: options.at,
    }))
    .where('id', '=', candidate)
    .where('status', '=', 'queued')
    .returningAll()
    .executeTakeFirst();
}

/** Where the jobs a runner holds stand (a read: cancel requests, and whether they are still its own). */
export async function readHeld(db: Kysely<DB>, ids: readonly string[]) {
  if (ids.length === 0) return [];
  return db.selectFrom('jobs').select(['id', 'status', 'locked_by', 'claims', 'cancel_requested']).where('id', 'in', ids).execute();
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

export type InterruptedRow = Pick<JobRow, 'id' | 'kind' | 'payload' | 'attempt' | 'claims' | 'strikes' | 'max_attempts' | 'locked_by'>;

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
    .select(['id', 'kind', 'payload', 'attempt', 'claims', 'strikes', 'max_attempts', 'locked_by'])
    .where('status', '=', 'running')
    .where('kind', 'in', options.kinds)
    .where((eb) => eb.or([eb('locked_by', 'is', null), eb('locked_by', '<>', options.workerId)]))
    .$if(options.expiredBefore !== undefined, (q) => q.where('lease_expires_at', '<', options.expiredBefore as number))
    .orderBy('created_at')
    .orderBy('id')
    .limit(options.limit)
    .execute();
}

/**
 * Moves an interrupted job on (back to the queue, or failed), if it still stands as it was
 * found. The interrupted run counts as one more strike (runs in a row interrupted without
 * progress; a run that made progress had set them to 0).
 */
export async function markInterrupted(
  trx: Kysely<DB>,
  row: InterruptedRow,
  change: { status: 'queued' } | { status: 'failed'; error: string },
  options: { at: number; expiredBefore: number | undefined },
): Promise<boolean> {
  const set =
    change.status === 'queued'
      ? { status: 'queued', attempt: row.attempt + 1, strikes: row.strikes + 1, locked_by: null, lease_expires_at: null, updated_at: options.at }
      : { status: 'failed', error: change.error, lease_expires_at: null, finished_at: options.at, updated_at: options.at };
  const result = await trx
    .updateTable('jobs')
    .set(set)
    .where('id', '=', row.id)
    .where('status', '=', 'running')
    .where('claims', '=', row.claims)
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

/** Progress past the best the job ever reported is progress: the run's strikes go back to 0. */
const progressColumns = (progress: PendingProgress | undefined) =>
  progress === undefined
    ? {}
    : {
        progress_done: progress.done,
        progress_total: progress.total,
        progress_message: progress.message,
        strikes: sql<number>`case when ${progress.done} > progress_best then 0 else strikes end`,
        deferrals: sql<number>`case when ${progress.done} > progress_best then 0 else deferrals end`,
        progress_best: sql<number>`case when ${progress.done} > progress_best then ${progress.done} else progress_best end`,
      };

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
 * Ends a held job: `queued` gives it back (a graceful stop, or a job waiting on its agent until
 * `notBefore`; neither counts as an attempt), the others are final. Pending progress and lines
 * are written with it. Conditional on the fence: when two ends race (a completion and a
 * recovery, two processes), one changes the row and the other changes nothing.
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
    notBefore?: number | null | undefined;
  },
): Promise<boolean> {
  const result = await fenced(trx, fence)
    .set({
      ...progressColumns(end.progress),
      status: end.status,
      error: end.error,
      lease_expires_at: null,
      ...(end.status === 'queued' ? { locked_by: null, not_before: end.notBefore ?? null } : { finished_at: end.at }),
      // A deferral counts one more in a row, after the progress written with it (which may reset them).
      ...(end.notBefore == null
        ? {}
        : end.progress === undefined
          ? { deferrals: sql<number>`deferrals + 1` }
          : { deferrals: sql<number>`case when ${end.progress.done} > progress_best then 1 else deferrals + 1 end` }),
      updated_at: end.at,
    })
    .executeTakeFirst();
  if (result.numUpdatedRows === 0n) return false;
  await appendLines(trx, fence.id, end.lines, end.keep);
  return true;
}
