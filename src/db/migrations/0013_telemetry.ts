import type { WardenMigration } from './types.js';
import { bigint, double } from './types.js';

/**
 * Telemetry (issue 29, docs/telemetry.md): metric points, spans and log lines, each row of one
 * team. Times are epoch milliseconds for metric points and epoch nanoseconds for spans and logs
 * (the reference's `_ns` / `unix_nano`). Labels and attributes are JSON objects; the labels the
 * query operations filter on most are copied into their own columns.
 */
export const telemetry: WardenMigration = {
  async up(db, dialect) {
    const big = bigint(dialect);
    await db.schema
      .createTable('telemetry_points')
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      // `sum`: a counter's increase; `samples`: raw observations (data: JSON array);
      // `histogram`: an OTLP histogram's bucket counts (data: {"bounds": [...], "counts": [...]}).
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('at_ms', big, (c) => c.notNull())
      .addColumn('value', double(dialect), (c) => c.notNull())
      .addColumn('count', big, (c) => c.notNull())
      .addColumn('data', 'text')
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('service_name', 'varchar(255)')
      .addColumn('agent_configuration_id', 'varchar(255)')
      .addColumn('evaluation_id', 'varchar(255)')
      .addColumn('campaign_id', 'varchar(255)')
      .execute();
    await db.schema.createIndex('telemetry_points_query_idx').on('telemetry_points').columns(['team_id', 'name', 'at_ms']).execute();
    await db.schema.createIndex('telemetry_points_at_idx').on('telemetry_points').columns(['at_ms']).execute();

    await db.schema
      .createTable('telemetry_spans')
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('trace_id', 'varchar(32)', (c) => c.notNull())
      .addColumn('span_id', 'varchar(16)', (c) => c.notNull())
      .addColumn('parent_span_id', 'varchar(16)')
      .addColumn('name', 'varchar(1000)', (c) => c.notNull())
      .addColumn('kind', 'varchar(16)', (c) => c.notNull())
      .addColumn('start_ns', big, (c) => c.notNull())
      .addColumn('end_ns', big, (c) => c.notNull())
      .addColumn('duration_ns', big, (c) => c.notNull())
      .addColumn('status', 'varchar(8)', (c) => c.notNull())
      .addColumn('status_message', 'varchar(2000)')
      .addColumn('service_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('attributes', 'text', (c) => c.notNull())
      .addColumn('agent_configuration_id', 'varchar(255)')
      .execute();
    await db.schema.createIndex('telemetry_spans_trace_idx').on('telemetry_spans').columns(['team_id', 'trace_id']).execute();
    await db.schema.createIndex('telemetry_spans_start_idx').on('telemetry_spans').columns(['team_id', 'start_ns']).execute();
    await db.schema.createIndex('telemetry_spans_prune_idx').on('telemetry_spans').columns(['start_ns']).execute();

    await db.schema
      .createTable('telemetry_logs')
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('time_ns', big, (c) => c.notNull())
      .addColumn('severity', 'varchar(8)', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('labels', 'text', (c) => c.notNull())
      .addColumn('trace_id', 'varchar(32)')
      .addColumn('span_id', 'varchar(16)')
      .execute();
    await db.schema.createIndex('telemetry_logs_query_idx').on('telemetry_logs').columns(['team_id', 'time_ns']).execute();
    await db.schema.createIndex('telemetry_logs_prune_idx').on('telemetry_logs').columns(['time_ns']).execute();
  },
};
