import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireAnywhere } from '../auth/permissions.js';
import { findCampaign, type CampaignRow } from './redteam.repo.js';

export type RedteamPermission = 'redteam:read' | 'redteam:write';

/**
 * A campaign the caller may act on (CONTRACT.md, "Team scope"). `team_id`, when given, must be
 * a team the caller sees and the campaign's own; another team's campaign answers 404, never
 * 403, so its existence does not leak.
 */
export async function loadCampaign(
  db: Kysely<DB>,
  principal: Principal,
  id: string,
  teamId: string | undefined,
  permission: RedteamPermission,
): Promise<CampaignRow> {
  requireAnywhere(principal, permission);
  if (teamId !== undefined && !canSeeTeam(principal, teamId)) throw notFound('Campaign');
  const row = await findCampaign(db, id);
  if (row === undefined || (teamId !== undefined && row.team_id !== teamId)) throw notFound('Campaign');
  authorize(principal, permission, row.team_id, 'Campaign');
  return row;
}
