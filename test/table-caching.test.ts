import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { TABLE_CACHING } from '../src/modules/tables.js';
import { openTestDatabase, TEST_ENGINE } from './helpers/app.js';

/**
 * Every table of the migrated database has a cache class (src/db/table-caching.ts,
 * docs/caching.md), so that a new table is never served stale by accident: a principal read
 * from a table the rules do not know would outlive a write to it.
 */
let database: Database;
let tables: string[];

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  const query =
    database.dialect === 'sqlite'
      ? sql<{ name: string }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`
      : sql<{ name: string }>`select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'`;
  tables = (await query.execute(database.db)).rows.map((r) => r.name).sort();
});
afterAll(async () => database.close());

const howToDeclare = (table: string) =>
  `Table "${table}" has no cache class. Declare it beside the repo of the feature that owns it, ` +
  `e.g. \`export const FEATURE_TABLES = tableCaching({ ${table}: 'data' });\` (src/db/table-caching.ts), ` +
  `and spread FEATURE_TABLES into TABLE_CACHING in src/modules/tables.ts. ` +
  `'identity' when a principal (the caller, their teams, roles, sessions or keys) is read from it, else 'data' (docs/caching.md).`;

describe(`cache classes of the tables (${TEST_ENGINE})`, () => {
  it('finds the tables of the migrated database', () => {
    expect(tables).toContain('agents');
    expect(tables).toContain('users');
  });

  it('classifies every table of the migrated database', () => {
    const unclassified = tables.filter((table) => !Object.hasOwn(TABLE_CACHING, table));
    expect(unclassified, unclassified.map(howToDeclare).join('\n')).toEqual([]);
  });

  it('classifies no table that does not exist (a rule left behind by a dropped or renamed table)', () => {
    const stale = Object.keys(TABLE_CACHING).filter((table) => !tables.includes(table));
    expect(stale, `rules for tables the migrations do not create: ${stale.join(', ')} (src/modules/tables.ts)`).toEqual([]);
  });

  it('classifies the tables a principal is read from as identity', () => {
    for (const table of ['users', 'teams', 'memberships', 'sessions', 'api_keys']) expect(TABLE_CACHING[table as keyof typeof TABLE_CACHING]).toBe('identity');
  });
});
