import type { Kysely } from 'kysely';
import { tableCaching } from '../../db/table-caching.js';
import type { DB } from '../../db/schema.js';
import { findAgent } from '../agents/agents.repo.js';
import { findAppliedConfig } from '../dome/dome.repo.js';

export const GATEWAY_TABLES = tableCaching({ gateway_enforcements: 'data' });

/** The agent as the gateway needs it, with the configuration applied to it (when one is), each read through its feature's repo. */
export async function findGatewayAgent(db: Kysely<DB>, agentId: string) {
  const agent = await findAgent(db, agentId);
  if (agent === undefined) return undefined;
  const config = agent.dome_config_id === null ? undefined : await findAppliedConfig(db, agent.dome_config_id, agent.team_id);
  return { agent, config };
}

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
