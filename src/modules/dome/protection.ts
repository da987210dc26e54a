import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { findAgent, updateAgent } from '../agents/agents.repo.js';
import { findEnforcement } from '../gateway/gateway.repo.js';
import { findInstance, isTeamConfig } from './dome.repo.js';

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
  const agent = await findAgent(db, agentId);
  if (agent === undefined) return undefined;
  let status: ProtectionStatus = 'unprotected';
  if ((await findInstance(db, agentId)) !== undefined) {
    status = 'domed';
  } else if (agent.dome_config_id !== null && (await isTeamConfig(db, agent.dome_config_id, agent.team_id))) {
    const enforced = await findEnforcement(db, agentId);
    status = enforced?.dome_config_id === agent.dome_config_id ? 'domed' : 'configured';
  }
  if (status !== agent.protection_status) await updateAgent(db, agentId, { protection_status: status, updated_at: at });
  return status;
}
