import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { sql, type Kysely } from 'kysely';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { countRows, createCountMemo } from '../src/db/count-memo.js';
import { buildApp } from '../src/app.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { WriterStoppedError, WriterThread } from '../src/db/sqlite-writer-thread.js';
import { executeBatch } from '../src/db/statement-batch.js';
import { TABLE_CACHING } from '../src/modules/tables.js';
import { testAppOptions, TestClock } from './helpers/app.js';

// Group commit (src/db/sqlite-group-commit.ts) on a SQLite file: SQLite only (vitest.config.ts).
describe('SQLite group commit', () => {
  let dir: string;
  let file: string;
  let database: Database;
  let db: Kysely<any>;

  beforeEach(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-group-'));
    file = path.join(dir, 'test.db');
    database = openDatabase({ dialect: 'sqlite', filename: file }, { tables: { items: 'data', sessions: 'identity' } });
    db = database.db as unknown as Kysely<any>;
    await sql`create table items (id integer primary key, name text not null unique, n integer not null default 0)`.execute(db);
  });

  afterEach(async () => {
    await database.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  /** What another process would find in the file right now: committed data only. */
  const committedNames = () => {
    const other = new SqliteDatabase(file, { readonly: true });
    try {
      return (other.prepare('select name from items order by id').pluck().all() as string[]).sort();
    } finally {
      other.close();
    }
  };

  it('acknowledges a write only once it is committed', async () => {
    await db.insertInto('items').values({ name: 'a' }).execute();
    expect(committedNames()).toEqual(['a']);
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'b' }).execute();
      await trx.insertInto('items').values({ name: 'c' }).execute();
    });
    expect(committedNames()).toEqual(['a', 'b', 'c']);
  });

  it('commits hundreds of concurrent writes and transactions, each durable when acknowledged', async () => {
    const acknowledged: string[] = [];
    const work = Array.from({ length: 300 }, (_, i) => {
      const name = `item-${i}`;
      const write =
        i % 2 === 0
          ? db.insertInto('items').values({ name }).execute()
          : db.transaction().execute(async (trx) => {
              await trx.insertInto('items').values({ name }).execute();
              await trx.updateTable('items').set({ n: 1 }).where('name', '=', name).execute();
            });
      return write.then(() => {
        // Every acknowledged write is already in the file, as another process sees it.
        expect(committedNames()).toContain(name);
        acknowledged.push(name);
      });
    });
    await Promise.all(work);
    expect(acknowledged).toHaveLength(300);
    expect(committedNames()).toHaveLength(300);
  });

  it('rolls back a failing transaction alone, while the rest of its group commits', async () => {
    await db.insertInto('items').values({ name: 'taken' }).execute();
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'before' }).execute(),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'half' }).execute();
        await trx.insertInto('items').values({ name: 'taken' }).execute(); // unique violation
      }),
      db.insertInto('items').values({ name: 'taken' }).execute(), // a failing single statement
      db.insertInto('items').values({ name: 'after' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect(committedNames()).toEqual(['after', 'before', 'taken']);
  });

  it("sends one turn's writes outside transactions to the writer in one call, each on its own", async () => {
    await db.insertInto('items').values({ name: 'taken' }).execute();
    const calls = vi.spyOn(WriterThread.prototype, 'execEachAndCommitAsync');
    const handOffs = vi.spyOn(WriterThread.prototype, 'callAsync');
    try {
      const writes = [
        ...Array.from({ length: 12 }, (_, i) => db.insertInto('items').values({ name: `single-${i}` }).execute()),
        db.insertInto('items').values({ name: 'taken' }).execute(), // unique violation: fails alone
        // A batch whose second statement fails: neither of its statements is kept.
        executeBatch(db, [
          { query: db.insertInto('items').values({ name: 'batch-half' }).compile() },
          { query: db.insertInto('items').values({ name: 'taken' }).compile() },
        ]),
        // A batch whose follow-up runs only if its UPDATE matched.
        executeBatch(db, [
          { query: db.updateTable('items').set({ n: 5 }).where('name', '=', 'taken').returning('name').compile() },
          { query: db.insertInto('items').values({ name: 'follow-up' }).compile(), onlyIfPreviousChanged: true },
        ]),
      ];
      const results = await Promise.allSettled(writes);
      expect(results.map((r) => r.status)).toEqual([...Array<string>(12).fill('fulfilled'), 'rejected', 'rejected', 'fulfilled']);
      expect(String((results[12] as PromiseRejectedResult).reason)).toMatch(/UNIQUE/);
      const batch = (results[14] as PromiseFulfilledResult<Array<{ rows: unknown[] } | undefined>>).value;
      expect(batch[0]?.rows).toEqual([{ name: 'taken' }]);
      expect(batch[1]).toBeDefined();
      // Every write above went to the writer in one call (one turn of the event loop), and
      // with no group open they made a group of their own, committed in that same call.
      expect(calls).toHaveBeenCalledTimes(1);
      expect(calls.mock.calls[0]![1]).toHaveLength(15);
      expect(handOffs).toHaveBeenCalledTimes(1);
    } finally {
      calls.mockRestore();
      handOffs.mockRestore();
    }
    expect(committedNames()).toEqual(['follow-up', ...Array.from({ length: 12 }, (_, i) => `single-${i}`), 'taken'].sort());
    expect(await db.selectFrom('items').select('n').where('name', '=', 'taken').executeTakeFirst()).toEqual({ n: 5 });
  });

  it('never lets a read see a write that is not yet committed', async () => {
    let inside!: () => void;
    const reachedInside = new Promise<void>((resolve) => (inside = resolve));
    let proceed!: () => void;
    const mayCommit = new Promise<void>((resolve) => (proceed = resolve));
    const writer = db.transaction().execute(async (trx) => {
      await trx.insertInto('items').values({ name: 'pending' }).execute();
      inside();
      await mayCommit;
    });
    await reachedInside;
    expect(await db.selectFrom('items').select('name').execute()).toEqual([]);
    proceed();
    await writer;
    expect(await db.selectFrom('items').select('name').execute()).toEqual([{ name: 'pending' }]);
  });

  it('never answers a stale memoised count, whoever wrote', async () => {
    const memo = createCountMemo(database.readVersion);
    const count = () => countRows(db, db.selectFrom('items').select((eb) => eb.fn.countAll().as('n')), memo);
    expect(await count()).toBe(0);
    expect(await count()).toBe(0);
    await db.insertInto('items').values({ name: 'one' }).execute();
    expect(await count()).toBe(1);
    const other = new SqliteDatabase(file);
    other.prepare("insert into items (name) values ('two')").run();
    other.close();
    expect(await count()).toBe(2);
    await db.deleteFrom('items').execute();
    expect(await count()).toBe(0);
  });

  it('moves the identity version only for identity tables, unclassified tables, or another process', async () => {
    await sql`create table sessions (id text primary key)`.execute(db);
    await sql`create table findings (id text primary key)`.execute(db);
    const versions = database.versions as NonNullable<typeof database.versions>;
    const identityVersion = () => versions().identity;
    const v0 = identityVersion();
    await db.insertInto('items').values({ name: 'not identity' }).execute();
    expect(identityVersion()).toBe(v0);
    await db.insertInto('sessions').values({ id: 's1' }).execute();
    const v1 = identityVersion();
    expect(v1).not.toBe(v0);
    await db.insertInto('findings').values({ id: 'f1' }).execute(); // no rule names it: the safe side
    expect(identityVersion()).not.toBe(v1);
    const other = new SqliteDatabase(file);
    const v2 = identityVersion();
    other.prepare("insert into items (name) values ('elsewhere')").run();
    other.close();
    expect(identityVersion()).not.toBe(v2);
  });

  it('changes the read version after every acknowledged write, by this process or another', async () => {
    const readVersion = database.readVersion as () => string;
    const v0 = readVersion();
    expect(readVersion()).toBe(v0);
    await db.insertInto('items').values({ name: 'x' }).execute();
    const v1 = readVersion();
    expect(v1).not.toBe(v0);
    const other = new SqliteDatabase(file);
    other.prepare("insert into items (name) values ('from another process')").run();
    other.close();
    expect(readVersion()).not.toBe(v1);
  });

  it("moves a table's version only for writes that may change it: its own, a cascade into it, unknown writes, other processes", async () => {
    await sql`create table parents (id integer primary key)`.execute(db);
    await sql`create table children (id integer primary key, parent integer references parents(id) on delete cascade)`.execute(db);
    await sql`create table loose (id integer primary key, parent integer references parents(id))`.execute(db);
    const versions = database.versions as NonNullable<typeof database.versions>;
    const of = (table: string) => database.readVersion?.([table]);
    const v0 = { items: of('items'), children: of('children'), loose: of('loose') };
    await db.insertInto('items').values({ name: 'x' }).execute();
    expect(of('items')).not.toBe(v0.items);
    expect(of('children')).toBe(v0.children);
    expect(versions().tables?.(['children'])).toBe(v0.children);
    // parents' deletes cascade into children: a write to parents moves children, not loose.
    await db.insertInto('parents').values({ id: 1 }).execute();
    const v1 = { items: of('items'), children: of('children'), loose: of('loose') };
    expect(v1.children).not.toBe(v0.children);
    expect(v1.loose).toBe(v0.loose);
    expect(v1.items).toBe(of('items'));
    // A write whose table the driver cannot tell moves every table.
    await sql`update items set n = n + 1`.execute(db);
    const v2 = { items: of('items'), children: of('children'), loose: of('loose') };
    expect(v2.items).not.toBe(v1.items);
    expect(v2.loose).not.toBe(v1.loose);
    // So does any commit of another process.
    const other = new SqliteDatabase(file);
    other.prepare('insert into loose (id) values (7)').run();
    other.close();
    expect(of('children')).not.toBe(v2.children);
    expect(of('items')).not.toBe(v2.items);
  });

  it('fails every member of a group whose COMMIT fails, and acknowledges none', async () => {
    // A deferred foreign key is checked by COMMIT itself: the group's COMMIT fails.
    await sql`create table owners (id integer primary key)`.execute(db);
    await sql`create table pets (id integer primary key, owner integer references owners(id) deferrable initially deferred)`.execute(db);
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'innocent' }).execute(),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'bystander' }).execute();
      }),
      db.insertInto('pets').values({ id: 1, owner: 42 }).execute(), // no owner 42: COMMIT fails
      db.insertInto('items').values({ name: 'late' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'rejected']);
    for (const r of results) expect((r as PromiseRejectedResult).reason.name).toBe('GroupCommitError');
    expect(committedNames()).toEqual([]);
    // The writer goes on: the next group commits.
    await db.insertInto('items').values({ name: 'after' }).execute();
    expect(committedNames()).toEqual(['after']);
  });

  it('fails every write of a group of writes alone (committed in the same call) whose COMMIT fails', async () => {
    await sql`create table owners (id integer primary key)`.execute(db);
    await sql`create table pets (id integer primary key, owner integer references owners(id) deferrable initially deferred)`.execute(db);
    const folded = vi.spyOn(WriterThread.prototype, 'execEachAndCommitAsync');
    try {
      const results = await Promise.allSettled([
        db.insertInto('items').values({ name: 'innocent' }).execute(),
        db.insertInto('pets').values({ id: 1, owner: 42 }).execute(), // no owner 42: COMMIT fails
        db.insertInto('items').values({ name: 'taken-by-none' }).returning('name').execute(),
      ]);
      expect(folded).toHaveBeenCalledTimes(1);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
      for (const r of results) expect((r as PromiseRejectedResult).reason.name).toBe('GroupCommitError');
    } finally {
      folded.mockRestore();
    }
    expect(committedNames()).toEqual([]);
    const before = database.readVersion?.();
    await db.insertInto('items').values({ name: 'after' }).execute();
    expect(committedNames()).toEqual(['after']);
    expect(database.readVersion?.()).not.toBe(before);
  });

  it('fails the writes before the one that makes SQLite roll back a group of writes alone, and runs those after it in the next group', async () => {
    await sql`create trigger whole_group before insert on items when new.name = 'rollback-all' begin select raise(rollback, 'rolled back'); end`.execute(db);
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'innocent' }).execute(),
      db.insertInto('items').values({ name: 'rollback-all' }).execute(),
      db.insertInto('items').values({ name: 'late' }).execute(),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason.name).toBe('GroupCommitError');
    expect((results[1] as PromiseRejectedResult).reason.message).toBe('rolled back');
    expect(committedNames()).toEqual(['late']);
  });

  it('fails every member of a group that SQLite rolls back as a whole, acknowledges none, and goes on', async () => {
    // RAISE(ROLLBACK) ends the whole transaction, as SQLite does itself on a full disk or an
    // I/O error: the members that ran before it in the group were rolled back with it.
    await sql`create trigger whole_group before insert on items when new.name = 'rollback-all' begin select raise(rollback, 'rolled back'); end`.execute(db);
    const before = database.readVersion?.();
    const results = await Promise.allSettled([
      db.insertInto('items').values({ name: 'innocent' }).execute(),
      db.transaction().execute(async (trx) => {
        await trx.insertInto('items').values({ name: 'bystander' }).execute();
      }),
      db.insertInto('items').values({ name: 'rollback-all' }).execute(),
      db.insertInto('items').values({ name: 'late' }).execute(), // runs in the next group
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected', 'fulfilled']);
    expect((results[0] as PromiseRejectedResult).reason.name).toBe('GroupCommitError');
    expect((results[1] as PromiseRejectedResult).reason.name).toBe('GroupCommitError');
    expect((results[2] as PromiseRejectedResult).reason.message).toBe('rolled back');
    expect(committedNames()).toEqual(['late']);
    expect(database.readVersion?.()).not.toBe(before);
    expect(await db.selectFrom('items').select('name').execute()).toEqual([{ name: 'late' }]);
  });

  it('keeps the event loop turning while a group commits (the fsync runs in the writer thread)', async () => {
    await sql`create table big (id integer primary key, data blob not null)`.execute(db);
    // 16 MiB to write and sync: the COMMIT waits for the disk for many milliseconds.
    const data = Buffer.alloc(16 * 1024 * 1024, 7);
    let turns = 0;
    let turning = true;
    const spin = () => {
      turns++;
      if (turning) setImmediate(spin);
    };
    let ticksDuringWrite = -1;
    const write = db
      .insertInto('big')
      .values({ id: 1, data })
      .execute()
      .then(() => {
        ticksDuringWrite = turns;
      });
    setImmediate(spin);
    await write;
    turning = false;
    // On the event loop, the COMMIT would hold it for the whole sync: no turn in between.
    expect(ticksDuringWrite).toBeGreaterThan(10);
    const stored = await db.selectFrom('big').select('data').executeTakeFirstOrThrow();
    expect(Buffer.isBuffer(stored.data) && stored.data.length).toBe(data.length);
  });

  it('keeps the event loop turning while a big statement runs in the writer (a telemetry batch), inside a transaction', async () => {
    await sql`create table spans (id integer primary key, name text not null)`.execute(db);
    const rows = JSON.stringify(Array.from({ length: 200_000 }, (_, i) => ({ id: i + 1, name: `span ${i} of a long batch` })));
    let turns = 0;
    let turning = true;
    const spin = () => {
      turns++;
      if (turning) setImmediate(spin);
    };
    let turnsDuringStatement = -1;
    await db.transaction().execute(async (trx) => {
      const before = turns;
      setImmediate(spin);
      await sql`insert into spans (id, name) select json_extract(value, '$.id'), json_extract(value, '$.name') from json_each(${rows})`.execute(trx);
      turnsDuringStatement = turns - before;
      turning = false;
    });
    // Waited for synchronously, the statement (hundreds of milliseconds) would allow no turn at all.
    expect(turnsDuringStatement).toBeGreaterThan(10);
    expect(Number((await sql<{ n: number }>`select count(*) as n from spans`.execute(db)).rows[0]!.n)).toBe(200_000);
  });

  it('reads both versions at once, the read version as readVersion gives it', async () => {
    const versions = database.versions as NonNullable<typeof database.versions>;
    const readVersion = database.readVersion as () => string;
    const before = versions();
    expect(before.read).toBe(readVersion());
    await db.insertInto('items').values({ name: 'y' }).execute();
    const after = versions();
    expect(after.read).not.toBe(before.read);
    expect(after.identity).toBe(before.identity);
    expect(after.read).toBe(readVersion());
  });
});

