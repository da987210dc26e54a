import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

/**
 * Durable background jobs (docs/jobs.md). Times are epoch seconds as everywhere, except the
 * lease's expiry and a log line's time, in epoch milliseconds: leases are renewed every few
 * seconds and compared across processes, and log lines within one second keep their time.
 */
export const jobs: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('jobs')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('kind', 'varchar(64)', (c) => c.notNull())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('subject_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('attempt', 'integer', (c) => c.notNull())
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('progress_done', 'integer', (c) => c.notNull())
      .addColumn('progress_total', 'integer', (c) => c.notNull())
      .addColumn('progress_message', 'varchar(500)')
      .addColumn('error', 'varchar(1000)')
      .addColumn('cancel_requested', 'integer', (c) => c.notNull())
      .addColumn('locked_by', 'varchar(255)')
      .addColumn('lease_expires_at', ts)
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('started_at', ts)
      .addColumn('finished_at', ts)
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    // Claiming takes the oldest queued job: one index range, already in order. Running jobs
    // (leases to check after a crash) are a range of the same index.
    await db.schema.createIndex('jobs_status_created_idx').on('jobs').columns(['status', 'created_at', 'id']).execute();
    await db.schema.createIndex('jobs_subject_created_idx').on('jobs').columns(['subject_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('job_logs')
      .addColumn('job_id', 'varchar(36)', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('at', ts, (c) => c.notNull())
      .addColumn('level', 'varchar(8)', (c) => c.notNull())
      .addColumn('message', 'varchar(2000)', (c) => c.notNull())
      .addPrimaryKeyConstraint('job_logs_pk', ['job_id', 'seq'])
      .execute();
  },
};
