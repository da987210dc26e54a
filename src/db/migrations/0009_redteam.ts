import type { WardenMigration } from './types.js';
import { bigint, double } from './types.js';

/**
 * Red-team campaigns (docs/redteam.md): the campaign, and one row per attack (its finding and
 * its conversation, turn by turn). A campaign's `agent_api_key` is stored encrypted like
 * agents' keys and never answered.
 */
export const redteam: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('redteam_campaigns')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('tool', 'varchar(32)', (c) => c.notNull())
      // A deleted agent leaves its campaigns (and their findings) standing, without the link.
      .addColumn('agent_id', 'varchar(36)', (c) => c.references('agents.id').onDelete('set null'))
      .addColumn('agent_url', 'varchar(2083)')
      .addColumn('agent_protocol', 'varchar(32)', (c) => c.notNull())
      .addColumn('agent_api_key_enc', 'text')
      .addColumn('agent_model_name', 'varchar(255)')
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('categories', 'text', (c) => c.notNull())
      .addColumn('custom_plugins', 'text')
      .addColumn('strategies', 'text', (c) => c.notNull())
      .addColumn('num_tests', 'integer', (c) => c.notNull())
      .addColumn('options', 'text', (c) => c.notNull())
      .addColumn('access_level', 'varchar(32)', (c) => c.notNull())
      .addColumn('seed', ts, (c) => c.notNull())
      .addColumn('dome_config_id', 'varchar(36)')
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      .addColumn('status_message', 'varchar(500)')
      .addColumn('error_message', 'text')
      .addColumn('job_id', 'varchar(36)')
      .addColumn('cases', 'text')
      .addColumn('summary', 'text')
      .addColumn('suggestion', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('started_at', ts)
      .addColumn('completed_at', ts)
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('redteam_campaigns_team_created_idx').on('redteam_campaigns').columns(['team_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('redteam_campaigns_agent_idx').on('redteam_campaigns').column('agent_id').execute();

    await db.schema
      .createTable('redteam_findings')
      .addColumn('campaign_id', 'varchar(36)', (c) => c.notNull().references('redteam_campaigns.id').onDelete('cascade'))
      .addColumn('attack_id', 'varchar(255)', (c) => c.notNull())
      // The attack's place in the plan (static findings after every attack): the order of results.
      .addColumn('seq', 'integer', (c) => c.notNull())
      .addColumn('category', 'varchar(32)', (c) => c.notNull())
      .addColumn('probe', 'varchar(100)', (c) => c.notNull())
      .addColumn('strategy', 'varchar(32)', (c) => c.notNull())
      .addColumn('severity', 'varchar(16)', (c) => c.notNull())
      // 1 resisted, 0 the attack worked, null errored (no answer to judge).
      .addColumn('passed', 'integer')
      .addColumn('attack_prompt', 'text', (c) => c.notNull())
      .addColumn('agent_response', 'text', (c) => c.notNull())
      .addColumn('phenotype_category', 'varchar(255)')
      .addColumn('attack_score', double(dialect))
      .addColumn('detector_id', 'varchar(100)')
      .addColumn('metadata', 'text', (c) => c.notNull())
      .addColumn('conversation', 'text', (c) => c.notNull())
      .addColumn('error', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('redteam_findings_pk', ['campaign_id', 'attack_id'])
      .execute();
    await db.schema.createIndex('redteam_findings_order_idx').on('redteam_findings').columns(['campaign_id', 'seq']).execute();
  },
};
