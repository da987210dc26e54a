import type { Expression, ExpressionBuilder, Insertable, Kysely, Selectable, SqlBool, Updateable } from 'kysely';
import { containsIgnoringCase } from '../../db/contains.js';
import { countRows, type CountMemo } from '../../db/count-memo.js';
import type { Dialect } from '../../db/database.js';
import { executeBatch } from '../../db/statement-batch.js';
import { createStatementMemo } from '../../db/statement-memo.js';
import { tableCaching } from '../../db/table-caching.js';
import type { AgentLifecycleEventsTable, AgentsTable, DB } from '../../db/schema.js';

/** Cache classes (docs/caching.md). `evaluations` is classed here as the agents' `latest_evaluation` reads it (evaluations.repo.ts's `latestEvaluations`). */
export const AGENT_TABLES = tableCaching({ agents: 'data', agent_lifecycle_events: 'data', evaluations: 'data' });

export type AgentRow = Selectable<AgentsTable>;
export type AgentPatch = Updateable<AgentsTable>;
export type LifecycleEventRow = Pick<Selectable<AgentLifecycleEventsTable>, 'id' | 'agent_id' | 'from_stage' | 'to_stage' | 'changed_by' | 'changed_at'>;

export const insertAgent = (db: Kysely<DB>, row: Insertable<AgentsTable>) => db.insertInto('agents').values(row).execute();

/** The hot statements of this module, compiled once per shape (src/db/statement-memo.ts). */
const statements = createStatementMemo();

export const findAgent = async (db: Kysely<DB>, id: string) => {
  const query = statements.compile(db, 'findAgent', { id }, (v) => db.selectFrom('agents').selectAll().where('id', '=', v.id));
  return (await db.executeQuery<AgentRow>(query)).rows[0];
};

/** Reads the agent and, on PostgreSQL, locks its row until the transaction ends (SQLite transactions are already serial). */
export const findAgentForUpdate = (db: Kysely<DB>, dialect: Dialect, id: string) => {
  const query = db.selectFrom('agents').selectAll().where('id', '=', id);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
};

/** One UPDATE of just the fields sent: concurrent writers of other fields never overwrite each other. */
export const updateAgent = (db: Kysely<DB>, id: string, patch: AgentPatch) =>
  db.updateTable('agents').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

/**
 * A lifecycle move decided on the row as read without a lock (`seen`): the UPDATE applies only
 * while the agent is still at the stage read, and the history row is appended only if it did,
 * both in one batch (one call to SQLite's writer). Undefined when the stage had moved.
 */
export async function moveStageIfUnchanged(
  db: Kysely<DB>,
  seen: Pick<AgentRow, 'id' | 'trust_stage'>,
  patch: AgentPatch,
  event: Insertable<AgentLifecycleEventsTable>,
): Promise<AgentRow | undefined> {
  const update = statements.compile(db, 'moveStage', { patch, id: seen.id, stage: seen.trust_stage }, (v) =>
    db.updateTable('agents').set(v.patch).where('id', '=', v.id).where('trust_stage', '=', v.stage).returningAll(),
  );
  const append = statements.compile(db, 'lifecycleEvent', { event }, (v) => db.insertInto('agent_lifecycle_events').values(v.event));
  const [updated] = await executeBatch(db, [{ query: update }, { query: append, onlyIfPreviousChanged: true }]);
  return updated?.rows[0] as AgentRow | undefined;
}

/** The columns an update's patch is decided from (besides the body): the key and the URL it was given for. */
export type KeyOrigin = Pick<AgentRow, 'agent_url' | 'api_key_enc' | 'api_key_hint'>;

/**
 * `updateAgent` only while the agent's key and URL are still those the patch was decided on
 * (undefined otherwise): an update that read the row without a lock.
 */
export const updateAgentIfKeyOrigin = async (db: Kysely<DB>, id: string, seen: KeyOrigin, patch: AgentPatch) => {
  const values = { patch, id, url: seen.agent_url, key: seen.api_key_enc, hint: seen.api_key_hint };
  const query = statements.compile(db, 'updateIfKeyOrigin', values, (v) =>
    db
      .updateTable('agents')
      .set(v.patch)
      .where('id', '=', v.id)
      .where('agent_url', 'is not distinct from', v.url)
      .where('api_key_enc', 'is not distinct from', v.key)
      .where('api_key_hint', 'is not distinct from', v.hint)
      .returningAll(),
  );
  return (await db.executeQuery<AgentRow>(query)).rows[0];
};
/** The names of agents, by id (lists of other features show them). */
export async function agentNames(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('agents').select(['id', 'agent_name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.agent_name]));
}

/** The team's agents that apply a Dome configuration (by `dome_config_id`). */
export const agentsApplyingConfig = (db: Kysely<DB>, teamId: string, configId: string) =>
  db.selectFrom('agents').select('id').where('team_id', '=', teamId).where('dome_config_id', '=', configId).execute();

export interface AgentListFilter {
  teamId: string;
  statuses: readonly string[];
  /** Case-insensitive substring of the name or of the id. */
  search?: string | undefined;
  trustStage?: string | undefined;
  limit: number;
  offset: number;
}

type AgentMatch = Omit<AgentListFilter, 'limit' | 'offset'>;

/** The team's agents with these statuses (one index range), narrowed by stage and search. */
function matching(eb: ExpressionBuilder<DB, 'agents'>, f: AgentMatch): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb('team_id', '=', f.teamId), eb('status', 'in', f.statuses)];
  if (f.trustStage !== undefined) conditions.push(eb('trust_stage', '=', f.trustStage));
  const term = f.search;
  if (term !== undefined && term !== '') {
    conditions.push(eb.or([containsIgnoringCase(eb.ref('agent_name'), term), containsIgnoringCase(eb.ref('id'), term)]));
  }
  return eb.and(conditions);
}

export const listAgents = (db: Kysely<DB>, f: AgentListFilter) =>
  db
    .selectFrom('agents')
    .selectAll()
    .where((eb) => matching(eb, f))
    .orderBy('created_at')
    .orderBy('id')
    .limit(f.limit)
    .offset(f.offset)
    .execute();

/** Kept until the next commit (`counts`, SQLite): every page of the list asks for it. */
export const countAgents = (db: Kysely<DB>, f: AgentMatch, counts?: CountMemo) =>
  countRows(
    db,
    db
      .selectFrom('agents')
      .select((eb) => eb.fn.countAll().as('n'))
      .where((eb) => matching(eb, f)),
    counts,
  );

export const insertLifecycleEvent = (db: Kysely<DB>, row: Insertable<AgentLifecycleEventsTable>) =>
  db.insertInto('agent_lifecycle_events').values(row).execute();

export const listLifecycleEvents = (db: Kysely<DB>, agentId: string, limit: number, offset: number) =>
  db
    .selectFrom('agent_lifecycle_events')
    .select(['id', 'agent_id', 'from_stage', 'to_stage', 'changed_by', 'changed_at'])
    .where('agent_id', '=', agentId)
    .orderBy('seq')
    .limit(limit)
    .offset(offset)
    .execute();

export const countLifecycleEvents = (db: Kysely<DB>, agentId: string, counts?: CountMemo) =>
  countRows(db, db.selectFrom('agent_lifecycle_events').select((eb) => eb.fn.countAll().as('n')).where('agent_id', '=', agentId), counts);
