import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp } from '../../src/app.js';
import { deriveKeys } from '../../src/crypto/keys.js';
import { openDatabase, type Database } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrations/index.js';

/** A clock the test moves by hand (epoch seconds). */
export class TestClock {
  constructor(public current = 1_800_000_000) {}
  now = () => this.current;
  advance(seconds: number) {
    this.current += seconds;
  }
}

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * A fresh service on a fresh in-memory database. Tokens last a year by default so that
 * tests may move the clock by days; token-expiry tests pass the real 24 h.
 */
export async function buildTestApp(options: { dataDir?: string; tokenTtlSeconds?: number } = {}): Promise<TestApp> {
  const database = openDatabase({ dialect: 'sqlite', filename: ':memory:' });
  await migrateToLatest(database.db, database.dialect);
  const clock = new TestClock();
  const app = await buildApp({
    database,
    keys: deriveKeys('test-secret-key-that-is-long-enough-0123456789'),
    dataDir: options.dataDir ?? '/tmp/warden-test-data',
    passwordHashCost: 10,
    tokenTtlSeconds: options.tokenTtlSeconds ?? 365 * 24 * 60 * 60,
    now: clock.now,
  });
  await app.ready();
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

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function json<T = any>(response: LightMyRequestResponse): T {
  return JSON.parse(response.body) as T;
}
