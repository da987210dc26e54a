import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type AppOptions } from '../../src/app.js';
import { deriveKeys } from '../../src/crypto/keys.js';
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, postgresDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';
import { TABLE_CACHING } from '../../src/modules/tables.js';
import { pglitePool } from './pglite-pool.js';
import { installReferenceCheck } from './reference-check.js';

/** Which engine this test run uses: vitest.config.ts runs the suite once per engine. */
export const TEST_ENGINE: 'sqlite' | 'postgres' = process.env.WARDEN_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';
const POSTGRES_URL = process.env.WARDEN_TEST_POSTGRES_URL || undefined;

/**
 * A fresh, empty database on the engine under test: a SQLite file in a temporary folder,
 * opened exactly as production opens it (WAL, synchronous=FULL, group commit, a read-only
 * second connection; removed at close); a schema of its own on the PostgreSQL server named by
 * WARDEN_TEST_POSTGRES_URL (dropped at close); or, without a server, an embedded PGlite instance.
 */
export async function openTestDatabase(): Promise<Database> {
  if (TEST_ENGINE === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'warden-test-'));
    const database = openDatabase({ dialect: 'sqlite', filename: path.join(dir, 'warden.db') }, { tables: TABLE_CACHING });
    return {
      ...database,
      async close() {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (POSTGRES_URL === undefined) {
    const { pool, ready } = pglitePool();
    await ready;
    return postgresDatabase(pool);
  }
  const schema = `warden_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE SCHEMA ${schema}`);
  } finally {
    await admin.end();
  }
  const database = openDatabase({ dialect: 'postgres', url: POSTGRES_URL, schema }, { tables: TABLE_CACHING });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: POSTGRES_URL });
      await dropper.connect();
      try {
        await dropper.query(`DROP SCHEMA ${schema} CASCADE`);
      } finally {
        await dropper.end();
      }
    },
  };
}

/** A clock the test moves by hand (epoch seconds). */
export class TestClock {
  constructor(public current = 1_800_000_000) {}
  now = () => this.current;
  advance(seconds: number) {
    this.current += seconds;
  }
}

/** Job runner settings for tests: jobs are claimed, flushed and stopped within milliseconds. */
const FAST_JOBS = { pollMs: 10, flushMs: 10, leaseMs: 3_000, stopTimeoutMs: 2_000 };

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * A fresh service on a fresh database of the engine under test. Tokens last a year by default so that
 * tests may move the clock by days; token-expiry tests pass the real 24 h.
 */
export async function buildTestApp(
  options: {
    dataDir?: string;
    tokenTtlSeconds?: number;
    app?: Partial<Omit<AppOptions, 'database' | 'keys' | 'now'>>;
    /**
     * Check every /v1 response against the reference's schema of its operation
     * (test/helpers/reference-check.ts): on unless a test turns it off to send what the check refuses on purpose.
     */
    referenceCheck?: boolean;
    /** Start the background job runner (with short intervals unless `app.jobs` says otherwise); it stops at close. */
    startJobs?: boolean;
  } = {},
): Promise<TestApp> {
  const database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  const clock = new TestClock();
  const app = await buildApp(testAppOptions(database, clock, options));
  if (options.referenceCheck !== false) installReferenceCheck(app);
  await app.ready();
  if (options.startJobs) await app.jobs.start();
  return {
    app,
    database,
    clock,
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/** The options every test service is built with: test keys, cheap password hashing, year-long tokens, the test clock, fast jobs. */
export function testAppOptions(
  database: Database,
  clock: TestClock,
  options: { dataDir?: string; tokenTtlSeconds?: number; app?: Partial<Omit<AppOptions, 'database' | 'keys' | 'now'>> } = {},
): AppOptions {
  return {
    database,
    keys: deriveKeys('test-secret-key-that-is-long-enough-0123456789'),
    dataDir: options.dataDir ?? '/tmp/warden-test-data',
    passwordHashCost: 10,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 365 * 24 * 60 * 60,
    now: clock.now,
    ...options.app,
    jobs: { ...FAST_JOBS, ...options.app?.jobs },
  };
}

/**
 * One more Warden process on a database a test already opened (restarts, several workers): the
 * test options, ready, its job runner started. The caller closes it; the database stays open.
 */
export async function startTestProcess(
  database: Database,
  clock: TestClock,
  app: Partial<Omit<AppOptions, 'database' | 'keys' | 'now'>>,
): Promise<FastifyInstance> {
  const instance = await buildApp(testAppOptions(database, clock, { app }));
  await instance.ready();
  await instance.jobs.start();
  return instance;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function json<T = any>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}

/**
 * The values of one header as the socket carries them (Node's rawHeaders: one entry per header
 * line, so two lines of the same header are two values; inject() and fetch() would merge them).
 * Starts the app listening on a free loopback port when it is not yet.
 */
export async function rawHeaderValues(app: FastifyInstance, method: string, url: string, headers: Record<string, string>, name: string): Promise<string[]> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const raw = await new Promise<string[]>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: url, method, headers }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.rawHeaders));
    });
    req.on('error', reject);
    req.end();
  });
  return raw.flatMap((value, i) => (i % 2 === 0 && value.toLowerCase() === name.toLowerCase() ? [raw[i + 1] ?? ''] : []));
}
