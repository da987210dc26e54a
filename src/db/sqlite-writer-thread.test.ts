import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, openSqlite, type Database } from './database.js';
import { WriterStoppedError, WriterThread, type WriterThreadOptions } from './sqlite-writer-thread.js';

/** Worker-side code (the `setup` option) giving SQL a function that ends the writer thread. */
const DIE = `db.function('die', () => process.exit(7));`;
/** One that runs the worker out of heap: a death that runs no JavaScript in the worker. */
const HOG = `db.function('hog', () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); });`;
/** Makes the writer's COMMIT end the thread, the way `what` says. */
const commitDies = (what: 'exit' | 'heap') => `
  const prepare = db.prepare.bind(db);
  const hog = () => { const a = []; for (;;) a.push(new Array(1e5).fill(1)); };
  db.prepare = (text) => text === 'COMMIT' ? { run: ${what === 'exit' ? '() => process.exit(9)' : 'hog'} } : prepare(text);
`;
const SMALL_HEAP = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 24 };

describe('the SQLite writer thread, when it dies', () => {
  let dir: string;
  let file: string;
  const open: Array<{ close(): Promise<void> }> = [];

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-'));
    file = path.join(dir, 'test.db');
    openSqlite(file).close();
  });

  afterEach(async () => {
    for (const thing of open.splice(0)) await thing.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const writer = (options: WriterThreadOptions) => {
    const thread = new WriterThread(file, options);
    open.push(thread);
    return thread;
  };

  it('answers the call it was running, and every later one, with a WriterStoppedError at once', async () => {
    const stops: Error[] = [];
    const thread = writer({ setup: DIE, onStop: (error) => stops.push(error) });
    expect(thread.call([{ k: 'exec', sql: 'select 1 as one', params: [] }])).toMatchObject({ rows: [{ one: 1 }] });
    // Without the stopped word the call would wait out its 60 s and answer a timeout instead.
    expect(() => thread.call([{ k: 'exec', sql: 'select die()', params: [] }])).toThrow(WriterStoppedError);
    expect(thread.stopped).toBeInstanceOf(WriterStoppedError);
    expect(() => thread.call([{ k: 'dataVersion' }])).toThrow(WriterStoppedError);
    await expect(thread.callAsync([{ k: 'dataVersion' }])).rejects.toBeInstanceOf(WriterStoppedError);
    await new Promise((resolve) => setTimeout(resolve, 50)); // the 'exit' event
    expect(stops).toHaveLength(1);
    expect(stops[0]?.message).toMatch(/the SQLite writer has stopped/);
  });

  it('answers the call it was running with a WriterStoppedError when it runs out of heap (a death that runs no JavaScript)', async () => {
    const thread = writer({ setup: HOG, resourceLimits: SMALL_HEAP });
    // Seen from its thread's end (Linux: /proc/self/task) within a slice, not after 60 s.
    expect(() => thread.call([{ k: 'exec', sql: 'select hog()', params: [] }])).toThrow(WriterStoppedError);
    expect(() => thread.call([{ k: 'dataVersion' }])).toThrow(WriterStoppedError);
    await expect(thread.callAsync([{ k: 'dataVersion' }])).rejects.toBeInstanceOf(WriterStoppedError);
  });

  it('rejects a pending asynchronous call when it runs out of heap, and names the cause without any value', async () => {
    const stops: Error[] = [];
    const thread = writer({ setup: HOG, resourceLimits: SMALL_HEAP, onStop: (error) => stops.push(error) });
    const pending = thread.callAsync([{ k: 'exec', sql: "select hog(), 'secret-value'", params: [] }]);
    const error = await pending.then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(WriterStoppedError);
    expect((error as Error).message).toContain('ERR_WORKER_OUT_OF_MEMORY');
    expect((error as Error).message).not.toContain('secret-value');
    expect(() => thread.call([{ k: 'dataVersion' }])).toThrow(WriterStoppedError);
    expect(stops).toEqual([error]);
  });

  it('reports nothing when closed as asked', async () => {
    const stops: Error[] = [];
    const thread = new WriterThread(file, { onStop: (error) => stops.push(error) });
    await thread.close();
    expect(stops).toEqual([]);
    expect(thread.stopped).toBeUndefined();
    expect(() => thread.call([{ k: 'dataVersion' }])).toThrow('the SQLite writer is closed');
  });
});

