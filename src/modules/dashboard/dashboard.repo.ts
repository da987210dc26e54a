import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';

/** The team's agents on the board: every status but archived, in creation order. */
export const boardAgents = (db: Kysely<DB>, teamId: string) =>
  db
    .selectFrom('agents')
    .select(['id', 'agent_name', 'trust_stage', 'ttt_days', 'trusted_at', 'protection_status', 'created_at', 'created_by'])
    .where('team_id', '=', teamId)
    .where('status', '!=', 'archived')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
export type BoardAgentRow = Awaited<ReturnType<typeof boardAgents>>[number];

/** Every stage change of the team's agents, oldest first per agent. */
export const teamLifecycleEvents = (db: Kysely<DB>, teamId: string) =>
  db
    .selectFrom('agent_lifecycle_events')
    .select(['agent_id', 'from_stage', 'to_stage', 'changed_at'])
    .where('team_id', '=', teamId)
    .orderBy('agent_id')
    .orderBy('seq')
    .execute();
export type LifecycleEventRow = Awaited<ReturnType<typeof teamLifecycleEvents>>[number];

/** Evaluations not finished yet: the agents that are "evaluating". */
export const IN_PROGRESS_EVALUATION_STATUSES = ['pending', 'queued', 'running'] as const;

export const evaluatingAgentIds = async (db: Kysely<DB>, teamId: string) =>
  new Set(
    (
      await db
        .selectFrom('evaluations')
        .select('agent_id')
        .distinct()
        .where('team_id', '=', teamId)
        .where('status', 'in', IN_PROGRESS_EVALUATION_STATUSES)
        .execute()
    ).map((r) => r.agent_id),
  );

export const userNames = async (db: Kysely<DB>, ids: readonly string[]) => {
  if (ids.length === 0) return new Map<string, { given_name: string | null; family_name: string | null; email: string }>();
  const rows = await db.selectFrom('users').select(['id', 'given_name', 'family_name', 'email']).where('id', 'in', [...new Set(ids)]).execute();
  return new Map(rows.map((r) => [r.id, r]));
};
