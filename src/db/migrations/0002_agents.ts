import type { WardenMigration } from './types.js';
import { bigint, double } from './types.js';

export const agents: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('agents')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('agent_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('model_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('agent_url', 'varchar(2083)')
      .addColumn('hub', 'varchar(255)', (c) => c.notNull())
      .addColumn('api_key_enc', 'text')
      .addColumn('api_key_hint', 'varchar(8)')
      .addColumn('agent_system_prompt', 'text')
      .addColumn('rate_limit_requests_per_minute', 'integer', (c) => c.notNull())
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('access_level', 'varchar(32)', (c) => c.notNull())
      .addColumn('agent_params', 'text')
      .addColumn('mcp_config', 'text')
      .addColumn('delegated_agents', 'text', (c) => c.notNull())
      .addColumn('white_box_config', 'text')
      .addColumn('agent_metadata', 'text')
      .addColumn('purpose', 'text')
      .addColumn('protocol', 'varchar(32)', (c) => c.notNull())
      .addColumn('test_score', 'varchar(64)')
      .addColumn('last_tested_by', 'varchar(255)')
      .addColumn('evaluated_harnesses', 'text')
      .addColumn('last_evaluated_at', ts)
      .addColumn('protection_status', 'varchar(32)', (c) => c.notNull())
      .addColumn('trust_stage', 'varchar(32)', (c) => c.notNull())
      .addColumn('trusted_at', ts)
      .addColumn('ttt_days', double(dialect))
      .addColumn('dome_config_id', 'varchar(36)')
      .addColumn('dome_manually_configured', 'integer', (c) => c.notNull())
      .addColumn('import_metadata', 'text')
      .addColumn('capabilities', 'text')
      .addColumn('skills', 'text', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    // The list is "a team's agents with these statuses, in creation order": one index range.
    await db.schema
      .createIndex('agents_team_status_created_idx')
      .on('agents')
      .columns(['team_id', 'status', 'created_at', 'id'])
      .execute();
    await db.schema.createIndex('agents_team_created_idx').on('agents').columns(['team_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('agent_lifecycle_events')
      .addColumn('seq', dialect === 'postgres' ? 'bigserial' : 'integer', (c) =>
        dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement(),
      )
      .addColumn('id', 'varchar(36)', (c) => c.notNull().unique())
      .addColumn('agent_id', 'varchar(36)', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('from_stage', 'varchar(32)')
      .addColumn('to_stage', 'varchar(32)', (c) => c.notNull())
      .addColumn('changed_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('changed_at', ts, (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('agent_lifecycle_events_agent_idx')
      .on('agent_lifecycle_events')
      .columns(['agent_id', 'seq'])
      .execute();

    await db.schema
      .createTable('evaluations')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('agent_id', 'varchar(36)', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('overall_score', double(dialect))
      .addColumn('reliability_score', double(dialect))
      .addColumn('security_score', double(dialect))
      .addColumn('safety_score', double(dialect))
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('completed_at', ts)
      .execute();
    await db.schema
      .createIndex('evaluations_agent_completed_idx')
      .on('evaluations')
      .columns(['agent_id', 'status', 'completed_at'])
      .execute();
  },
};
