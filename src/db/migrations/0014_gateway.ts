import { bigint, type WardenMigration } from './types.js';

/**
 * The Dome configuration Warden's gateway enforces for an agent (docs/gateway.md, "Protection
 * status"): written when the gateway first handles a call under an applied configuration in
 * `enforce` mode, removed when it handles one in `monitor` mode. While it names the agent's
 * applied configuration, the agent is `domed`.
 */
export const gateway: WardenMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('gateway_enforcements')
      .addColumn('agent_id', 'varchar(36)', (c) => c.primaryKey().references('agents.id').onDelete('cascade'))
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('dome_config_id', 'varchar(36)', (c) => c.notNull())
      .addColumn('enforced_at', bigint(dialect), (c) => c.notNull())
      .execute();
  },
};