describe('group commit, when the writer thread dies during a COMMIT', () => {
  let dir: string;
  let file: string;
  let database: Database;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-'));
    file = path.join(dir, 'test.db');
  });

  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const committedNames = () => {
    const other = new SqliteDatabase(file, { readonly: true });
    try {
      return other.prepare('select name from items order by id').pluck().all();
    } finally {
      other.close();
    }
  };

  for (const what of ['exit', 'heap'] as const) {
    it(`fails every member of the group and every later write, and reports it (${what === 'exit' ? 'process.exit' : 'out of heap'})`, async () => {
      // The table is made by another connection: the writer's own COMMIT is the one that dies.
      const setupDb = openSqlite(file);
      setupDb.exec('create table items (id integer primary key, name text not null)');
      setupDb.close();
      const reported: Error[] = [];
      database = openDatabase(
        { dialect: 'sqlite', filename: file },
        { writer: { setup: commitDies(what), resourceLimits: what === 'heap' ? SMALL_HEAP : undefined } },
      );
      database.onFailure?.((error) => reported.push(error));
      const db = database.db as unknown as Kysely<any>;
      expect(database.failure?.()).toBeUndefined();
      const results = await Promise.allSettled([
        db.insertInto('items').values({ name: 'a' }).execute(),
        db.transaction().execute(async (trx) => {
          await trx.insertInto('items').values({ name: 'b' }).execute();
        }),
        db.insertInto('items').values({ name: 'c' }).execute(),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const r of results) {
        const reason = (r as PromiseRejectedResult).reason as Error;
        expect(reason.name).toBe('GroupCommitError');
        expect(reason.cause).toBeInstanceOf(WriterStoppedError);
      }
      expect(committedNames()).toEqual([]);
      await expect(db.insertInto('items').values({ name: 'later' }).execute()).rejects.toBeInstanceOf(WriterStoppedError);
      await expect(sql`select count(*) as n from items`.execute(db)).resolves.toMatchObject({ rows: [{ n: 0 }] });
      expect(database.failure?.()).toBeInstanceOf(WriterStoppedError);
      expect(reported).toHaveLength(1);
    });
  }
});

describe('the SQLite writer thread, several requests\u2019 writes in one call (each)', () => {
  let dir: string;
  let thread: WriterThread;

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-each-'));
    const file = path.join(dir, 'test.db');
    const setupDb = openSqlite(file);
    setupDb.exec(`create table items (id integer primary key, name text not null unique);
      create trigger whole before insert on items when new.name = 'rollback-all' begin select raise(rollback, 'rolled back'); end;`);
    setupDb.close();
    thread = new WriterThread(file);
  });

  afterEach(async () => {
    await thread.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const insert = (name: string) => ({ k: 'exec' as const, sql: 'insert into items (name) values (?)', params: [name] });
  const names = () => {
    const result = thread.call([{ k: 'exec', sql: 'select name from items order by id', params: [] }]) as { rows: Array<{ name: string }> };
    return result.rows.map((r) => r.name);
  };

  it('answers each write on its own: a failing one fails alone, a batch is all or nothing', async () => {
    const outcomes = await thread.execEachAsync([{ k: 'run', sql: 'BEGIN' }], [
      insert('a'),
      insert('a'), // unique violation
      { k: 'batch', steps: [{ sql: 'insert into items (name) values (?)', params: ['b'] }, { sql: 'insert into items (name) values (?)', params: ['a'] }] },
      insert('c'),
    ]);
    expect(outcomes.map((o) => (o.ok ? 'ok' : 'skipped' in o ? 'skipped' : 'failed'))).toEqual(['ok', 'failed', 'failed', 'ok']);
    const failed = outcomes[1] as { ok: false; error: Error; inTransaction: boolean };
    expect(failed.error.message).toMatch(/UNIQUE/);
    expect(failed.inTransaction).toBe(true);
    thread.call([{ k: 'commit' }]);
    expect(names()).toEqual(['a', 'c']);
  });

  it('runs none of the later writes once SQLite has ended the transaction as a whole', async () => {
    const outcomes = await thread.execEachAsync([{ k: 'run', sql: 'BEGIN' }], [insert('x'), insert('rollback-all'), insert('y')]);
    expect(outcomes[0]).toMatchObject({ ok: true });
    expect(outcomes[1]).toMatchObject({ ok: false, inTransaction: false });
    expect(outcomes[2]).toEqual({ ok: false, skipped: true });
    // Nothing was committed, not even outside the transaction.
    expect(names()).toEqual([]);
  });

  it('commits after the writes in the same call when asked, and answers a failed COMMIT beside the outcomes', async () => {
    const done = await thread.execEachAndCommitAsync([{ k: 'run', sql: 'BEGIN' }], [insert('a'), insert('a'), insert('b')]);
    expect(done.outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(done.commitError).toBeUndefined();
    expect(thread.call([{ k: 'exec', sql: 'select 1 as one', params: [] }])).toMatchObject({ rows: [{ one: 1 }] });
    expect(names()).toEqual(['a', 'b']);
    // A deferred foreign key fails the COMMIT itself: the group is rolled back, the writer goes on.
    thread.call([{ k: 'run', sql: 'create table pets (id integer primary key, owner integer references items(id) deferrable initially deferred)' }]);
    const orphan = { k: 'exec' as const, sql: 'insert into pets (owner) values (42)', params: [] };
    const failed = await thread.execEachAndCommitAsync([{ k: 'run', sql: 'BEGIN' }], [insert('c'), orphan]);
    expect(failed.outcomes.map((o) => o.ok)).toEqual([true, true]);
    expect(failed.commitError?.message).toMatch(/FOREIGN KEY/);
    expect(names()).toEqual(['a', 'b']);
    // No COMMIT is tried once SQLite ended the transaction as a whole.
    const lost = await thread.execEachAndCommitAsync([{ k: 'run', sql: 'BEGIN' }], [insert('d'), insert('rollback-all'), insert('e')]);
    expect(lost.outcomes.map((o) => (o.ok ? 'ok' : 'skipped' in o ? 'skipped' : 'failed'))).toEqual(['ok', 'failed', 'skipped']);
    expect(lost.commitError).toBeUndefined();
    expect(names()).toEqual(['a', 'b']);
  });
});
