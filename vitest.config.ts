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

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 60_000,
    hookTimeout: 120_000,
    reporters: ['default', './test/summary-reporter.ts'],
    projects: [
      {
        extends: true,
        test: {
          name: 'sqlite',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Several processes on one database is the PostgreSQL deployment.
          exclude: ['test/multi-process.test.ts'],
          env: { WARDEN_TEST_ENGINE: 'sqlite' },
        },
      },
      {
        extends: true,
        test: {
          name: 'postgres',
          include: ['test/**/*.test.ts'],
          // Crash durability is a property of the embedded SQLite default.
          exclude: ['test/durability.test.ts'],
          env: { WARDEN_TEST_ENGINE: 'postgres' },
        },
      },
    ],
  },
});
