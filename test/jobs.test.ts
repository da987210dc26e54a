import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { newId } from '../src/ids.js';
import { cancelJob, deleteJobsBySubject, deleteWithJobs, enqueueJob, findJobsBySubject, getJob, listJobLogs } from '../src/jobs/jobs.repo.js';
import { INTERRUPTED } from '../src/jobs/recovery.js';
import type { JobContext, JobHandler } from '../src/jobs/types.js';
import { openTestDatabase } from './helpers/app.js';
import { aborted, gate, insertTeam, runnerPool, uniqueKind, waitFor } from './helpers/jobs.js';

let database: Database;
let teamId: string;
const runners = runnerPool();

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  teamId = await insertTeam(database.db);
});
afterEach(async () => runners.stopAll());
afterAll(async () => database.close());

const db = () => database.db;
const runner = (handlers: JobHandler<any>[], options: { concurrency?: number; nowMs?: () => number; maxLogLines?: number } = {}) =>
  runners.create({ db: db(), dialect: database.dialect, handlers, ...options });
const enqueue = (kind: string, payload: unknown = {}, extra: { maxAttempts?: number; now?: number; subjectId?: string } = {}) =>
  enqueueJob(db(), { kind, payload, teamId, subjectId: extra.subjectId ?? newId(), maxAttempts: extra.maxAttempts, now: extra.now });
const statusOf = async (id: string) => (await getJob(db(), id))?.status;
const ended = (id: string) => waitFor(async () => ['completed', 'failed', 'cancelled'].includes((await statusOf(id)) ?? ''), `job ${id} to end`);

/**
 * A job of a new kind for a new subject, running on a runner that never polls (only local signals
 * reach it) and holding its slot until its signal aborts; answers once its handler runs.
 */
async function startHeldRun(name: string) {
  const kind = uniqueKind(name);
  const subjectId = newId();
  const started = gate();
  let held: JobContext | undefined;
  const id = await enqueue(kind, {}, { subjectId });
  await runners
    .create({
      db: db(),
      dialect: database.dialect,
      pollMs: 600_000,
      leaseMs: 1_800_000,
      handlers: [
        {
          kind,
          onInterrupted: 'resume',
          async run(c) {
            held = c;
            started.open();
            await aborted(c.signal);
          },
        },
      ],
    })
    .start();
  await started.promise;
  return { kind, subjectId, id, context: held! };
}

describe('enqueueing', () => {
  it('writes the job in the caller transaction: a rollback leaves no job', async () => {
    const subjectId = newId();
    await expect(
      db()
        .transaction()
        .execute(async (trx) => {
          await enqueueJob(trx, { kind: 'rolled-back', payload: { n: 1 }, teamId, subjectId });
          throw new Error('the feature failed');
        }),
    ).rejects.toThrow('the feature failed');
    expect(await findJobsBySubject(db(), subjectId)).toEqual([]);

    const id = await db()
      .transaction()
      .execute((trx) => enqueueJob(trx, { kind: 'committed', payload: { n: 2, text: 'é' }, teamId, subjectId, now: 1_800_000_123 }));
    const [job] = await findJobsBySubject(db(), subjectId);
    expect(job).toMatchObject({ id, kind: 'committed', teamId, subjectId, payload: { n: 2, text: 'é' }, status: 'queued', attempt: 1, maxAttempts: 3 });
    expect(job).toMatchObject({ createdAt: 1_800_000_123, startedAt: null, finishedAt: null, cancelRequested: false, lockedBy: null });
  });
});

