import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/**
 * The suite runs twice: on SQLite and on PostgreSQL (the server named by
 * WARDEN_TEST_POSTGRES_URL, or embedded PGlite when it is unset). Unit tests beside the
 * code in src/ run once.
 */
const postgresUrl = process.env.WARDEN_TEST_POSTGRES_URL;
const postgresTarget = postgresUrl
  ? `the server at ${postgresUrl.replace(/\/\/[^@/]*@/, '//')} (WARDEN_TEST_POSTGRES_URL)`
  : 'embedded PGlite (set WARDEN_TEST_POSTGRES_URL to use a PostgreSQL server)';
console.log(`warden tests: engines sqlite (a temporary file per test file, opened as in production) and postgres on ${postgresTarget}`);

/**
 * Files that concern one engine are left out of the other project here, by name, instead of
 * being skipped inside the file: nothing is skipped silently, and what is not run is printed.
 */
const SQLITE_ONLY = [
  'test/durability.test.ts', // crash durability of the embedded SQLite default (WAL, synchronous=FULL)
  'test/group-commit.test.ts', // SQLite's group commit
  'test/sqlite-restart.test.ts', // a second app on the same SQLite file
  'test/jobs-sqlite.test.ts', // the job runner's commits as SQLite's read version counts them
  'test/sqlite-lock.test.ts', // one service process per SQLite file
  'test/bounds-process.test.ts', // one service process's memory (the bounds' queries run on both engines in test/result-bounds.test.ts)
];
// Tests that touch no database engine (configuration, files, the README, the test helpers):
// once, in the sqlite project.
const ENGINE_INDEPENDENT = [
  'test/config.test.ts',
  'test/data-files.test.ts',
  'test/readme.test.ts',
  'test/reference-check.test.ts',
  'test/test-agents.test.ts',
  'test/connector.test.ts',
  'test/connector-resilience.test.ts',
  'test/npm-start.test.ts',
  'test/cli.test.ts',
  'test/warden-cli.test.ts', // the CLI is a client of the API: the engine behind it is the API's business
  'test/docs-examples.test.ts',
  'test/console.test.ts', // how the console's files are served: no engine involved
  // The console in headless Chromium: one browser run is enough, and a run per engine would
  // double the slowest file of the suite; the API under it is tested on both engines.
  'test/console-e2e.test.ts',
];
// Several processes on one database is the PostgreSQL deployment, and needs a server
// (embedded PGlite serves one process): so do two job runners with a pool each.
const POSTGRES_SERVER_ONLY = [
  'test/multi-process.test.ts',
  'test/jobs-postgres.test.ts',
  'test/evaluations-postgres.test.ts',
  'test/postgres-introspector.test.ts', // other schemas dropped beside a migrating Warden
];
// Limits shared by several processes live in Redis (WARDEN_TEST_REDIS_URL; CI sets it).
const redisUrl = process.env.WARDEN_TEST_REDIS_URL;
const REDIS_ONLY = ['test/gateway-redis.test.ts'];
const redisExcludes = redisUrl ? [] : REDIS_ONLY;
if (!redisUrl) console.log(`warden tests: NOT RUN: ${REDIS_ONLY.join(', ')} (needs a Redis server: set WARDEN_TEST_REDIS_URL)`);
const postgresExcludes = [...SQLITE_ONLY, ...ENGINE_INDEPENDENT, ...(postgresUrl ? [] : POSTGRES_SERVER_ONLY), ...redisExcludes];
console.log(`warden tests: not on sqlite: ${POSTGRES_SERVER_ONLY.join(', ')} (PostgreSQL deployment)`);
console.log(`warden tests: not on postgres: ${SQLITE_ONLY.join(', ')} (SQLite only); ${ENGINE_INDEPENDENT.join(', ')} (no engine: run once)`);
if (!postgresUrl) {
  console.log(`warden tests: NOT RUN: ${POSTGRES_SERVER_ONLY.join(', ')} (needs a PostgreSQL server: set WARDEN_TEST_POSTGRES_URL)`);
}

/**
 * Test files at once. Vitest's default is one less than the cores: one file at a time on a
 * 2-core machine (CI's), although most files spend their time waiting on loopback agents,
 * job runners and child processes rather than computing. Each file has its own database (a
 * temporary SQLite file, a PostgreSQL schema of its own) and its own ports, so files do not
 * share state; at least 3 at once keeps the cores busy. WARDEN_TEST_WORKERS overrides it.
 */
const maxWorkers = Number(process.env.WARDEN_TEST_WORKERS) || Math.max(availableParallelism() - 1, 3);

export default defineConfig({
  test: {
    environment: 'node',
    maxWorkers,
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          exclude: [...POSTGRES_SERVER_ONLY, ...redisExcludes],
          env: { WARDEN_TEST_ENGINE: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          exclude: postgresExcludes,
          env: { WARDEN_TEST_ENGINE: 'postgres' },
        },
      },
    ],
  },
});
