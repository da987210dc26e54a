import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

/**
 * Guardrails (docs/guardrails.md): saved Dome configurations, the Dome instances that
 * registered for an agent, and detection requests.
 */
export const dome: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('dome_configs')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      // The agent the configuration is bound to (DomeConfigCreate.agent_id); an agent that is
      // deleted leaves its configurations standing, unbound.
      .addColumn('agent_id', 'varchar(36)', (c) => c.references('agents.id').onDelete('set null'))
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('config_body', 'text', (c) => c.notNull())
      .addColumn('dome_instance_url', 'varchar(2083)')
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_by', 'varchar(36)')
      .addColumn('updated_at', ts)
      .execute();
    await db.schema.createIndex('dome_configs_team_created_idx').on('dome_configs').columns(['team_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('dome_configs_agent_idx').on('dome_configs').columns(['agent_id', 'created_at']).execute();

    await db.schema
      .createTable('dome_instances')
      .addColumn('agent_id', 'varchar(36)', (c) => c.primaryKey().references('agents.id').onDelete('cascade'))
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('dome_url', 'varchar(2083)', (c) => c.notNull())
      .addColumn('registered_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('registered_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('detections')
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      // The client names its detection (DetectionRequest.id): unique within a team.
      .addColumn('id', 'varchar(255)', (c) => c.notNull())
      .addColumn('detector_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('detector_params', 'text')
      .addColumn('detector_inputs', 'text', (c) => c.notNull())
      .addColumn('detector_outputs', 'text', (c) => c.notNull())
      .addColumn('status', 'varchar(32)', (c) => c.notNull())
      .addColumn('error_message', 'text')
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('detections_pk', ['team_id', 'id'])
      .execute();
  },
};
