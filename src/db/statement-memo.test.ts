import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './database.js';
import { createStatementMemo } from './statement-memo.js';

let database: Database;
let db: Kysely<any>;

beforeAll(async () => {
  database = openDatabase({ dialect: 'sqlite', filename: ':memory:' });
  db = database.db as unknown as Kysely<any>;
  await sql`create table notes (id text primary key, body text, stage text, flag integer, owner text)`.execute(db);
});
afterAll(async () => database.close());

/** What Kysely itself compiles for these values (the reference every memoised statement must equal). */
const fresh = (query: { compile(): { sql: string; parameters: readonly unknown[] } }) => {
  const { sql: text, parameters } = query.compile();
  return { sql: text, parameters };
};
const plain = (query: { sql: string; parameters: readonly unknown[] }) => ({ sql: query.sql, parameters: query.parameters });

describe('createStatementMemo', () => {
  it('compiles each shape once and then binds new values exactly as Kysely would', () => {
    const memo = createStatementMemo();
    const update = (v: { patch: Record<string, unknown>; id: unknown; stage: unknown }) =>
      db.updateTable('notes').set(v.patch).where('id', '=', v.id).where('stage', '=', v.stage).returningAll();
    const calls: Array<{ patch: Record<string, unknown>; id: unknown; stage: unknown }> = [
      { patch: { body: 'a', stage: 'tested' }, id: 'n1', stage: 'registered' },
      { patch: { body: 'b', stage: 'hardened' }, id: 'n2', stage: 'tested' },
      { patch: { stage: 'trusted', body: 'c' }, id: 'n3', stage: 'hardened' }, // other key order: other shape
      { patch: { body: 'd', stage: undefined }, id: 'n4', stage: 'tested' }, // undefined: left out, as Kysely does
      { patch: { body: null, stage: 'tested' }, id: 'n5', stage: 'registered' }, // null bound
      { patch: { body: 'e', stage: 'tested' }, id: 'n6', stage: 'x' },
    ];
    let built = 0;
    for (const values of calls) {
      const compiled = memo.compile(db, 'update', values, (v) => {
        built++;
        return update(v);
      });
      expect(plain(compiled)).toEqual(fresh(update(values)));
    }
    // Four shapes: {body, stage}, {stage, body}, {body}, {body=null, stage}; the other two calls reused theirs.
    expect(built).toBe(4);
  });

  it('keeps null and booleans in the shape where Kysely writes them into the SQL', () => {
    const memo = createStatementMemo();
    const find = (v: { flag: unknown; owner: unknown }) => db.selectFrom('notes').select('id').where('flag', 'is', v.flag).where('owner', 'is not', v.owner);
    for (const values of [
      { flag: null, owner: 'o1' },
      { flag: true, owner: null },
      { flag: false, owner: 'o2' },
      { flag: null, owner: 'o3' },
      { flag: 1, owner: null },
    ]) {
      expect(plain(memo.compile(db, 'find', values, find))).toEqual(fresh(find(values)));
    }
  });

  it('builds as usual for lists and expressions, which change the SQL', () => {
    const memo = createStatementMemo();
    const byIds = (v: { ids: unknown }) => db.selectFrom('notes').select('id').where('id', 'in', v.ids as string[]);
    for (const ids of [['a'], ['a', 'b', 'c'], ['d', 'e']]) expect(plain(memo.compile(db, 'byIds', { ids }, byIds))).toEqual(fresh(byIds({ ids })));
    const set = (v: { patch: Record<string, unknown> }) => db.updateTable('notes').set(v.patch).where('id', '=', 'n1');
    for (const body of ['plain', sql<string>`upper(${'x'})`, 'plain again']) {
      expect(plain(memo.compile(db, 'set', { patch: { body } }, set))).toEqual(fresh(set({ patch: { body } })));
    }
  });

  it('drops NUL from what a write stores, as the plugin does, and leaves a read\u2019s values alone', async () => {
    const memo = createStatementMemo();
    const insert = (v: { row: Record<string, unknown> }) => db.insertInto('notes').values(v.row);
    for (const id of ['nul-1', 'nul-2']) await db.executeQuery(memo.compile(db, 'insert', { row: { id, body: `a\u0000b-${id}` } }, insert));
    const read = (v: { body: unknown }) => db.selectFrom('notes').select('id').where('body', '=', v.body);
    const compiled = memo.compile(db, 'read', { body: 'a\u0000b-nul-2' }, read);
    expect(compiled.parameters).toEqual(['a\u0000b-nul-2']);
    expect((await db.executeQuery(compiled)).rows).toEqual([]);
    expect((await db.executeQuery(memo.compile(db, 'read', { body: 'ab-nul-2' }, read))).rows).toEqual([{ id: 'nul-2' }]);
    expect((await db.selectFrom('notes').select('body').where('id', 'like', 'nul-%').orderBy('id').execute()).map((r) => r.body)).toEqual([
      'ab-nul-1',
      'ab-nul-2',
    ]);
  });
});
