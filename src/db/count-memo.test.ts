import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import { countRows, createCountMemo } from './count-memo.js';

/** A count statement that says how often it ran. */
function countQuery(sql: string, parameters: unknown[], answer: () => number) {
  let runs = 0;
  return {
    runs: () => runs,
    compile: () => ({ sql, parameters }),
    executeTakeFirstOrThrow: async () => {
      runs++;
      return { n: answer() };
    },
  };
}

const outside = { isTransaction: false } as Kysely<any>;
const inside = { isTransaction: true } as Kysely<any>;

describe('countRows', () => {
  it('runs a count once per read version and statement, and again once the version moves', async () => {
    let version = 1;
    let rows = 10;
    const memo = createCountMemo(() => String(version));
    const query = countQuery('select count(*) as "n" from "t" where "a" = ?', ['x'], () => rows);
    expect(await countRows(outside, query, memo)).toBe(10);
    expect(await countRows(outside, query, memo)).toBe(10);
    expect(query.runs()).toBe(1);
    rows = 11;
    version++;
    expect(await countRows(outside, query, memo)).toBe(11);
    expect(query.runs()).toBe(2);
  });

  it('keeps counts of other parameters apart', async () => {
    const memo = createCountMemo(() => '1');
    const a = countQuery('select count(*) as "n" from "t" where "a" = ?', ['a'], () => 1);
    const b = countQuery('select count(*) as "n" from "t" where "a" = ?', ['b'], () => 2);
    expect(await countRows(outside, a, memo)).toBe(1);
    expect(await countRows(outside, b, memo)).toBe(2);
  });

  it('always runs inside a transaction, and without a memo (PostgreSQL)', async () => {
    const memo = createCountMemo(() => '1');
    const query = countQuery('select count(*) as "n" from "t"', [], () => 3);
    await countRows(inside, query, memo);
    await countRows(inside, query, memo);
    await countRows(outside, query, undefined);
    expect(query.runs()).toBe(3);
    expect(createCountMemo(undefined)).toBeUndefined();
  });
});
