import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { TableMetadata } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';

/**
 * Warden migrating on a PostgreSQL server where other schemas come and go (another application,
 * or the suite's other files dropping their schemas): Kysely's own introspector failed there
 * with `schema "…" does not exist` (a CI run lost a file to it). Needs a server:
 * vitest.config.ts runs this file only where WARDEN_TEST_POSTGRES_URL names one.
 */
const url = process.env.WARDEN_TEST_POSTGRES_URL as string;
const tag = randomBytes(4).toString('hex');
const bulk = Array.from({ length: 12 }, (_, i) => `introspect_bulk_${tag}_${i}`);
const own = `introspect_own_${tag}`;
let admin: pg.Client;
let database: Database;

beforeAll(async () => {
  admin = new pg.Client({ connectionString: url });
  await admin.connect();
  // Other schemas with many tables make the introspection query long enough for a drop to land inside it.
  for (const schema of bulk) {
    let ddl = `CREATE SCHEMA ${schema};`;
    for (let t = 0; t < 40; t++) ddl += `CREATE TABLE ${schema}.t${t} (a int PRIMARY KEY, b text, c text, d int, e bigint, f text);`;
    await admin.query(ddl);
  }
  await admin.query(`CREATE SCHEMA ${own}`);
  database = openDatabase({ dialect: 'postgres', url, schema: own });
});

afterAll(async () => {
  await database?.close();
  for (const schema of [...bulk, own]) await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
  await admin.end();
});

describe('the PostgreSQL introspector', () => {
  it('lists the tables of its own schema only, and is not failed by schemas dropped while it reads', async () => {
    await migrateToLatest(database.db, database.dialect, database.schema);
    let stop = false;
    const churn = (async () => {
      const other = new pg.Client({ connectionString: url });
      await other.connect();
      for (let i = 0; !stop; i++) {
        const schema = `introspect_churn_${tag}_${i}`;
        await other.query(`CREATE SCHEMA ${schema}; CREATE TABLE ${schema}.t (a int PRIMARY KEY, b text)`);
        await other.query(`DROP SCHEMA ${schema} CASCADE`);
      }
      await other.end();
    })();
    const failures: string[] = [];
    let listed: TableMetadata[] = [];
    try {
      for (let i = 0; i < 40; i++) {
        try {
          listed = await database.db.introspection.getTables({ withInternalKyselyTables: true });
          await migrateToLatest(database.db, database.dialect, database.schema);
        } catch (error) {
          failures.push((error as Error).message);
        }
      }
    } finally {
      stop = true;
      await churn;
    }
    expect(failures).toEqual([]);
    expect(new Set(listed.map((table) => table.schema))).toEqual(new Set([own]));
    const names = listed.map((table) => table.name);
    expect(names).toContain('kysely_migration');
    expect(names).toContain('agents');
    const agents = listed.find((table) => table.name === 'agents')!;
    expect(agents.columns.map((column) => column.name)).toContain('agent_url');
  });
});