describe('running jobs', () => {
  it('claims the oldest job first, then in enqueue order', async () => {
    const kind = uniqueKind('order');
    const seen: number[] = [];
    const ids = [];
    for (const [n, now] of [
      [1, 1_800_000_300],
      [2, 1_800_000_100],
      [3, 1_800_000_200],
      [4, 1_800_000_100],
    ] as const) {
      ids.push(await enqueue(kind, { n }, { now }));
    }
    await runner([{ kind, onInterrupted: 'resume', run: async ({ payload }) => void seen.push((payload as { n: number }).n) }], { concurrency: 1 }).start();
    for (const id of ids) await ended(id);
    expect(seen).toEqual([2, 4, 3, 1]);
    for (const id of ids) expect(await getJob(db(), id)).toMatchObject({ status: 'completed', error: null, finishedAt: expect.any(Number) });
  });

  it('runs at most `concurrency` jobs at once', async () => {
    const kind = uniqueKind('limit');
    const release = gate();
    let inHandler = 0;
    let most = 0;
    const ids = await Promise.all(Array.from({ length: 5 }, () => enqueue(kind)));
    const r = runner(
      [
        {
          kind,
          onInterrupted: 'resume',
          run: async () => {
            inHandler++;
            most = Math.max(most, inHandler);
            await release.promise;
            inHandler--;
          },
        },
      ],
      { concurrency: 2 },
    );
    await r.start();
    await waitFor(() => inHandler === 2, 'two running handlers');
    await r.wake();
    await r.wake();
    const statuses = await Promise.all(ids.map(statusOf));
    expect(statuses.filter((s) => s === 'running')).toHaveLength(2);
    expect(statuses.filter((s) => s === 'queued')).toHaveLength(3);
    release.open();
    for (const id of ids) await ended(id);
    expect(most).toBe(2);
  });

  it('stores progress while the job runs, the final progress, and the last lines of its log', async () => {
    const kind = uniqueKind('progress');
    const hold = gate();
    const id = await enqueue(kind);
    await runner(
      [
        {
          kind,
          onInterrupted: 'resume',
          async run({ progress, log }) {
            for (let i = 1; i <= 3; i++) await progress({ done: i, total: 10, message: `${i} of 10 prompts` });
            for (let i = 1; i <= 12; i++) await log(`line ${i}`, i === 12 ? 'warn' : 'info');
            await hold.promise;
            await progress({ done: 10, total: 10, message: 'all prompts sent' });
          },
        },
      ],
      { maxLogLines: 5 },
    ).start();
    await waitFor(async () => (await getJob(db(), id))?.progress.done === 3, 'progress while running');
    expect((await getJob(db(), id))?.progress).toEqual({ done: 3, total: 10, message: '3 of 10 prompts' });
    await waitFor(async () => (await listJobLogs(db(), id)).at(-1)?.message === 'line 12', 'log lines while running');
    const running = await listJobLogs(db(), id);
    expect(running.map((l) => l.message)).toEqual(['line 8', 'line 9', 'line 10', 'line 11', 'line 12']);
    expect(running.at(-1)?.level).toBe('warn');

    hold.open();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'completed', progress: { done: 10, total: 10, message: 'all prompts sent' } });
    const logs = await listJobLogs(db(), id, { limit: 100 });
    expect(logs.map((l) => l.message)).toEqual(['line 9', 'line 10', 'line 11', 'line 12', 'completed']);
    expect(logs.map((l) => l.seq)).toEqual([10, 11, 12, 13, 14]);
    expect((await listJobLogs(db(), id, { limit: 2 })).map((l) => l.message)).toEqual(['line 12', 'completed']);
  });

  it('fails a job whose handler throws, with the message only, and calls onEnded in the same transaction', async () => {
    const kind = uniqueKind('failing');
    const endedCalls: unknown[] = [];
    const id = await enqueue(kind, { agent: 'a1' });
    await runner([
      {
        kind,
        onInterrupted: 'resume',
        run: async () => {
          throw new Error('the agent answered HTTP 401 to Authorization: Bearer sk-secret-value-123');
        },
        async onEnded(job, trx) {
          endedCalls.push(job);
          await trx.updateTable('teams').set({ description: `job ${job.id} ${job.status}` }).where('id', '=', teamId).execute();
        },
      },
    ]).start();
    await ended(id);
    const job = await getJob(db(), id);
    expect(job?.status).toBe('failed');
    expect(job?.error).toBe('the agent answered HTTP 401 to Authorization: Bearer [redacted]');
    expect(endedCalls).toEqual([{ id, payload: { agent: 'a1' }, status: 'failed', reason: job?.error }]);
    const team = await db().selectFrom('teams').select('description').where('id', '=', teamId).executeTakeFirstOrThrow();
    expect(team.description).toBe(`job ${id} failed`);
    expect((await listJobLogs(db(), id)).at(-1)).toMatchObject({ level: 'error', message: `failed: ${job?.error}` });
  });

  it('records the end of a job when onEnded throws', async () => {
    const kind = uniqueKind('ended-throws');
    const id = await enqueue(kind);
    await runner([
      {
        kind,
        onInterrupted: 'resume',
        run: async () => {
          throw new Error('boom');
        },
        onEnded: async () => {
          throw new Error('the feature record is gone');
        },
      },
    ]).start();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'failed', error: 'boom' });
  });
});

