import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/schema.js';
import { newId } from '../../src/ids.js';
import { createJobRunner, type JobRunner, type JobRunnerOptions } from '../../src/jobs/runner.js';

/** A user and a team written directly (jobs belong to a team); the team's id. */
export async function insertTeam(db: Kysely<DB>): Promise<string> {
  const at = 1_800_000_000;
  const userId = newId();
  const teamId = newId();
  await db
    .insertInto('users')
    .values({
      id: userId,
      email: `jobs-${userId}@example.com`,
      password_hash: 'x',
      given_name: null,
      family_name: null,
      external_user_id: null,
      profile_image: null,
      is_active: 1,
      is_verified: 1,
      is_super_admin: 0,
      password_change_required: 0,
      created_at: at,
      updated_at: at,
    })
    .execute();
  await db.insertInto('teams').values({ id: teamId, name: 'jobs', description: null, created_by: userId, created_at: at, updated_at: at }).execute();
  return teamId;
}

/** Resolves when `check` answers true; polls every few milliseconds (fails after `timeoutMs`). */
export async function waitFor(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** A promise the test resolves by hand. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { promise, open };
}

/** Resolves when the signal aborts. */
export const aborted = (signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });

let kinds = 0;
/** A job kind no other test of the file uses (runners of one test never see another test's jobs). */
export const uniqueKind = (label: string) => `${label}-${++kinds}`;

/** Runners with short intervals, stopped after each test (stopAll). */
export function runnerPool() {
  const runners: JobRunner[] = [];
  return {
    create(options: Omit<JobRunnerOptions, 'pollMs' | 'flushMs' | 'stopTimeoutMs'> & Partial<JobRunnerOptions>): JobRunner {
      const runner = createJobRunner({ pollMs: 10, flushMs: 10, stopTimeoutMs: 500, leaseMs: 3_000, ...options });
      runners.push(runner);
      return runner;
    },
    async stopAll() {
      await Promise.all(runners.splice(0).map((runner) => runner.stop()));
    },
  };
}
