import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireAnywhere } from '../auth/permissions.js';
import { findEvaluation, type EvaluationRow } from './evaluations.repo.js';

export type EvaluationPermission = 'evaluation:read' | 'evaluation:write';

/**
 * An evaluation the caller may act on (CONTRACT.md, "Team scope"). `team_id`, when given, must
 * be a team the caller sees and the evaluation's own team; another team's evaluation answers
 * 404, never 403, so its existence does not leak.
 */
export async function loadEvaluation(
  db: Kysely<DB>,
  principal: Principal,
  id: string,
  teamId: string | undefined,
  permission: EvaluationPermission,
): Promise<EvaluationRow> {
  requireAnywhere(principal, permission);
  if (teamId !== undefined && !canSeeTeam(principal, teamId)) throw notFound('Evaluation');
  const row = await findEvaluation(db, id);
  if (row === undefined || (teamId !== undefined && row.team_id !== teamId)) throw notFound('Evaluation');
  authorize(principal, permission, row.team_id, 'Evaluation');
  return row;
}
