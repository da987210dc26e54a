import fs from 'node:fs';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, SqliteDialect, type PostgresPool } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.js';
import { makeDirectory } from '../make-directory.js';
import type { DB } from './schema.js';
import { GroupCommitSqlite, groupCommitDialect } from './sqlite-group-commit.js';
import { NulFreeText } from './nul-free-text.js';
import { WardenPostgresDialect } from './postgres-introspector.js';
import { WriterThread, type WriterThreadOptions } from './sqlite-writer-thread.js';
import { identityWrites, type TableCachingRules } from './table-caching.js';

export type Dialect = 'sqlite' | 'postgres';

/** What every Kysely instance of Warden's runs its statements through. */
const PLUGINS = [new NulFreeText()];

export interface DataVersions {
  read: string;
  identity: string;
  /**
   * The version of some tables alone: moved by commits that wrote them (or a table whose
   * deletes cascade into them), by writes of unknown table, and by other processes. Read it,
   * like the others, before the queries it guards. Without it, the read version stands for all.
   */
  tables?: ((names: readonly string[]) => string) | undefined;
}

export interface Database {
  db: Kysely<DB>;
  dialect: Dialect;
  /** PostgreSQL schema the tables live in, when not the default search path. */
  schema?: string | undefined;
  /**
   * A token that changes whenever the data may have changed, for caches of read answers;
   * undefined where no such token exists (PostgreSQL: other processes write without telling
   * this one), and then nothing may be cached across requests. With `tables`, a token moved
   * only by commits that may have changed those tables (DataVersions.tables).
   */
  readVersion?: ((tables?: readonly string[]) => string) | undefined;
  /**
   * The read version and an identity version (moved only by writes to the identity tables:
   * what a principal is made of), read together: on a SQLite file one PRAGMA for both.
   * Undefined on PostgreSQL, like readVersion.
   */
  versions?: (() => DataVersions) | undefined;
  /**
   * Why the database can no longer write, if it cannot (on a SQLite file: the writer thread has
   * stopped; every write then fails at once): /healthz answers 503 with it.
   */
  failure?: (() => Error | undefined) | undefined;
  /** Calls `listener` once if the database stops being able to write (the service logs it). */
  onFailure?: ((listener: (error: Error) => void) => void) | undefined;
  close(): Promise<void>;
}

/** A cached statement as the drivers use it: rows come back as objects, as Kysely expects. */
export interface PreparedStatement {
  readonly reader: boolean;
  readonly readonly: boolean;
  all(parameters: readonly unknown[]): unknown[];
  run(parameters: readonly unknown[]): SqliteDatabase.RunResult;
  iterate(parameters: readonly unknown[]): IterableIterator<unknown>;
}

type RowBuilder = (values: unknown[]) => Record<string, unknown>;

/**
 * Builds a statement's row objects from its values in column order: one object literal with the
 * column names as keys, compiled once per statement. better-sqlite3 builds an object row with a
 * generic property store per column (`Data::GetFlatRowJS`), which measured 2.4 times slower for
 * a page of 100 rules (bench/README.md). Same result: an own property per column, later
 * columns of a repeated name winning; a column named `__proto__` becomes an own property (where
 * better-sqlite3 would pass it to the prototype setter and lose it).
 */
export function compileRowBuilder(columns: readonly string[]): RowBuilder {
  const fields = columns.map((name, i) => `${name === '__proto__' ? '["__proto__"]' : JSON.stringify(name)}: v[${i}]`);
  return new Function('v', `return { ${fields.join(', ')} };`) as RowBuilder;
}

function prepared(stmt: SqliteDatabase.Statement): PreparedStatement {
  if (!stmt.reader) {
    return {
      reader: false,
      readonly: stmt.readonly,
      all: () => {
        throw new TypeError('This statement does not return data');
      },
      run: (parameters) => stmt.run(parameters),
      iterate: () => {
        throw new TypeError('This statement does not return data');
      },
    };
  }
  const build = compileRowBuilder(stmt.columns().map((column) => column.name));
  stmt.raw(true);
  return {
    reader: true,
    readonly: stmt.readonly,
    all: (parameters) => (stmt.all(parameters) as unknown[][]).map(build),
    run: (parameters) => stmt.run(parameters),
    *iterate(parameters) {
      for (const values of stmt.iterate(parameters) as IterableIterator<unknown[]>) yield build(values);
    },
  };
}

/**
 * Kysely's SQLite drivers (its own and ours) call `prepare()` for every query; preparing
 * dominates the cost of a small query, so statements are cached by their SQL text (the SQL
 * Kysely emits is parameterised, so the set of distinct texts is small and bounded).
 */
