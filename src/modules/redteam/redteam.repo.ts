import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, RedteamCampaignsTable, RedteamFindingsTable } from '../../db/schema.js';
import { tableCaching } from '../../db/table-caching.js';

/** Campaigns and findings decide no principal (docs/caching.md); findings are written in the background while a campaign runs. */
export const REDTEAM_TABLES = tableCaching({ redteam_campaigns: 'data', redteam_findings: 'data' });

export type CampaignRow = Selectable<RedteamCampaignsTable>;
export type FindingRow = Selectable<RedteamFindingsTable>;
export type NewFinding = Insertable<RedteamFindingsTable>;

/** A campaign that has not ended: the only ones a run (or a cancel) may still change. */
export const ACTIVE_STATUSES = ['pending', 'running'] as const;

export const insertCampaign = (db: Kysely<DB>, row: Insertable<RedteamCampaignsTable>) => db.insertInto('redteam_campaigns').values(row).execute();

export const findCampaign = (db: Kysely<DB>, id: string) => db.selectFrom('redteam_campaigns').selectAll().where('id', '=', id).executeTakeFirst();

export const updateCampaign = (db: Kysely<DB>, id: string, patch: Updateable<RedteamCampaignsTable>) =>
  db.updateTable('redteam_campaigns').set(patch).where('id', '=', id).execute();

/** Changes a campaign that has not ended; false when it had (cancelled, deleted…): the caller stops. */
export async function updateActive(db: Kysely<DB>, id: string, patch: Updateable<RedteamCampaignsTable>): Promise<boolean> {
  const result = await db.updateTable('redteam_campaigns').set(patch).where('id', '=', id).where('status', 'in', [...ACTIVE_STATUSES]).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Changes a campaign that has not ended, while it still runs the given job: the writes of a run
 * are fenced by its job, not by the campaign's id (docs/jobs.md, "Fencing").
 */
export async function updateActiveOf(db: Kysely<DB>, id: string, jobId: string, patch: Updateable<RedteamCampaignsTable>): Promise<boolean> {
  const result = await db
    .updateTable('redteam_campaigns')
    .set(patch)
    .where('id', '=', id)
    .where('job_id', '=', jobId)
    .where('status', 'in', [...ACTIVE_STATUSES])
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export const deleteCampaign = (db: Kysely<DB>, id: string) => db.deleteFrom('redteam_campaigns').where('id', '=', id).execute();

/** Newest first, over the teams given. */
export function listCampaigns(db: Kysely<DB>, teamIds: readonly string[], limit: number, offset: number) {
  if (teamIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('redteam_campaigns')
    .selectAll()
    .where('team_id', 'in', [...teamIds])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export const findAgentRow = (db: Kysely<DB>, id: string) => db.selectFrom('agents').selectAll().where('id', '=', id).executeTakeFirst();

export const findDomeConfig = (db: Kysely<DB>, id: string) => db.selectFrom('dome_configs').selectAll().where('id', '=', id).executeTakeFirst();

export async function insertFindings(db: Kysely<DB>, rows: readonly NewFinding[]): Promise<void> {
  if (rows.length === 0) return;
  // A resumed run may finish an attack the interrupted one had written: the first write stands.
  await db
    .insertInto('redteam_findings')
    .values([...rows])
    .onConflict((oc) => oc.columns(['campaign_id', 'attack_id']).doNothing())
    .execute();
}

export async function storedAttackIds(db: Kysely<DB>, campaignId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('redteam_findings').select('attack_id').where('campaign_id', '=', campaignId).execute();
  return new Set(rows.map((r) => r.attack_id));
}

/** Judged findings (errored attacks are not findings), in plan order, a page at a time. */
export const listFindings = (db: Kysely<DB>, campaignId: string, offset: number, limit: number) =>
  db
    .selectFrom('redteam_findings')
    .selectAll()
    .where('campaign_id', '=', campaignId)
    .where('passed', 'is not', null)
    .orderBy('seq')
    .orderBy('attack_id')
    .limit(limit)
    .offset(offset)
    .execute();

/** The first `limit` errored attacks, in plan order. */
export const listErroredAttacks = (db: Kysely<DB>, campaignId: string, limit: number) =>
  db
    .selectFrom('redteam_findings')
    .select(['attack_id', 'category', 'strategy', 'error'])
    .where('campaign_id', '=', campaignId)
    .where('passed', 'is', null)
    .orderBy('seq')
    .orderBy('attack_id')
    .limit(limit)
    .execute();

/** Per attack: what the summary and the success rates are computed from (no texts). */
export const findingOutcomes = (db: Kysely<DB>, campaignId: string) =>
  db.selectFrom('redteam_findings').select(['category', 'strategy', 'severity', 'passed', 'metadata', 'error']).where('campaign_id', '=', campaignId).execute();

/** Texts of a finding a report shows, cut to this many characters in the query (the report cuts them again). */
const REPORT_TEXT_CHARS = 2_000;

/** The first `limit` successful attacks (not white-box findings), in plan order, texts cut: what a report lists. */
export const listSuccessfulAttacks = (db: Kysely<DB>, campaignId: string, limit: number) =>
  db
    .selectFrom('redteam_findings')
    .select(['attack_id', 'category', 'probe', 'strategy', 'severity', 'detector_id', 'metadata'])
    .select([
      sql<string>`substr(attack_prompt, 1, ${sql.lit(REPORT_TEXT_CHARS)})`.as('attack_prompt'),
      sql<string>`substr(agent_response, 1, ${sql.lit(REPORT_TEXT_CHARS)})`.as('agent_response'),
    ])
    .where('campaign_id', '=', campaignId)
    .where('passed', '=', 0)
    .where('category', '!=', 'source_code')
    .orderBy('seq')
    .orderBy('attack_id')
    .limit(limit)
    .execute();
