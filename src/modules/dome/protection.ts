import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

export type ProtectionStatus = 'unprotected' | 'configured' | 'domed';

/**
 * An agent's `protection_status` follows real events (docs/guardrails.md, "Protection status"):
 * `domed` while a Dome instance is registered for it or Warden's gateway enforces its applied
 * configuration (`gateway_enforcements`, docs/gateway.md),
 * otherwise `configured` while a configuration of its team is applied to it (`dome_config_id`),
 * otherwise `unprotected`. Called in the transaction of every event that may change it; moves
 * `updated_at` only when the status changes.
 */
export async function refreshProtection(db: Kysely<DB>, agentId: string, at: number): Promise<ProtectionStatus | undefined> {
  const agent = await db.selectFrom('agents').select(['team_id', 'dome_config_id', 'protection_status']).where('id', '=', agentId).executeTakeFirst();
  if (agent === undefined) return undefined;
  const instance = await db.selectFrom('dome_instances').select('agent_id').where('agent_id', '=', agentId).executeTakeFirst();
  let status: ProtectionStatus = 'unprotected';
  const enforced =
    agent.dome_config_id === null
      ? undefined
      : await db
          .selectFrom('gateway_enforcements')
          .select('agent_id')
          .where('agent_id', '=', agentId)
          .where('dome_config_id', '=', agent.dome_config_id)
          .executeTakeFirst();
  if (instance !== undefined) {
    status = 'domed';
  } else if (agent.dome_config_id !== null) {
    const applied = await db
      .selectFrom('dome_configs')
      .select('id')
      .where('id', '=', agent.dome_config_id)
      .where('team_id', '=', agent.team_id)
      .executeTakeFirst();
    if (applied !== undefined) status = enforced !== undefined ? 'domed' : 'configured';
  }
  if (status !== agent.protection_status) {
    await db.updateTable('agents').set({ protection_status: status, updated_at: at }).where('id', '=', agentId).execute();
  }
  return status;
}
