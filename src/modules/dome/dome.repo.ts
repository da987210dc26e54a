import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { DB, DetectionsTable, DomeConfigsTable } from '../../db/schema.js';
import { Type } from 'typebox';
import { decodeJsonColumn } from '../../db/json-columns.js';
import { tableCaching } from '../../db/table-caching.js';
import { DetectionInput, DetectionOutput } from './dome.schemas.js';

/** Guardrails' tables (docs/caching.md): no principal is read from them. */
export const DOME_TABLES = tableCaching({ dome_configs: 'data', dome_instances: 'data', detections: 'data' });

export type DomeConfigRow = Selectable<DomeConfigsTable>;
export type DetectionRow = Selectable<DetectionsTable>;

export const insertConfig = (db: Kysely<DB>, row: Insertable<DomeConfigsTable>) => db.insertInto('dome_configs').values(row).execute();

export const findConfig = (db: Kysely<DB>, id: string) => db.selectFrom('dome_configs').selectAll().where('id', '=', id).executeTakeFirst();

/** Whether the configuration exists in the team (an agent's `dome_config_id` may name one of another team, or one deleted). */
export const isTeamConfig = async (db: Kysely<DB>, id: string, teamId: string) =>
  (await db.selectFrom('dome_configs').select('id').where('id', '=', id).where('team_id', '=', teamId).executeTakeFirst()) !== undefined;

/** The configuration when it is applied and of the team (what the gateway enforces), with its body. */
export const findAppliedConfig = (db: Kysely<DB>, id: string, teamId: string) =>
  db
    .selectFrom('dome_configs')
    .select(['id', 'config_body'])
    .where('id', '=', id)
    .where('team_id', '=', teamId)
    .where('status', '=', 'applied')
    .executeTakeFirst();

const ConfigBodyColumn = Type.Record(Type.String(), Type.Unknown());

/** A configuration's body, decoded once here (an object; the guard engine checks the rest when it compiles it). */
export const configBodyOf = (row: Pick<DomeConfigRow, 'config_body'>): Record<string, unknown> =>
  decodeJsonColumn(ConfigBodyColumn, row.config_body, 'dome_configs.config_body');

export const updateConfig = (db: Kysely<DB>, id: string, patch: Updateable<DomeConfigsTable>) =>
  db.updateTable('dome_configs').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

export const deleteConfig = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('dome_configs').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

export interface ConfigFilter {
  teamId: string;
  agentId?: string | null | undefined;
}

const filtered = (db: Kysely<DB>, f: ConfigFilter) => {
  let query = db.selectFrom('dome_configs').where('team_id', '=', f.teamId);
  if (f.agentId != null) query = query.where('agent_id', '=', f.agentId);
  return query;
};

export const listConfigs = (db: Kysely<DB>, f: ConfigFilter, limit: number, offset: number) =>
  filtered(db, f).selectAll().orderBy('created_at').orderBy('id').limit(limit).offset(offset).execute();

export const countConfigs = async (db: Kysely<DB>, f: ConfigFilter) =>
  Number((await filtered(db, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** The newest configuration bound to the agent by its `agent_id` column. */
export const newestBoundConfig = (db: Kysely<DB>, agentId: string) =>
  db.selectFrom('dome_configs').selectAll().where('agent_id', '=', agentId).orderBy('created_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();

/** Other configurations applied to the agent go back to pending: one is applied at a time. */
export const unapplyOthers = (db: Kysely<DB>, agentId: string, keepId: string) =>
  db.updateTable('dome_configs').set({ status: 'pending' }).where('agent_id', '=', agentId).where('status', '=', 'applied').where('id', '!=', keepId).execute();

/** A Dome instance registered for the agent: the configuration applied to it (of its team) records the URL too. */
export const setInstanceUrl = (db: Kysely<DB>, configId: string, teamId: string, url: string, at: number) =>
  db.updateTable('dome_configs').set({ dome_instance_url: url, updated_at: at }).where('id', '=', configId).where('team_id', '=', teamId).execute();

export const findInstance = (db: Kysely<DB>, agentId: string) =>
  db.selectFrom('dome_instances').selectAll().where('agent_id', '=', agentId).executeTakeFirst();

/** Idempotent: a second registration of the same agent overwrites the URL. */
export async function upsertInstance(
  db: Kysely<DB>,
  row: { agent_id: string; team_id: string; dome_url: string; registered_by: string; registered_at: number },
) {
  await db
    .insertInto('dome_instances')
    .values(row)
    .onConflict((oc) =>
      oc.column('agent_id').doUpdateSet({ dome_url: row.dome_url, registered_by: row.registered_by, registered_at: row.registered_at, team_id: row.team_id }),
    )
    .execute();
}

export const deleteInstance = (db: Kysely<DB>, agentId: string) => db.deleteFrom('dome_instances').where('agent_id', '=', agentId).execute();

export const insertDetection = (db: Kysely<DB>, row: Insertable<DetectionsTable>) => db.insertInto('detections').values(row).execute();

export const findDetection = (db: Kysely<DB>, teamIds: readonly string[] | null, id: string) => {
  let query = db.selectFrom('detections').selectAll().where('id', '=', id);
  if (teamIds !== null) query = query.where('team_id', 'in', teamIds.length > 0 ? teamIds : ['']);
  return query.orderBy('created_at', 'desc').limit(1).executeTakeFirst();
};

/** A detection's stored inputs and outputs, decoded once here, with the API's own schemas. */
export const detectionColumns = (row: Pick<DetectionRow, 'detector_inputs' | 'detector_outputs'>) => ({
  detector_inputs: decodeJsonColumn(Type.Array(DetectionInput), row.detector_inputs, 'detections.detector_inputs'),
  detector_outputs: decodeJsonColumn(Type.Array(DetectionOutput), row.detector_outputs, 'detections.detector_outputs'),
});
