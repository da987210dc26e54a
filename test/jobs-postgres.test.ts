import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { newId } from '../src/ids.js';
import { enqueueJob, getJob } from '../src/jobs/jobs.repo.js';
import type { JobHandler } from '../src/jobs/types.js';
import { openTestDatabase } from './helpers/app.js';
import { aborted, gate, insertTeam, runnerPool, uniqueKind, waitFor } from './helpers/jobs.js';

/**
 * Several Warden processes on one PostgreSQL database: here two runners, each with its own
 * connection pool (as two processes have), on one schema.
 */
let first: Database;
let second: Database;
let teamId: string;
const runners = runnerPool();

beforeAll(async () => {
  first = await openTestDatabase();
  await migrateToLatest(first.db, first.dialect, first.schema);
  second = openDatabase({ dialect: 'postgres', url: process.env.WARDEN_TEST_POSTGRES_URL as string, schema: first.schema });
  teamId = await insertTeam(first.db);
});
afterEach(async () => runners.stopAll());
afterAll(async () => {
  await second.close();
  await first.close();
});

describe('two runners on one PostgreSQL database', () => {
  it('never run the same job twice, and each stays within its concurrency', async () => {
    const kind = uniqueKind('contended');
    const runs = new Map<string, string[]>();
    const inFlight = new Map<string, number>();
    const most = new Map<string, number>();
    const ids: string[] = [];
    for (let i = 0; i < 50; i++) ids.push(await enqueueJob(first.db, { kind, payload: { i }, teamId, subjectId: newId() }));

    const handlerFor = (worker: string): JobHandler => ({
      kind,
      onInterrupted: 'resume',
      async run({ id }) {
        runs.set(id, [...(runs.get(id) ?? []), worker]);
        inFlight.set(worker, (inFlight.get(worker) ?? 0) + 1);
        most.set(worker, Math.max(most.get(worker) ?? 0, inFlight.get(worker) ?? 0));
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 4));
        inFlight.set(worker, (inFlight.get(worker) ?? 0) - 1);
      },
    });
    const a = runners.create({ db: first.db, dialect: 'postgres', handlers: [handlerFor('a')], concurrency: 3, pollMs: 2, workerId: 'worker-a' });
    const b = runners.create({ db: second.db, dialect: 'postgres', handlers: [handlerFor('b')], concurrency: 3, pollMs: 2, workerId: 'worker-b' });
    await Promise.all([a.start(), b.start()]);

    await waitFor(async () => {
      const done = await first.db
        .selectFrom('jobs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('kind', '=', kind)
        .where('status', '=', 'completed')
        .executeTakeFirstOrThrow();
      return Number(done.n) === ids.length;
    }, 'every job to complete');
    expect([...runs.keys()].sort()).toEqual([...ids].sort());
    for (const [id, workers] of runs) expect(workers, `job ${id}`).toHaveLength(1);
    for (const [worker, n] of most) expect(n, `worker ${worker}`).toBeLessThanOrEqual(3);
    const lockedBy = await first.db.selectFrom('jobs').select('locked_by').where('kind', '=', kind).execute();
    for (const row of lockedBy) expect(['worker-a', 'worker-b']).toContain(row.locked_by);
  });

  it('a cancel written by another process reaches the runner holding the job', async () => {
    const kind = uniqueKind('cross-cancel');
    const started = gate();
    const endedCalls: unknown[] = [];
    const reasons: unknown[] = [];
    const id = await enqueueJob(first.db, { kind, payload: {}, teamId, subjectId: newId() });
    await runners
      .create({
        db: first.db,
        dialect: 'postgres',
        handlers: [
          {
            kind,
            onInterrupted: 'resume',
            async run({ signal }) {
              started.open();
              await aborted(signal);
              reasons.push(signal.reason);
            },
            onEnded: async (job) => void endedCalls.push(job),
          },
        ],
      })
      .start();
    await started.promise;
    // What cancelJob writes, through the other pool and without the in-process signal that
    // cancelJob also sends: the runner can only learn it from the database.
    await second.db.updateTable('jobs').set({ cancel_requested: 1 }).where('id', '=', id).where('status', '=', 'running').execute();
    await waitFor(async () => (await getJob(first.db, id))?.status === 'cancelled', 'the job to be cancelled');
    expect(reasons).toEqual(['cancelled']);
    expect(endedCalls).toEqual([{ id, payload: {}, status: 'cancelled', reason: 'cancelled' }]);
  });
});