export function withStatementCache(raw: SqliteDatabase.Database, max = 500) {
  const cache = new Map<string, PreparedStatement>();
  return {
    prepare(sql: string): PreparedStatement {
      let stmt = cache.get(sql);
      if (stmt === undefined) {
        stmt = prepared(raw.prepare(sql));
        if (cache.size >= max) cache.delete(cache.keys().next().value as string);
        cache.set(sql, stmt);
      }
      return stmt;
    },
  };
}

/**
 * The database file and the folders made for it are the service user's alone (0600 / 0700):
 * they hold every hash and ciphertext. SQLite gives the -wal and -shm files the mode of the
 * database file. An existing file or folder keeps the mode it has.
 */
export function createPrivately(filename: string): void {
  makeDirectory(path.dirname(filename));
  try {
    fs.closeSync(fs.openSync(filename, 'wx', 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

export function openSqlite(filename: string): SqliteDatabase.Database {
  if (filename !== ':memory:') createPrivately(filename);
  const raw = new SqliteDatabase(filename);
  // WAL + synchronous=FULL: a write that was acknowledged is on disk, even if the
  // process or the machine dies right after (docs/decisions.md, "Durability").
  // The pragma answers the mode in force: a file that cannot switch (a read-only folder, a
  // network file system without shared memory) must not run silently without WAL.
  const mode = raw.pragma('journal_mode = WAL', { simple: true });
  if (filename !== ':memory:' && mode !== 'wal') {
    raw.close();
    throw new Error(`SQLite could not switch ${filename} to WAL mode (it is in "${String(mode)}" mode)`);
  }
  raw.pragma('synchronous = FULL');
  raw.pragma('foreign_keys = ON');
  raw.pragma('busy_timeout = 5000');
  return raw;
}

export interface OpenOptions {
  /**
   * Every table's class for the caches (src/db/table-caching.ts; the application's rules are
   * `TABLE_CACHING`, src/modules/tables.ts). Without them every write moves the identity version.
   */
  tables?: TableCachingRules | undefined;
  /** Options of the SQLite writer thread (its heap limits; tests inject a way for it to die). */
  writer?: Omit<WriterThreadOptions, 'onStop'> | undefined;
}

export function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Database {
  if (config.dialect === 'sqlite') {
    const raw = openSqlite(config.filename);
    if (config.filename === ':memory:') {
      // One in-memory database has one connection: no second reader, and no fsync to share.
      // Nothing else can reach it, and Kysely's mutex keeps reads out of open transactions, so
      // counting write statements (before they run) is a complete read version. Used by ad-hoc
      // tools only: every write moves the identity version too.
      const cache = withStatementCache(raw);
      let writes = 0;
      const prepare = (sql: string) => {
        const stmt = cache.prepare(sql);
        if (!stmt.readonly) writes++;
        return stmt;
      };
      const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: { prepare, close: () => raw.close() } }), plugins: PLUGINS });
      return {
        db,
        dialect: 'sqlite',
        readVersion: () => String(writes),
        versions: () => ({ read: String(writes), identity: String(writes), tables: () => String(writes) }),
        close: () => db.destroy(),
      };
    }
    // The writer connection is opened in its own thread (its COMMIT waits for the disk there,
    // not on the event loop); `raw` has made the file and switched it to WAL, and closes once
    // the writer holds the file open.
    let writer: WriterThread;
    const listeners: Array<(error: Error) => void> = [];
    try {
      writer = new WriterThread(config.filename, {
        ...options.writer,
        onStop: (error) => {
          for (const listener of listeners) listener(error);
        },
      });
    } finally {
      raw.close();
    }
    const reader = new SqliteDatabase(config.filename, { readonly: true, fileMustExist: true });
    reader.pragma('busy_timeout = 5000');
    const group = new GroupCommitSqlite(writer, reader, withStatementCache(reader).prepare, identityWrites(options.tables));
    const db = new Kysely<DB>({ dialect: groupCommitDialect(group), plugins: PLUGINS });
    return {
      db,
      dialect: 'sqlite',
      readVersion: (tables) => group.readVersion(tables),
      versions: () => group.versions(),
      failure: () => writer.stopped,
      onFailure: (listener) => listeners.push(listener),
      close: () => db.destroy(),
    };
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
  const db = new Kysely<DB>({ dialect: new WardenPostgresDialect({ pool }), plugins: PLUGINS });
  return { db, dialect: 'postgres', close: () => db.destroy() };
}
