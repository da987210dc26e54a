import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { pglitePool } from '../../test/helpers/pglite-pool.js';
import { openDatabase, postgresDatabase, type Database } from './database.js';
import { changedSomething, executeBatch } from './statement-batch.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-batch-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let files = 0;
const engines: Array<[string, () => Database]> = [
  // The group commit: the batch is one call to the writer thread.
  ['SQLite (group commit, one call)', () => openDatabase({ dialect: 'sqlite', filename: path.join(dir, `batch-${++files}.db`) })],
  // The statements one by one, on the same connection.
  ['SQLite in memory (one by one)', () => openDatabase({ dialect: 'sqlite', filename: ':memory:' })],
  ['PostgreSQL (PGlite, one by one)', () => postgresDatabase(pglitePool().pool)],
];

describe.each(engines)('a batch of statements on %s', (_name, open) => {
  let database: Database;
  let db: Kysely<any>;

  beforeAll(() => {
    database = open();
    db = database.db as unknown as Kysely<any>;
  });

  afterAll(async () => {
    await database.close();
  });

  beforeEach(async () => {
    await sql`create table items (id integer primary key, name text not null unique, stage text not null)`.execute(db);
    await sql`create table moves (id integer primary key, item integer not null, to_stage text not null)`.execute(db);
    await db.insertInto('items').values({ id: 1, name: 'a', stage: 'one' }).execute();
  });

  afterEach(async () => {
    await sql`drop table moves`.execute(db);
    await sql`drop table items`.execute(db);
  });

  const move = (from: string, to: string, moveId: number) => [
    { query: db.updateTable('items').set({ stage: to }).where('id', '=', 1).where('stage', '=', from).returningAll().compile() },
    { query: db.insertInto('moves').values({ id: moveId, item: 1, to_stage: to }).compile(), onlyIfPreviousChanged: true },
  ];
  const moves = () => db.selectFrom('moves').select(['id', 'to_stage']).orderBy('id').execute();

  it('answers each statement, and runs a follow-up only when the statement before it changed something', async () => {
    const applied = await executeBatch(db, move('one', 'two', 10));
    expect(applied[0]?.rows).toEqual([{ id: 1, name: 'a', stage: 'two' }]);
    expect(applied[1]?.numAffectedRows).toBe(1n);
    expect(changedSomething(applied[1])).toBe(true);

    // The stage moved: the UPDATE matches nothing and the INSERT is skipped.
    const stale = await executeBatch(db, move('one', 'three', 11));
    expect(stale[0]?.rows).toEqual([]);
    expect(changedSomething(stale[0])).toBe(false);
    expect(stale[1]).toBeUndefined();
    expect(await moves()).toEqual([{ id: 10, to_stage: 'two' }]);
    expect((await db.selectFrom('items').select('stage').executeTakeFirstOrThrow()).stage).toBe('two');
  });

  it('keeps nothing of a batch whose later statement fails, outside a transaction', async () => {
    await executeBatch(db, move('one', 'two', 10));
    // Move id 10 is taken: the INSERT fails after the UPDATE matched.
    await expect(executeBatch(db, move('two', 'three', 10))).rejects.toThrow();
    expect((await db.selectFrom('items').select('stage').executeTakeFirstOrThrow()).stage).toBe('two');
    expect(await moves()).toEqual([{ id: 10, to_stage: 'two' }]);
  });

  it('is part of the transaction it runs in: rolled back with it, committed with it', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await executeBatch(trx, [
          { query: trx.updateTable('items').set({ stage: 'two' }).where('id', '=', 1).returningAll().compile() },
          { query: trx.insertInto('moves').values({ id: 10, item: 1, to_stage: 'two' }).compile(), onlyIfPreviousChanged: true },
        ]);
        throw new Error('the request fails after its batch');
      }),
    ).rejects.toThrow('the request fails after its batch');
    expect(await moves()).toEqual([]);
    expect((await db.selectFrom('items').select('stage').executeTakeFirstOrThrow()).stage).toBe('one');

    await db.transaction().execute(async (trx) => {
      await trx.insertInto('moves').values({ id: 9, item: 1, to_stage: 'one' }).execute();
      await executeBatch(trx, [
        { query: trx.updateTable('items').set({ stage: 'two' }).where('id', '=', 1).returningAll().compile() },
        { query: trx.insertInto('moves').values({ id: 10, item: 1, to_stage: 'two' }).compile(), onlyIfPreviousChanged: true },
      ]);
    });
    expect(await moves()).toEqual([
      { id: 9, to_stage: 'one' },
      { id: 10, to_stage: 'two' },
    ]);
  });

  it('reads, and writes that return nothing, count as changes when they touch a row', async () => {
    const results = await executeBatch(db, [
      { query: db.updateTable('items').set({ name: 'b' }).where('id', '=', 1).compile() },
      { query: db.selectFrom('items').select('name').where('id', '=', 1).compile(), onlyIfPreviousChanged: true },
      { query: db.updateTable('items').set({ name: 'c' }).where('id', '=', 2).compile() },
      { query: db.insertInto('moves').values({ id: 1, item: 1, to_stage: 'x' }).compile(), onlyIfPreviousChanged: true },
    ]);
    expect(results[1]?.rows).toEqual([{ name: 'b' }]);
    expect(changedSomething(results[2])).toBe(false);
    expect(results[3]).toBeUndefined();
    expect(await moves()).toEqual([]);
  });
});
