import type { WardenMigration } from './types.js';

/**
 * What a stored result had to cut (docs/api.md, "Bounds"): JSON `{"prompt": n, "response": n}`,
 * the original lengths of the texts kept bounded; null when nothing was cut (and for the rows
 * written before this column).
 */
export const resultBounds: WardenMigration = {
  async up(db) {
    await db.schema.alterTable('evaluation_results').addColumn('truncated', 'text').execute();
  },
};
