import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';

/** Statements on a table of the test's own, through the same Kysely instance the service uses. */
let database: Database;
let db: Kysely<any>;

beforeAll(async () => {
  database = openDatabase({ dialect: 'sqlite', filename: ':memory:' });
  db = database.db as unknown as Kysely<any>;
  await sql`create table notes (id integer primary key, body text, tags text)`.execute(db);
});
afterAll(async () => database.close());

const bodies = async () => (await db.selectFrom('notes').select(['body', 'tags']).orderBy('id').execute()).map((r) => [r.body, r.tags]);

describe('NulFreeText', () => {
  it('drops NUL from the text of inserts, updates and raw statements, and leaves JSON escapes and other text alone', async () => {
    await db.insertInto('notes').values([{ id: 1, body: 'a\u0000b', tags: JSON.stringify(['x\u0000y']) }, { id: 2, body: '\u0000', tags: null }]).execute();
    await sql`insert into notes (id, body) values (${3}, ${'raw\u0000text'})`.execute(db);
    await db.updateTable('notes').set({ tags: 'up\u0000dated' }).where('id', '=', 2).execute();
    await db.insertInto('notes').values({ id: 4, body: 'back\\u0000slash' }).onConflict((oc) => oc.column('id').doUpdateSet({ body: 'no' })).execute();
    expect(await bodies()).toEqual([
      ['ab', '["x\\u0000y"]'],
      ['', 'updated'],
      ['rawtext', null],
      ['back\\u0000slash', null],
    ]);
  });

  it('leaves the parameters of reads as they are', async () => {
    const found = await db.selectFrom('notes').select('id').where('body', '=', 'a\u0000b').execute();
    expect(found).toEqual([]);
  });
});