describe('cancelling', () => {
  it('cancels a queued job at once: no handler runs', async () => {
    const kind = uniqueKind('cancel-queued');
    let runs = 0;
    const id = await enqueue(kind);
    expect(await cancelJob(db(), id, { now: 1_800_000_500 })).toBe('cancelled');
    expect(await getJob(db(), id)).toMatchObject({ status: 'cancelled', cancelRequested: true, finishedAt: 1_800_000_500 });
    const r = runner([{ kind, onInterrupted: 'resume', run: async () => void runs++ }]);
    await r.start();
    await r.wake();
    expect(runs).toBe(0);
    expect(await cancelJob(db(), id)).toBe('cancelled');
    expect(await cancelJob(db(), newId())).toBeUndefined();
  });

  it('aborts a running handler with reason "cancelled"; the job ends cancelled and onEnded is called', async () => {
    const kind = uniqueKind('cancel-running');
    const started = gate();
    const reasons: unknown[] = [];
    const endedCalls: unknown[] = [];
    const id = await enqueue(kind, { x: 1 });
    await runner([
      {
        kind,
        onInterrupted: 'resume',
        async run({ signal }) {
          started.open();
          await aborted(signal);
          reasons.push(signal.reason);
          throw new Error('aborted');
        },
        onEnded: async (job) => void endedCalls.push(job),
      },
    ]).start();
    await started.promise;
    expect(await cancelJob(db(), id)).toBe('running');
    await ended(id);
    expect(reasons).toEqual(['cancelled']);
    expect(await getJob(db(), id)).toMatchObject({ status: 'cancelled', error: null, cancelRequested: true });
    expect(endedCalls).toEqual([{ id, payload: { x: 1 }, status: 'cancelled', reason: 'cancelled' }]);
    expect(await cancelJob(db(), id)).toBe('cancelled');
  });
});

describe('deleting', () => {
  it('deleting the jobs of a record aborts the running handler with "lost" and removes the logs', async () => {
    const kind = uniqueKind('deleted');
    const subjectId = newId();
    let signal: AbortSignal | undefined;
    const id = await enqueue(kind, {}, { subjectId });
    await runner([
      {
        kind,
        onInterrupted: 'resume',
        async run(context) {
          signal = context.signal;
          await context.log('working');
          await aborted(context.signal);
        },
      },
    ]).start();
    await waitFor(async () => (await listJobLogs(db(), id)).length > 0, 'the first log lines');
    expect(await deleteJobsBySubject(db(), subjectId, { kind, teamId })).toEqual([id]);
    await waitFor(() => signal?.aborted === true, 'the handler to be aborted');
    expect(signal?.reason).toBe('lost');
    expect(await getJob(db(), id)).toBeUndefined();
    expect(await listJobLogs(db(), id)).toEqual([]);
  });

  it('a deleted job stops at once in this process (no poll needed), and its fenced writes are refused', async () => {
    const { kind, subjectId, id, context } = await startHeldRun('deleted-at-once');
    expect(await context.fenced(async () => true)).toBe(true);
    await db()
      .transaction()
      .execute((trx) => deleteJobsBySubject(trx, subjectId, { kind, teamId }));
    await waitFor(() => context.signal.aborted, 'the handler to be aborted', 2_000);
    expect(context.signal.reason).toBe('lost');
    let wrote = false;
    expect(
      await context.fenced(async () => {
        wrote = true;
        return true;
      }),
    ).toBe(false);
    expect(wrote).toBe(false);
    expect(await getJob(db(), id)).toBeUndefined();
  });

  it('deleteWithJobs has stopped the run by the time it answers, and deleted the record in the same transaction', async () => {
    const { kind, subjectId, id, context } = await startHeldRun('deleted-with-record');
    let recordDeletedIn: unknown;
    await deleteWithJobs(db(), subjectId, { kind, teamId }, async (trx) => {
      recordDeletedIn = trx;
      // Inside the transaction: the run is not stopped before the deletion has committed.
      expect(context.signal.aborted).toBe(false);
    });
    expect(recordDeletedIn).not.toBe(db());
    // No wait: stopped before the answer.
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe('lost');
    expect(await getJob(db(), id)).toBeUndefined();
  });

  it("deleteWithJobs leaves the run and the job alone when the record's deletion fails", async () => {
    const { kind, subjectId, id, context } = await startHeldRun('deleted-with-record-failing');
    await expect(
      deleteWithJobs(db(), subjectId, { kind, teamId }, async () => {
        throw new Error('the record could not be deleted');
      }),
    ).rejects.toThrow('the record could not be deleted');
    expect((await getJob(db(), id))?.status).toBe('running');
    // The runner looks at the table before it gives up a job: the rollback left it there.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(context.signal.aborted).toBe(false);
  });
});

