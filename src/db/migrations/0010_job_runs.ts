import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

/**
 * Jobs (docs/jobs.md): the fence of a run, the attempt budget counted in a row, and fair claiming.
 * - `claims`: how many times the job was claimed; the claim number is the run's fence, checked
 *   in the same transaction as every write of the run (a run given back and claimed again, even
 *   by the same worker, is a new run);
 * - `strikes`: runs in a row interrupted without progress (the attempt budget), and
 *   `progress_best`, the highest progress the job reported (going past it is progress);
 * - `deferrals`: times in a row, without progress, the job gave its slot back to wait;
 * - `not_before`: epoch milliseconds before which a queued job is not claimed (a job that gave
 *   its slot back while its agent asked to wait);
 * - `target_key`: what the job calls (an agent id, a campaign's URL), for sharing slots fairly.
 */
export const jobRuns: WardenMigration = {
  async up(db, dialect) {
    const add = (column: string, type: 'integer' | 'bigint' | 'varchar(255)', notNull: boolean) =>
      db.schema
        .alterTable('jobs')
        .addColumn(column, type, (c) => (notNull ? c.notNull().defaultTo(0) : c))
        .execute();
    await add('claims', 'integer', true);
    await add('strikes', 'integer', true);
    await add('progress_best', 'integer', true);
    await add('deferrals', 'integer', true);
    await add('not_before', bigint(dialect) as 'integer' | 'bigint', false);
    await add('target_key', 'varchar(255)', false);
    // Fair claiming counts the running jobs of a team and of a target.
    await db.schema.createIndex('jobs_status_team_idx').on('jobs').columns(['status', 'team_id']).execute();
    await db.schema.createIndex('jobs_status_target_idx').on('jobs').columns(['status', 'target_key']).execute();
  },
};
