import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { identityWrites, writtenTable } from './table-caching.js';

// Compiling needs no connection: the dialects' drivers are never asked for one.
const sqlite = new Kysely<any>({ dialect: new SqliteDialect({ database: {} as never }) });
const postgres = new Kysely<any>({ dialect: new PostgresDialect({ pool: {} as never }) });

describe('writtenTable', () => {
  for (const db of [sqlite, postgres]) {
    it('names the table of an insert, an update and a delete', () => {
      expect(writtenTable(db.insertInto('sessions').values({ id: 'x' }).compile().query)).toBe('sessions');
      expect(writtenTable(db.updateTable('agents').set({ name: 'x' }).where('id', '=', 'y').returningAll().compile().query)).toBe('agents');
      expect(writtenTable(db.deleteFrom('policy_rules').where('id', '=', 'y').compile().query)).toBe('policy_rules');
    });

    it('names none for raw SQL, a CTE, a join, several tables or a read', () => {
      expect(writtenTable(sql`delete from agents`.compile(db).query)).toBeUndefined();
      const withCte = db.with('gone', (q) => q.deleteFrom('sessions').returning('id')).insertInto('agents').values({ id: 'x' });
      expect(writtenTable(withCte.compile().query)).toBeUndefined();
      expect(writtenTable(db.updateTable('agents').from('teams').set({ name: 'x' }).compile().query)).toBeUndefined();
      expect(writtenTable(db.deleteFrom(['agents', 'teams']).compile().query)).toBeUndefined();
      expect(writtenTable(db.selectFrom('agents').selectAll().compile().query)).toBeUndefined();
    });
  }
});

describe('identityWrites', () => {
  const moves = identityWrites({ sessions: 'identity', agents: 'data' });

  it('moves the identity version for identity tables, unknown tables and unknown writes, not for data tables', () => {
    expect(moves('sessions')).toBe(true);
    expect(moves('agents')).toBe(false);
    expect(moves('findings')).toBe(true);
    expect(moves(undefined)).toBe(true);
    expect(moves('__proto__')).toBe(true);
  });

  it('moves it for every write without rules', () => {
    expect(identityWrites(undefined)('agents')).toBe(true);
  });
});
