import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PostgresAdapter, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import SqliteDatabase from 'better-sqlite3';
import { compileRowBuilder, openDatabase, openSqlite, withStatementCache } from './database.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-pragmas-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('SQLite opened as production opens it', () => {
  it('runs in WAL mode with synchronous=FULL, foreign keys and a busy timeout', () => {
    const raw = openSqlite(path.join(dir, 'pragmas.db'));
    try {
      expect(raw.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(raw.pragma('synchronous', { simple: true })).toBe(2); // FULL
      expect(raw.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(raw.pragma('busy_timeout', { simple: true })).toBe(5000);
    } finally {
      raw.close();
    }
  });

  it('the database (writer and reader) is the WAL file that the tests also use', async () => {
    const database = openDatabase({ dialect: 'sqlite', filename: path.join(dir, 'full.db') });
    try {
      const mode = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(database.db);
      expect(mode.rows[0]?.journal_mode).toBe('wal');
      await database.db.transaction().execute(async (trx) => {
        const sync = await sql<{ synchronous: number }>`pragma synchronous`.execute(trx);
        expect(sync.rows[0]?.synchronous).toBe(2);
      });
    } finally {
      await database.close();
    }
  });
});

describe('PostgreSQL, opened as production opens it', () => {
  it('is Kysely over pg.Pool as before: no group commit, no writer thread, no read versions', async () => {
    // No server is reached: the pool connects on the first query.
    const database = openDatabase({ dialect: 'postgres', url: 'postgres://nobody@127.0.0.1:9/none' });
    try {
      expect(database.dialect).toBe('postgres');
      expect(database.db.getExecutor().adapter).toBeInstanceOf(PostgresAdapter);
      expect(database.readVersion).toBeUndefined();
      expect(database.versions).toBeUndefined();
      expect(database.failure).toBeUndefined();
    } finally {
      await database.close();
    }
  });
});

describe('cached statements', () => {
  const raw = new SqliteDatabase(':memory:');
  raw.exec(`create table t (id integer primary key, name text, score real, data blob, note text);
    insert into t values (1, 'a', 1.5, x'00ff', null), (2, 'b', -2, null, 'x');`);
  const cache = withStatementCache(raw);
  afterAll(() => raw.close());

  it('answer the rows better-sqlite3 answers, built from arrays', () => {
    const queries = [
      'select * from t order by id',
      // A repeated name: the later column wins, as in better-sqlite3's own rows.
      'select id, name, score as name, \'q"uote\' as "a""b" from t order by id',
      'select count(*) as n from t where id > ?',
    ];
    for (const query of queries) {
      const params = query.includes('?') ? [0] : [];
      const expected = raw.prepare(query).all(params);
      const rows = cache.prepare(query).all(params);
      expect(rows).toEqual(expected);
      expect(rows.map((r) => Object.keys(r as object))).toEqual(expected.map((r) => Object.keys(r as object)));
    }
    // better-sqlite3 assigns such a column through the prototype setter (the value is lost); here
    // it is an own property and the prototype stays Object's.
    const [withProto] = cache.prepare('select 1 as "__proto__"').all([]) as Array<Record<string, unknown>>;
    expect(Object.getPrototypeOf(withProto)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(withProto, '__proto__')?.value).toBe(1);
    expect([...cache.prepare('select id from t order by id').iterate([])]).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('run writes, and answer RETURNING rows as objects', () => {
    const insert = cache.prepare('insert into t (id, name) values (?, ?)');
    expect(insert.reader).toBe(false);
    expect(insert.run([3, 'c']).changes).toBe(1);
    const update = cache.prepare('update t set name = ? where id = ? returning id, name');
    expect(update.reader).toBe(true);
    expect(update.readonly).toBe(false);
    expect(update.all(['d', 3])).toEqual([{ id: 3, name: 'd' }]);
    expect(() => insert.all([])).toThrow(TypeError);
  });

  it('compiles one object literal per column list', () => {
    const build = compileRowBuilder(['a', 'b', 'a']);
    expect(build([1, 2, 3])).toEqual({ a: 3, b: 2 });
  });
});
