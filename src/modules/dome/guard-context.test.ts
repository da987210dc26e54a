import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import { createGuardContexts } from './guard-context.js';

/** A SQLite driver that answers every query with `rows()` and counts them. */
function fakeDatabase(rows: () => Array<Record<string, unknown>>) {
  const reads: string[] = [];
  const prepare = (sql: string) => ({
    reader: true,
    readonly: true,
    all: () => {
      reads.push(sql);
      return rows();
    },
    run: () => ({ changes: 0, lastInsertRowid: 0 }),
    iterate: function* () {
      yield* [];
    },
  });
  return { db: new Kysely<DB>({ dialect: new SqliteDialect({ database: { prepare, close: () => {} } }) }), reads };
}

const rule = (id: string) => ({ id, policy_id: 'p', rule_type: 'prohibition', natural_language: `rule ${id}` });

describe('guard contexts: the team’s approved rules', () => {
  it('are read once per version of policy_rules, and again at the scan after a commit moves it', async () => {
    let rows = [rule('r1')];
    const { db, reads } = fakeDatabase(() => rows);
    let version = 1;
    const asked: Array<readonly string[] | undefined> = [];
    const contexts = createGuardContexts({
      db,
      llm: undefined,
      readVersion: (tables) => {
        asked.push(tables);
        return String(version);
      },
    });
    for (let i = 0; i < 3; i++) expect((await contexts.forScan('t1', true)).policyRules?.map((r) => r.id)).toEqual(['r1']);
    expect(reads).toHaveLength(1);
    expect(asked.at(-1)).toEqual(['policy_rules']);
    // Another team's rules are kept apart.
    await contexts.forScan('t2', true);
    expect(reads).toHaveLength(2);
    rows = [rule('r1'), rule('r2')];
    version++;
    expect((await contexts.forScan('t1', true)).policyRules?.map((r) => r.id)).toEqual(['r1', 'r2']);
    expect(reads).toHaveLength(3);
    // A configuration without policy-sections reads nothing.
    await contexts.forScan('t1', false);
    expect(reads).toHaveLength(3);
  });

  it('are read at every scan without a read version (PostgreSQL)', async () => {
    const { db, reads } = fakeDatabase(() => [rule('r1')]);
    const contexts = createGuardContexts({ db, llm: undefined });
    await contexts.forScan('t1', true);
    await contexts.forScan('t1', true);
    expect(reads).toHaveLength(2);
  });
});