describe('fair claiming and deferral', () => {
  it("shares the slots between teams: a team's second job waits behind another team's first", async () => {
    const kind = uniqueKind('fair');
    const otherTeam = await insertTeam(db());
    const started: string[] = [];
    const hold = gate();
    const handler: JobHandler<{ name: string }> = {
      kind,
      onInterrupted: 'resume',
      async run({ payload }) {
        started.push(payload.name);
        await hold.promise;
      },
    };
    for (const [name, team, at] of [
      ['a1', teamId, 1_800_000_100],
      ['a2', teamId, 1_800_000_101],
      ['a3', teamId, 1_800_000_102],
      ['b1', otherTeam, 1_800_000_103],
    ] as const) {
      await enqueueJob(db(), { kind, payload: { name }, teamId: team, subjectId: newId(), now: at });
    }
    await runner([handler], { concurrency: 2 }).start();
    await waitFor(() => started.length === 2, 'two jobs to start');
    expect(started).toEqual(['a1', 'b1']);
    hold.open();
  });

  it('shares the slots between agents of one team', async () => {
    const kind = uniqueKind('fair-target');
    const started: string[] = [];
    const hold = gate();
    const handler: JobHandler<{ name: string }> = {
      kind,
      onInterrupted: 'resume',
      async run({ payload }) {
        started.push(payload.name);
        await hold.promise;
      },
    };
    const [slowAgent, fastAgent] = [newId(), newId()];
    const otherTeam = await insertTeam(db());
    for (const [name, team, target, at] of [
      ['x1', teamId, slowAgent, 1_800_000_100],
      ['y1', otherTeam, slowAgent, 1_800_000_101],
      ['y2', otherTeam, slowAgent, 1_800_000_102],
      ['y3', otherTeam, fastAgent, 1_800_000_103],
    ] as const) {
      await enqueueJob(db(), { kind, payload: { name }, teamId: team, subjectId: newId(), now: at, targetKey: target });
    }
    await runner([handler], { concurrency: 3 }).start();
    await waitFor(() => started.length === 3, 'three jobs to start');
    // x1 (the oldest); then the other team, first its job on the agent with nothing running (y3), then its oldest (y1).
    expect(started).toEqual(['x1', 'y3', 'y1']);
    hold.open();
  });

  it('a deferred job gives its slot back: queued until its time, then resumed, its attempt unchanged', async () => {
    const kind = uniqueKind('deferred');
    const T = 1_900_000_000_000;
    let clock = T;
    const runs: string[] = [];
    const handler: JobHandler<{ name: string }> = {
      kind,
      onInterrupted: 'resume',
      async run({ payload, deferFor, signal, progress }) {
        runs.push(payload.name);
        if (payload.name === 'waits' && runs.filter((r) => r === 'waits').length === 1) {
          await progress({ done: 3, total: 10 });
          expect(deferFor(60_000, 'the agent asked to retry later')).toBe(true);
          expect(signal.reason).toBe('deferred');
          throw new Error('stopped');
        }
      },
    };
    const waits = await enqueue(kind, { name: 'waits' }, { now: 1_800_000_100 });
    const other = await enqueue(kind, { name: 'other' }, { now: 1_800_000_101 });
    const r = runner([handler], { concurrency: 1, nowMs: () => clock });
    await r.start();
    await ended(other);
    const given = await getJob(db(), waits);
    expect(given).toMatchObject({ status: 'queued', attempt: 1, error: null, lockedBy: null, leaseExpiresAt: null, progress: { done: 3, total: 10 } });
    expect((await listJobLogs(db(), waits)).at(-1)?.message).toMatch(/^gave its slot back \(the agent asked to retry later\); queued again, not before /);
    await r.wake();
    expect(runs).toEqual(['waits', 'other']);
    clock = T + 60_001;
    await r.wake();
    await ended(waits);
    expect(await getJob(db(), waits)).toMatchObject({ status: 'completed', attempt: 1 });
    expect(runs).toEqual(['waits', 'other', 'waits']);
  });
});

