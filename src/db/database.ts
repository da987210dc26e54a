import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import type { DB } from './schema.js';

export type Dialect = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default search path. */
  schema?: string | undefined;
  close(): Promise<void>;
}

/**
 * Kysely's SQLite driver calls `prepare()` for every query; preparing dominates the cost
 * of a small query, so statements are cached by their SQL text (the SQL Kysely emits is
 * parameterised, so the set of distinct texts is small and bounded).
 */
function withStatementCache(raw: SqliteDatabase.Database, max = 500) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => raw.close(),
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = raw.prepare(sql);
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

export function openSqlite(filename: string): SqliteDatabase.Database {
  if (filename !== ':memory:') fs.mkdirSync(path.dirname(filename), { recursive: true });
  const raw = new SqliteDatabase(filename);
  // WAL + synchronous=FULL: a write that was acknowledged is on disk, even if the
  // process or the machine dies right after (docs/decisions.md, "Durability").
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  return raw;
}

export function openDatabase(config: DatabaseConfig): Database {
  if (config.dialect === 'sqlite') {
    const raw = openSqlite(config.filename);
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(raw) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: config.url,
    max: 10,
    // int8 (epoch seconds, counts) as JS numbers: every value we store fits in 2^53.
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text'),
    },
    ...(config.schema ? { options: `-c search_path=${config.schema}` } : {}),
  });
  return { ...postgresDatabase(pool), schema: config.schema };
}

/** A PostgreSQL database over any pool Kysely's PostgresDialect accepts (pg.Pool in production). */
export function postgresDatabase(pool: PostgresPool): Database {
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