// The service whose SQLite writer thread dies (src/db/sqlite-writer-thread.ts): it says so.
describe('the service, when its SQLite writer thread dies', () => {
  it('answers /healthz 503 with the reason, logs it once, fails writes at once and still reads', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-writer-death-'));
    // An SQL function that ends the worker: the writer's injectable `setup` (tests only).
    const database = openDatabase(
      { dialect: 'sqlite', filename: path.join(dir, 'warden.db') },
      { tables: TABLE_CACHING, writer: { setup: `db.function('die', () => process.exit(7));` } },
    );
    const lines: string[] = [];
    try {
      await migrateToLatest(database.db, database.dialect);
      const app = await buildApp({
        ...testAppOptions(database, new TestClock()),
        logger: { level: 'error', stream: { write: (line: string) => void lines.push(line) } },
      });
      try {
        expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
        const dying = database.db.transaction().execute((trx) => sql`select die()`.execute(trx));
        await expect(dying).rejects.toBeInstanceOf(WriterStoppedError);
        const health = await app.inject({ method: 'GET', url: '/healthz' });
        expect(health.statusCode).toBe(503);
        expect(health.json()).toEqual({ status: 'failing', reason: expect.stringMatching(/^the SQLite writer has stopped/) });
        await expect(database.db.insertInto('teams').values({ id: 'x', name: 'x' } as never).execute()).rejects.toBeInstanceOf(WriterStoppedError);
        await expect(sql`select count(*) as n from teams`.execute(database.db)).resolves.toBeDefined();
        await new Promise((resolve) => setTimeout(resolve, 50)); // the worker's 'exit' event
        const logged = lines.filter((line) => line.includes('the database can no longer write'));
        expect(logged).toHaveLength(1);
      } finally {
        await app.close();
      }
    } finally {
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
