import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { newId } from '../src/ids.js';
import { enqueueJob, getJob } from '../src/jobs/jobs.repo.js';
import { openTestDatabase } from './helpers/app.js';
import { gate, insertTeam, runnerPool, uniqueKind, waitFor } from './helpers/jobs.js';

/**
 * On a SQLite file every commit moves the read version, which empties the caches of read
 * answers (docs/jobs.md, "Cost"): the runner must not commit while idle, and must coalesce
 * progress and log lines.
 */
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

const commits = () => Number((database.readVersion?.() ?? '').split('.')[0]);

describe('the runner on SQLite', () => {
  it('commits nothing while idle', async () => {
    const runner = runners.create({
      db: database.db,
      dialect: 'sqlite',
      handlers: [{ kind: uniqueKind('idle'), onInterrupted: 'resume', run: async () => {} }],
    });
    const before = database.readVersion?.();
    expect(before).toBeDefined();
    await runner.start();
    for (let i = 0; i < 5; i++) await runner.wake();
    expect(database.readVersion?.()).toBe(before);
  });

  it('writes many progress updates and log lines in one commit', async () => {
    const kind = uniqueKind('coalesced');
    const hold = gate();
    const id = await enqueueJob(database.db, { kind, payload: {}, teamId, subjectId: newId() });
    let afterLoop = 0;
    const runner = runners.create({
      db: database.db,
      dialect: 'sqlite',
      leaseMs: 600_000,
      handlers: [
        {
          kind,
          onInterrupted: 'resume',
          async run({ progress, log }) {
            for (let i = 1; i <= 500; i++) {
              await progress({ done: i, total: 500 });
              await log(`prompt ${i} sent`);
            }
            afterLoop = commits();
            await hold.promise;
          },
        },
      ],
    });
    await runner.start();
    await waitFor(async () => (await getJob(database.db, id))?.progress.done === 500, 'the progress to be written');
    // One flush (and at most one lease renewal) since the loop: not one commit per call.
    expect(commits() - afterLoop).toBeGreaterThanOrEqual(1);
    expect(commits() - afterLoop).toBeLessThanOrEqual(2);
    hold.open();
  });
});
