import type { Kysely } from 'kysely';
import { tableCaching } from '../../db/table-caching.js';
import type { DB } from '../../db/schema.js';

export const GATEWAY_TABLES = tableCaching({ gateway_enforcements: 'data' });

/**
 * The tables a gateway call reads (the agent, its applied configuration, the enforcement
 * record): their version (docs/caching.md) keeps the memo of findGatewayAgent's answers.
 */
export const GATEWAY_READS = ['agents', 'dome_configs', 'gateway_enforcements'] as const;

/**
 * The agent as the gateway needs it, with the configuration applied to it (when one is) and the
 * configuration the gateway was last recorded enforcing for it (null: none), in one query.
 */
export async function findGatewayAgent(db: Kysely<DB>, agentId: string) {
  const row = await db
    .selectFrom('agents')
    .leftJoin('dome_configs', (join) =>
      join
        .onRef('dome_configs.id', '=', 'agents.dome_config_id')
        .onRef('dome_configs.team_id', '=', 'agents.team_id')
        .on('dome_configs.status', '=', 'applied'),
    )
    .leftJoin('gateway_enforcements', 'gateway_enforcements.agent_id', 'agents.id')
    .selectAll('agents')
    .select([
      'dome_configs.id as gateway_config_id',
      'dome_configs.config_body as gateway_config_body',
      'gateway_enforcements.dome_config_id as gateway_enforced_config_id',
    ])
    .where('agents.id', '=', agentId)
    .executeTakeFirst();
  if (row === undefined) return undefined;
  const { gateway_config_id: configId, gateway_config_body: configBody, gateway_enforced_config_id: enforcedConfigId, ...agent } = row;
  const config = configId === null || configBody === null ? undefined : { id: configId, config_body: configBody };
  return { agent, config, enforcedConfigId: enforcedConfigId ?? null };
}

export type GatewayAgent = NonNullable<Awaited<ReturnType<typeof findGatewayAgent>>>;

export const findEnforcement = (db: Kysely<DB>, agentId: string) =>
  db.selectFrom('gateway_enforcements').select(['dome_config_id']).where('agent_id', '=', agentId).executeTakeFirst();

export async function recordEnforcement(db: Kysely<DB>, row: { agent_id: string; team_id: string; dome_config_id: string; enforced_at: number }) {
  await db
    .insertInto('gateway_enforcements')
    .values(row)
    .onConflict((oc) => oc.column('agent_id').doUpdateSet({ dome_config_id: row.dome_config_id, enforced_at: row.enforced_at }))
    .execute();
}

export const deleteEnforcement = (db: Kysely<DB>, agentId: string) => db.deleteFrom('gateway_enforcements').where('agent_id', '=', agentId).execute();
