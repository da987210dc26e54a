import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, openSqlite } from './database.js';

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