describe('restarts', () => {
  /**
   * A runner that "crashed": its clock is frozen, so the lease it renews stays in the past for
   * the runners that follow; its handler never returns until the test lets it (so its one slot
   * stays taken and it claims nothing else).
   */
  const T0 = 1_900_000_000_000;
  const LEASE = 3_000;

  it('resumes a job left running (handler "resume"): back to the queue as the next attempt', async () => {
    const kind = uniqueKind('resume');
    const stuck = gate();
    const attempts: number[] = [];
    let staleSignal: AbortSignal | undefined;
    let staleReturned = false;
    const handler: JobHandler = {
      kind,
      onInterrupted: 'resume',
      async run({ attempt, signal }) {
        attempts.push(attempt);
        if (attempt === 1) {
          staleSignal = signal;
          await stuck.promise;
          staleReturned = true;
        }
      },
    };
    const id = await enqueue(kind);
    const first = runner([handler], { concurrency: 1, nowMs: () => T0 });
    await first.start();
    await waitFor(() => attempts.length === 1, 'the first attempt');

    await runner([handler], { nowMs: () => T0 + 10 * LEASE }).start();
    await ended(id);
    expect(attempts).toEqual([1, 2]);
    const job = await getJob(db(), id);
    expect(job).toMatchObject({ status: 'completed', attempt: 2 });
    const requeued = 'interrupted by a restart; queued again as attempt 2 (1 of 3 interruptions in a row without progress)';
    expect((await listJobLogs(db(), id)).map((l) => l.message)).toContain(requeued);

    // The first runner sees that the job is no longer its own; its handler returns late, and
    // its result is not recorded over the second's.
    await waitFor(() => staleSignal?.aborted === true, 'the first runner to abort its handler');
    expect(staleSignal?.reason).toBe('lost');
    stuck.open();
    await first.stop();
    expect(staleReturned).toBe(true);
    expect(await getJob(db(), id)).toEqual(job);
  });

  it('fails a job left running whose handler cannot resume, and calls onEnded', async () => {
    const kind = uniqueKind('no-resume');
    const stuck = gate();
    let runs = 0;
    const endedCalls: unknown[] = [];
    const handler: JobHandler = {
      kind,
      onInterrupted: 'fail',
      run: async () => {
        runs++;
        await stuck.promise;
      },
      onEnded: async (job) => void endedCalls.push(job),
    };
    const id = await enqueue(kind, { p: 1 });
    await runner([handler], { concurrency: 1, nowMs: () => T0 }).start();
    await waitFor(() => runs === 1, 'the first run');
    await runner([handler], { nowMs: () => T0 + 10 * LEASE }).start();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'failed', error: INTERRUPTED, attempt: 1 });
    expect(endedCalls).toEqual([{ id, payload: { p: 1 }, status: 'failed', reason: INTERRUPTED }]);
    expect(runs).toBe(1);
    stuck.open();
  });

  it('fails a job interrupted on each of its attempts without progress', async () => {
    const kind = uniqueKind('cap');
    const stuck = gate();
    const attempts: number[] = [];
    const endedCalls: unknown[] = [];
    const handler: JobHandler = {
      kind,
      onInterrupted: 'resume',
      run: async ({ attempt }) => {
        attempts.push(attempt);
        await stuck.promise;
      },
      onEnded: async (job) => void endedCalls.push(job),
    };
    const id = await enqueue(kind, {}, { maxAttempts: 2 });
    await runner([handler], { concurrency: 1, nowMs: () => T0 }).start();
    await waitFor(() => attempts.length === 1, 'attempt 1');
    await runner([handler], { concurrency: 1, nowMs: () => T0 + 10 * LEASE }).start();
    await waitFor(() => attempts.length === 2, 'attempt 2');
    await runner([handler], { concurrency: 1, nowMs: () => T0 + 20 * LEASE }).start();
    await ended(id);
    const reason = `${INTERRUPTED} on 2 attempts in a row, without progress`;
    expect(await getJob(db(), id)).toMatchObject({ status: 'failed', attempt: 2, error: reason });
    expect(endedCalls).toEqual([{ id, payload: {}, status: 'failed', reason }]);
    expect(attempts).toEqual([1, 2]);
    stuck.open();
  });

  it('gives the attempt budget back to a job that made progress before it was interrupted', async () => {
    const kind = uniqueKind('budget');
    const stuck = gate();
    const attempts: number[] = [];
    const handler: JobHandler = {
      kind,
      onInterrupted: 'resume',
      run: async ({ attempt, progress }) => {
        attempts.push(attempt);
        if (attempt === 3) return;
        // Each run gets further than the one before, then its process dies.
        await progress({ done: attempt * 10, total: 100 });
        await stuck.promise;
      },
    };
    const id = await enqueue(kind, {}, { maxAttempts: 2 });
    const progressed = (done: number) => waitFor(async () => (await getJob(db(), id))?.progress.done === done, `progress ${done}`);
    await runner([handler], { concurrency: 1, nowMs: () => T0 }).start();
    await progressed(10);
    await runner([handler], { concurrency: 1, nowMs: () => T0 + 10 * LEASE }).start();
    await progressed(20);
    await runner([handler], { concurrency: 1, nowMs: () => T0 + 20 * LEASE }).start();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'completed', attempt: 3 });
    expect(attempts).toEqual([1, 2, 3]);
    stuck.open();
  });

  it('a run taken over after its lease expired writes nothing more: its fenced writes are refused, its end dropped', async () => {
    const kind = uniqueKind('taken-over');
    const stuck = gate();
    const contexts: JobContext[] = [];
    const handler: JobHandler = {
      kind,
      onInterrupted: 'resume',
      run: async (context) => {
        contexts.push(context);
        if (context.attempt === 1) await stuck.promise;
      },
    };
    const id = await enqueue(kind);
    await runner([handler], { concurrency: 1, nowMs: () => T0 }).start();
    await waitFor(() => contexts.length === 1, 'the first run');
    await runner([handler], { concurrency: 1, nowMs: () => T0 + 10 * LEASE }).start();
    await ended(id);
    const end = await getJob(db(), id);
    expect(end).toMatchObject({ status: 'completed', attempt: 2 });
    // The stale run ends its work late: what it would write (a feature's completion) is refused.
    let wrote = false;
    const stale = await contexts[0]!.fenced(async () => {
      wrote = true;
      return true;
    });
    expect([stale, wrote]).toEqual([false, false]);
    stuck.open();
    await waitFor(async () => (await getJob(db(), id))?.updatedAt === end?.updatedAt, 'nothing to change');
    expect(await getJob(db(), id)).toEqual(end);
  });

  it('a graceful stop aborts handlers with "shutdown" and leaves their jobs queued, not failed', async () => {
    const kind = uniqueKind('graceful');
    const started = gate();
    const reasons: unknown[] = [];
    let runs = 0;
    const handler: JobHandler = {
      kind,
      onInterrupted: 'fail',
      async run({ signal, attempt }) {
        runs++;
        if (runs > 1) return;
        expect(attempt).toBe(1);
        started.open();
        await aborted(signal);
        reasons.push(signal.reason);
        throw signal.reason;
      },
    };
    const id = await enqueue(kind);
    const first = runner([handler]);
    await first.start();
    await started.promise;
    await first.stop();
    expect(reasons).toEqual(['shutdown']);
    expect(await getJob(db(), id)).toMatchObject({ status: 'queued', attempt: 1, error: null, lockedBy: null, leaseExpiresAt: null });
    expect((await listJobLogs(db(), id)).at(-1)?.message).toBe('stopped by a shutdown; queued again');

    await runner([handler]).start();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'completed', attempt: 1 });
    expect(runs).toBe(2);
  });

  it('a stop that times out leaves a handler that ignores its signal running, for the next start to recover', async () => {
    const kind = uniqueKind('stubborn');
    const stuck = gate();
    const attempts: number[] = [];
    const handler: JobHandler = {
      kind,
      onInterrupted: 'resume',
      run: async ({ attempt }) => {
        attempts.push(attempt);
        if (attempt === 1) await stuck.promise;
      },
    };
    const id = await enqueue(kind);
    const first = runners.create({ db: db(), dialect: database.dialect, handlers: [handler], stopTimeoutMs: 20, nowMs: () => T0 });
    await first.start();
    await waitFor(() => attempts.length === 1, 'the first attempt');
    await first.stop();
    expect(await getJob(db(), id)).toMatchObject({ status: 'running', attempt: 1 });

    await runner([handler], { nowMs: () => T0 + 10 * LEASE }).start();
    await ended(id);
    expect(await getJob(db(), id)).toMatchObject({ status: 'completed', attempt: 2 });
    expect(attempts).toEqual([1, 2]);
    stuck.open();
  });

  it('an enqueue in this process wakes a started runner without waiting for its poll interval', async () => {
    const kind = uniqueKind('wake');
    const r = runners.create({ db: db(), dialect: database.dialect, handlers: [{ kind, onInterrupted: 'resume', run: async () => {} }], pollMs: 600_000 });
    await r.start();
    const id = await db()
      .transaction()
      .execute((trx) => enqueueJob(trx, { kind, payload: {}, teamId, subjectId: newId() }));
    await ended(id);
    expect(await statusOf(id)).toBe('completed');
  });
});
