import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import SqliteDatabase from 'better-sqlite3';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerErrorHandling } from '../http/error-handler.js';
import { classifyDriverError } from './errors.js';

/** The error a statement really raises, from the real driver (not a hand-made object). */
function sqliteError(db: SqliteDatabase.Database, statement: string): unknown {
  try {
    db.exec(statement);
  } catch (error) {
    return error;
  }
  throw new Error(`no error from: ${statement}`);
}

async function pgError(pg: PGlite, statement: string): Promise<unknown> {
  try {
    await pg.exec(statement);
  } catch (error) {
    return error;
  }
  throw new Error(`no error from: ${statement}`);
}

describe('driver errors classified by code: SQLite (better-sqlite3)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-errors-'));
  const file = path.join(dir, 'errors.db');
  const db = new SqliteDatabase(file);
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec('create table p (id integer primary key, name text not null unique); create table c (p_id integer references p(id))');
  db.exec("insert into p values (1, 'a')");
  afterAll(() => {
    db.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('unique, primary key, foreign key and not-null violations', () => {
    expect(classifyDriverError(sqliteError(db, "insert into p values (2, 'a')"))).toBe('unique_violation');
    expect(classifyDriverError(sqliteError(db, "insert into p values (1, 'b')"))).toBe('unique_violation');
    expect(classifyDriverError(sqliteError(db, 'insert into c values (99)'))).toBe('foreign_key_violation');
    expect(classifyDriverError(sqliteError(db, 'insert into p values (3, null)'))).toBe('not_null_violation');
  });

  it('a database another connection holds the write lock of is busy: retryable', () => {
    const other = new SqliteDatabase(file);
    other.pragma('busy_timeout = 0');
    db.exec('begin immediate');
    try {
      const error = sqliteError(other, "insert into p values (5, 'e')");
      expect((error as { code: string }).code).toMatch(/^SQLITE_BUSY/);
      expect(classifyDriverError(error)).toBe('retryable');
    } finally {
      db.exec('rollback');
      other.close();
    }
  });
});

describe('driver errors classified by code: PostgreSQL (PGlite, the same SQLSTATEs as pg)', () => {
  let pg: PGlite;
  beforeAll(async () => {
    pg = new PGlite();
    await pg.exec("create table t (id int primary key, name varchar(4) not null, n int, doc jsonb); insert into t values (1, 'a', 0, null)");
  });
  afterAll(async () => pg.close());

  it('string too long (22001), not null (23502), unique (23505), out of range (22003)', async () => {
    expect(classifyDriverError(await pgError(pg, "insert into t values (2, 'too long')"))).toBe('too_long');
    expect(classifyDriverError(await pgError(pg, 'insert into t values (2, null)'))).toBe('not_null_violation');
    expect(classifyDriverError(await pgError(pg, "insert into t values (1, 'b')"))).toBe('unique_violation');
    expect(classifyDriverError(await pgError(pg, "insert into t values (3, 'c', 9999999999)"))).toBe('out_of_range');
  });

  it('text the database cannot store: bad encoding (22021), NUL in jsonb (22P05)', async () => {
    expect(classifyDriverError(await pgError(pg, "select convert_from('\\xff'::bytea, 'UTF8')"))).toBe('bad_text');
    expect(classifyDriverError(await pgError(pg, `insert into t values (4, 'd', 0, '"\\u0000"')`))).toBe('bad_text');
  });

  it('serialization failure (40001) and deadlock (40P01) are retryable', async () => {
    for (const state of ['40001', '40P01']) {
      const error = await pgError(pg, `do $$ begin raise exception 'lost a race' using errcode = '${state}'; end $$`);
      expect((error as { code: string }).code).toBe(state);
      expect(classifyDriverError(error)).toBe('retryable');
    }
  });

  it('anything else is not classified (a bug, answered 500)', async () => {
    expect(classifyDriverError(await pgError(pg, 'select * from no_such_table'))).toBeUndefined();
    expect(classifyDriverError(new Error('plain'))).toBeUndefined();
    expect(classifyDriverError(null)).toBeUndefined();
  });
});

describe('the answers of classified driver errors', () => {
  const app = Fastify();
  registerErrorHandling(app);
  app.get('/fail/:code', async (request) => {
    throw Object.assign(new Error('driver error'), { code: (request.params as { code: string }).code });
  });
  afterAll(async () => app.close());

  it.each([
    ['40P01', 503],
    ['40001', 503],
    ['SQLITE_BUSY', 503],
    ['22001', 422],
    ['22021', 422],
    ['23502', 422],
    ['23505', 409],
    ['23503', 404],
    ['XX000', 500],
  ])('%s → %i', async (code, status) => {
    const res = await app.inject({ method: 'GET', url: `/fail/${code}` });
    expect(res.statusCode).toBe(status);
    const body = res.json();
    if (status === 422) expect(body.detail[0].loc).toEqual(['body']);
    else expect(typeof body.detail).toBe('string');
    if (status === 503) expect(res.headers['retry-after']).toBe('1');
    expect(res.body).not.toContain('driver error');
  });
});
