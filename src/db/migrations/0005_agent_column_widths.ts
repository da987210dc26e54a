import type { WardenMigration } from './types.js';

/**
 * Columns of 0002 that were narrower than what the API accepts, which PostgreSQL enforced
 * (a 500) and SQLite did not (docs/decisions.md, "Agents"):
 * - `rate_limit_requests_per_minute` accepts any integer up to 2^53 − 1 (the reference sets no
 *   maximum), which outgrows int4;
 * - `test_score` is stored normalised: a decimal string of 64 characters may grow by one
 *   (".5" → "0.5"), and a JSON number prints with up to 309 digits (1e308).
 * SQLite's `integer` is already 64-bit and it does not enforce varchar lengths.
 */
export const agentColumnWidths: WardenMigration = {
  async up(db, dialect) {
    if (dialect !== 'postgres') return;
    await db.schema
      .alterTable('agents')
      .alterColumn('rate_limit_requests_per_minute', (c) => c.setDataType('bigint'))
      .execute();
    await db.schema
      .alterTable('agents')
      .alterColumn('test_score', (c) => c.setDataType('text'))
      .execute();
  },
};
