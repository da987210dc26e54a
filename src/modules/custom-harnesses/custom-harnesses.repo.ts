import type { Insertable, Kysely, Selectable, Updateable } from 'kysely';
import type { CustomHarnessesTable, CustomHarnessPromptsTable, DB } from '../../db/schema.js';
import { tableCaching } from '../../db/table-caching.js';

/** Cache classes (docs/caching.md). */
export const CUSTOM_HARNESS_TABLES = tableCaching({ custom_harnesses: 'data', custom_harness_prompts: 'data' });

export type CustomHarnessRow = Selectable<CustomHarnessesTable>;
export type CustomHarnessPromptRow = Selectable<CustomHarnessPromptsTable>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const insertHarness = (db: Kysely<DB>, row: Insertable<CustomHarnessesTable>) => db.insertInto('custom_harnesses').values(row).execute();

export const findHarness = (db: Kysely<DB>, id: string) => db.selectFrom('custom_harnesses').selectAll().where('id', '=', id).executeTakeFirst();

/** Updates it only while its prompts are being generated (a deleted or finished harness stays as it is). */
export const updateDraft = async (db: Kysely<DB>, id: string, patch: Updateable<CustomHarnessesTable>) =>
  Number((await db.updateTable('custom_harnesses').set(patch).where('id', '=', id).where('status', '=', 'draft').executeTakeFirst()).numUpdatedRows) > 0;

export const deleteHarness = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('custom_harnesses').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

export interface HarnessFilter {
  teamId: string;
  status?: string | null | undefined;
  agentId?: string | null | undefined;
}

const filtered = (db: Kysely<DB>, f: HarnessFilter) => {
  let query = db.selectFrom('custom_harnesses').where('team_id', '=', f.teamId);
  if (f.status != null) query = query.where('status', '=', f.status);
  if (f.agentId != null) query = query.where('agent_id', '=', f.agentId);
  return query;
};

/** Newest first. */
export const listHarnesses = (db: Kysely<DB>, f: HarnessFilter, limit: number, offset: number) =>
  filtered(db, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();

export const countHarnesses = async (db: Kysely<DB>, f: HarnessFilter) =>
  Number((await filtered(db, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** The team's custom harnesses named by id or by name in `refs` (an evaluation's harness_names). */
export function findRunnableHarnesses(db: Kysely<DB>, teamId: string, refs: readonly string[]) {
  const ids = refs.filter((ref) => UUID.test(ref));
  return db
    .selectFrom('custom_harnesses')
    .selectAll()
    .where('team_id', '=', teamId)
    .where((eb) => eb.or([eb('name', 'in', refs.length > 0 ? refs : ['']), eb('id', 'in', ids.length > 0 ? ids : [''])]))
    .execute();
}

export const findHarnessesByIds = (db: Kysely<DB>, ids: readonly string[]) =>
  db.selectFrom('custom_harnesses').selectAll().where('id', 'in', ids.length > 0 ? ids : ['']).execute();

// ------------------------------------------------------------------ sources

export const findAgentTeam = (db: Kysely<DB>, id: string) => db.selectFrom('agents').select(['id', 'team_id']).where('id', '=', id).executeTakeFirst();

/** Of `ids`, those that are personas of the team (system presets are not rows: the service checks them). */
export const teamPersonaIds = async (db: Kysely<DB>, teamId: string, ids: readonly string[]) =>
  (await db.selectFrom('personas').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute()).map((r) => r.id);

export const teamPolicyIds = async (db: Kysely<DB>, teamId: string, ids: readonly string[]) =>
  (await db.selectFrom('policies').select('id').where('team_id', '=', teamId).where('id', 'in', ids).execute()).map((r) => r.id);

export async function agentNames(db: Kysely<DB>, ids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return new Map();
  const rows = await db.selectFrom('agents').select(['id', 'agent_name']).where('id', 'in', unique).execute();
  return new Map(rows.map((r) => [r.id, r.agent_name]));
}

// ------------------------------------------------------------------ prompts

const PROMPTS_PER_STATEMENT = 250;

export async function insertPrompts(db: Kysely<DB>, rows: readonly Insertable<CustomHarnessPromptsTable>[]): Promise<void> {
  for (let start = 0; start < rows.length; start += PROMPTS_PER_STATEMENT) {
    await db.insertInto('custom_harness_prompts').values(rows.slice(start, start + PROMPTS_PER_STATEMENT)).execute();
  }
}

export const deletePrompts = (db: Kysely<DB>, harnessId: string) => db.deleteFrom('custom_harness_prompts').where('harness_id', '=', harnessId).execute();

export const listPrompts = (db: Kysely<DB>, harnessId: string) =>
  db.selectFrom('custom_harness_prompts').selectAll().where('harness_id', '=', harnessId).orderBy('ordinal').execute();
