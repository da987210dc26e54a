import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import { Type, type Static } from 'typebox';
import { decodeJsonColumn, decodeNullableJsonColumn } from '../../db/json-columns.js';
import type { DB, RedteamCampaignsTable, RedteamFindingsTable } from '../../db/schema.js';
import { tableCaching } from '../../db/table-caching.js';
import type { Catch, SuggestedConfig } from '../../redteam/guard.js';
import type { RedteamSummary } from '../../redteam/summary.js';
import { ATTACK_CATEGORIES, STRATEGIES, type AttackCase, type AttackCategory, type Goal, type Strategy } from '../../redteam/types.js';

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

/*
 * A campaign's JSON columns, decoded here, once (docs/architecture.md, "Typed edges"): the run
 * gets typed values or a ColumnDecodeError naming the column, never a value of another shape.
 */
const GoalColumn = Type.Union([
  Type.Object({ kind: Type.Literal('canary'), canary: Type.String() }),
  Type.Object({ kind: Type.Literal('leak') }),
  Type.Object({ kind: Type.Literal('comply'), task: Type.String() }),
  Type.Object({ kind: Type.Literal('personal-data') }),
  Type.Object({ kind: Type.Literal('toxic'), triggers: Type.Array(Type.String()) }),
  Type.Object({ kind: Type.Literal('fabrication'), entity: Type.String() }),
  Type.Object({ kind: Type.Literal('false-premise'), markers: Type.Array(Type.String()) }),
  Type.Object({ kind: Type.Literal('tool-use'), tool: Type.String(), canary: Type.String() }),
]);
// Fails to compile when the engine's Goal gains a kind this column does not decode.
const goalKindsCovered: Goal['kind'] extends Static<typeof GoalColumn>['kind'] ? true : never = true;
void goalKindsCovered;

const CasesColumn = Type.Array(
  Type.Object({
    id: Type.String(),
    category: Type.Enum(ATTACK_CATEGORIES),
    probe: Type.String(),
    payload: Type.String(),
    goal: GoalColumn,
    topic: Type.String(),
    source: Type.Enum(['template', 'grey_box', 'llm']),
  }),
);
const CategoriesColumn = Type.Array(Type.Enum(ATTACK_CATEGORIES));
const StrategiesColumn = Type.Array(Type.Enum(STRATEGIES));
const StringsColumn = Type.Array(Type.String());
/** What the creation stored of provider_config (./options.ts), and whether the target was an agent or a URL. */
const OptionsColumn = Type.Object({
  best_of_n: Type.Optional(Type.Integer()),
  crescendo_turns: Type.Optional(Type.Integer()),
  protocol: Type.Optional(Type.Enum(['chat_completions', 'a2a'])),
  rate_limit_per_minute: Type.Optional(Type.Number()),
  through_dome: Type.Optional(Type.Boolean()),
  target: Type.Optional(Type.Enum(['agent', 'url'])),
});

/** The categories a campaign attacks. */
export const campaignCategories = (row: Pick<CampaignRow, 'categories'>): AttackCategory[] =>
  decodeJsonColumn(CategoriesColumn, row.categories, 'redteam_campaigns.categories');

/** What a campaign's run reads of its row, decoded. */
export interface CampaignPlanColumns {
  categories: AttackCategory[];
  customPlugins: string[];
  strategies: Strategy[];
  options: Static<typeof OptionsColumn>;
  /** The cases a previous run planned and stored (null: not planned yet). */
  cases: AttackCase[] | null;
}

export function campaignColumns(row: CampaignRow): CampaignPlanColumns {
  return {
    categories: campaignCategories(row),
    customPlugins: decodeNullableJsonColumn(StringsColumn, row.custom_plugins, 'redteam_campaigns.custom_plugins') ?? [],
    strategies: decodeJsonColumn(StrategiesColumn, row.strategies, 'redteam_campaigns.strategies'),
    options: decodeJsonColumn(OptionsColumn, row.options, 'redteam_campaigns.options'),
    cases: decodeNullableJsonColumn(CasesColumn, row.cases, 'redteam_campaigns.cases'),
  };
}

const FindingMetadataColumn = Type.Object({
  caught_by: Type.Optional(
    Type.Array(
      Type.Object({
        guard: Type.String(),
        direction: Type.Enum(['input', 'output']),
        methods: Type.Array(Type.String()),
        action: Type.Enum(['blocked', 'redacted']),
      }),
    ),
  ),
});

/** The guards a finding's metadata says would have caught it ([] when none, or not checked). */
export const findingCatches = (metadata: string): Catch[] =>
  decodeJsonColumn(FindingMetadataColumn, metadata, 'redteam_findings.metadata').caught_by ?? [];

const ObjectColumn = Type.Record(Type.String(), Type.Unknown());

/** The summary a completed campaign stored (./run/outcome.ts), with the numbers of its result beside it. */
const SummaryColumn = Type.Object({
  summary: Type.Optional(
    Type.Object({
      total_tests: Type.Number(),
      passed: Type.Number(),
      failed: Type.Number(),
      errors: Type.Number(),
      categories_tested: Type.Array(Type.String()),
      vulnerabilities_found: Type.Boolean(),
    }),
  ),
});
// Fails to compile when the engine's summary gains a field this column does not decode.
const summaryCovered: RedteamSummary extends NonNullable<Static<typeof SummaryColumn>['summary']> ? true : never = true;
void summaryCovered;

/** The suggested Dome configuration a completed campaign stored (src/redteam/guard.ts, SuggestedConfig). */
const SuggestionColumn = Type.Object({
  config_body: ObjectColumn,
  added_guards: Type.Array(
    Type.Object({ guard: Type.String(), direction: Type.Enum(['input', 'output']), methods: Type.Array(Type.String()), would_stop: Type.Number() }),
  ),
  would_stop: Type.Number(),
  successful_attacks: Type.Number(),
});

/** A completed campaign's summary (null before it completed). */
export const campaignSummary = (row: Pick<CampaignRow, 'summary'>): RedteamSummary | null =>
  decodeNullableJsonColumn(SummaryColumn, row.summary, 'redteam_campaigns.summary')?.summary ?? null;

/** The Dome configuration a completed campaign suggested (null: none). */
export const campaignSuggestion = (row: Pick<CampaignRow, 'suggestion'>): SuggestedConfig | null =>
  decodeNullableJsonColumn(SuggestionColumn, row.suggestion, 'redteam_campaigns.suggestion');

/** A finding's metadata (probe, strategy, reason, what caught it…) and its conversation, decoded. */
export const findingMetadata = (metadata: string): Record<string, unknown> => decodeJsonColumn(ObjectColumn, metadata, 'redteam_findings.metadata');
export const findingConversation = (conversation: string): unknown[] =>
  decodeJsonColumn(Type.Array(Type.Unknown()), conversation, 'redteam_findings.conversation');

/** What a campaign's result shows of its stored settings and outcome, decoded. */
export const campaignResultColumns = (row: CampaignRow) => ({
  summary: decodeNullableJsonColumn(ObjectColumn, row.summary, 'redteam_campaigns.summary') ?? {},
  suggestion: decodeNullableJsonColumn(ObjectColumn, row.suggestion, 'redteam_campaigns.suggestion'),
  categories: campaignCategories(row),
  customPlugins: decodeNullableJsonColumn(StringsColumn, row.custom_plugins, 'redteam_campaigns.custom_plugins'),
  strategies: decodeJsonColumn(StrategiesColumn, row.strategies, 'redteam_campaigns.strategies'),
  options: decodeJsonColumn(OptionsColumn, row.options, 'redteam_campaigns.options'),
});

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
