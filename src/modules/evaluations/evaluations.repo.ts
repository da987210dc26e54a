import { sql, type Insertable, type Kysely, type Selectable, type Updateable } from 'kysely';
import type { DB, EvaluationReportsTable, EvaluationResultsTable, EvaluationsTable } from '../../db/schema.js';
import { decodeStringList } from '../../db/json-columns.js';
import { tableCaching } from '../../db/table-caching.js';
import type { PillarEvidence } from '../../evaluation/evidence.js';
import type { Pillar } from '../../evaluation/types.js';

/**
 * Cache classes (docs/caching.md). `evaluations` is classified with the agents' tables, whose
 * answers carry it (`latest_evaluation`, read by `latestEvaluations` below). Results are written in batches while a run goes (a commit each):
 * data, which moves only the read version.
 */
export const EVALUATION_TABLES = tableCaching({ evaluation_results: 'data', evaluation_reports: 'data', agent_pillar_evidence: 'data' });

export type EvaluationRow = Selectable<EvaluationsTable>;
export type EvaluationPatch = Updateable<EvaluationsTable>;
export type ResultRow = Selectable<EvaluationResultsTable>;
export type NewResult = Insertable<EvaluationResultsTable>;

export const insertEvaluation = (db: Kysely<DB>, row: Insertable<EvaluationsTable>) => db.insertInto('evaluations').values(row).execute();

export const findEvaluation = (db: Kysely<DB>, id: string) => db.selectFrom('evaluations').selectAll().where('id', '=', id).executeTakeFirst();

export const updateEvaluation = (db: Kysely<DB>, id: string, patch: EvaluationPatch) =>
  db.updateTable('evaluations').set(patch).where('id', '=', id).returningAll().executeTakeFirst();

/** Updates it only while it is still running: a cancelled or deleted run is not brought back by a late write. */
export const updateRunning = async (db: Kysely<DB>, id: string, patch: EvaluationPatch) =>
  Number((await db.updateTable('evaluations').set(patch).where('id', '=', id).where('status', '=', 'running').executeTakeFirst()).numUpdatedRows) > 0;

/**
 * Updates it only while it is still running the given job's run: the write of a run is fenced
 * by its job (the record's `job_id`), not by the evaluation's id, which a client may choose and
 * re-use once the evaluation is deleted (docs/jobs.md, "Fencing").
 */
export const updateRunOf = async (db: Kysely<DB>, id: string, jobId: string, patch: EvaluationPatch) =>
  Number(
    (await db.updateTable('evaluations').set(patch).where('id', '=', id).where('job_id', '=', jobId).where('status', '=', 'running').executeTakeFirst())
      .numUpdatedRows,
  ) > 0;

export const deleteEvaluation = async (db: Kysely<DB>, id: string) =>
  Number((await db.deleteFrom('evaluations').where('id', '=', id).executeTakeFirst()).numDeletedRows) > 0;

/** `teamIds` empty: nothing (an IN list cannot be empty). */
const inTeams = (db: Kysely<DB>, teamIds: readonly string[]) => db.selectFrom('evaluations').where('team_id', 'in', teamIds.length > 0 ? teamIds : ['']);

export const listEvaluations = (db: Kysely<DB>, teamIds: readonly string[], limit: number, offset: number) =>
  inTeams(db, teamIds).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();

const completed = (db: Kysely<DB>, teamId: string) => db.selectFrom('evaluations').where('team_id', '=', teamId).where('status', '=', 'completed');

export const listCompleted = (db: Kysely<DB>, teamId: string, limit: number, offset: number) =>
  completed(db, teamId).selectAll().orderBy('completed_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();

export const countCompleted = async (db: Kysely<DB>, teamId: string) =>
  Number((await completed(db, teamId).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

export interface SummaryFilter {
  teamId: string;
  agentId?: string | null | undefined;
  status?: string | null | undefined;
  harnessType?: string | null | undefined;
  testedBy?: string | null | undefined;
}

const summaries = (db: Kysely<DB>, f: SummaryFilter) => {
  let query = db.selectFrom('evaluations').where('team_id', '=', f.teamId).where('summary_deleted', '=', 0);
  if (f.agentId != null) query = query.where('agent_id', '=', f.agentId);
  if (f.status != null) query = query.where('status', '=', f.status);
  if (f.harnessType != null) query = query.where('harness_type', '=', f.harnessType);
  if (f.testedBy != null) query = query.where('tested_by', '=', f.testedBy);
  return query;
};

export const listSummaries = (db: Kysely<DB>, f: SummaryFilter, limit: number, offset: number) =>
  summaries(db, f).selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).offset(offset).execute();

export const countSummaries = async (db: Kysely<DB>, f: SummaryFilter) =>
  Number((await summaries(db, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** Per agent of the team, its newest completed evaluation whose summary is not deleted. */
export async function latestSummaryPerAgent(db: Kysely<DB>, teamId: string): Promise<EvaluationRow[]> {
  const rows = await summaries(db, { teamId, status: 'completed' })
    .selectAll()
    .orderBy('agent_id')
    .orderBy('completed_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const latest = new Map<string, EvaluationRow>();
  for (const row of rows) if (!latest.has(row.agent_id)) latest.set(row.agent_id, row);
  return [...latest.values()].sort((a, b) => (b.completed_at ?? 0) - (a.completed_at ?? 0) || (a.id < b.id ? 1 : -1));
}

// ------------------------------------------------------------------ results

/** The prompts of a run already stored (a resumed run skips them). */
export async function storedPromptIds(db: Kysely<DB>, evaluationId: string): Promise<Set<string>> {
  const rows = await db.selectFrom('evaluation_results').select('prompt_id').where('evaluation_id', '=', evaluationId).execute();
  return new Set(rows.map((r) => r.prompt_id));
}

/** Rows per INSERT: 18 parameters each, far below both engines' bound-parameter limits. */
const RESULTS_PER_STATEMENT = 250;

/** Idempotent: a prompt stored twice (a run taken over after a lost lease) keeps its first row. */
export async function insertResults(db: Kysely<DB>, rows: readonly NewResult[]): Promise<void> {
  for (let start = 0; start < rows.length; start += RESULTS_PER_STATEMENT) {
    await db
      .insertInto('evaluation_results')
      .values(rows.slice(start, start + RESULTS_PER_STATEMENT))
      .onConflict((oc) => oc.columns(['evaluation_id', 'prompt_id']).doNothing())
      .execute();
  }
}

export interface ResultFilter {
  evaluationId: string;
  passed?: boolean | undefined;
  /** Only prompts without a verdict (errors). */
  errors?: boolean | undefined;
}

const results = (db: Kysely<DB>, f: ResultFilter) => {
  let query = db.selectFrom('evaluation_results').where('evaluation_id', '=', f.evaluationId);
  if (f.passed !== undefined) query = query.where('passed', '=', f.passed ? 1 : 0);
  if (f.errors === true) query = query.where('passed', 'is', null);
  return query;
};

export const listResults = (db: Kysely<DB>, f: ResultFilter, limit: number, offset: number) =>
  results(db, f).selectAll().orderBy('ordinal').orderBy('prompt_id').limit(limit).offset(offset).execute();

export const countResults = async (db: Kysely<DB>, f: ResultFilter) =>
  Number((await results(db, f).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

/** What aggregation needs of every stored prompt: a few short columns, in plan order. */
export const verdictRows = (db: Kysely<DB>, evaluationId: string) =>
  db
    .selectFrom('evaluation_results')
    .select(['harness', 'scenario', 'probe', 'passed'])
    .where('evaluation_id', '=', evaluationId)
    .orderBy('ordinal')
    .orderBy('prompt_id')
    .execute();

/** Characters of a failure's texts a report reads (it shows at most 900 of them). */
const REPORT_TEXT_CHARS = 2_000;

/** The first `perProbe` failed prompts of each probe, in plan order (the reports' failure examples), their texts cut to REPORT_TEXT_CHARS. */
export async function failureExamples(db: Kysely<DB>, evaluationId: string, perProbe: number) {
  const ranked = db
    .selectFrom('evaluation_results')
    .select(['prompt_id', 'variation', 'scores', 'harness', 'scenario', 'probe', 'ordinal'])
    .select([
      sql<string>`substr(prompt, 1, ${sql.lit(REPORT_TEXT_CHARS)})`.as('prompt'),
      sql<string | null>`substr(response, 1, ${sql.lit(REPORT_TEXT_CHARS)})`.as('response'),
      sql<string>`substr(reason, 1, ${sql.lit(REPORT_TEXT_CHARS)})`.as('reason'),
    ])
    .select(sql<number>`row_number() over (partition by harness, scenario, probe order by ordinal, prompt_id)`.as('rank'))
    .where('evaluation_id', '=', evaluationId)
    .where('passed', '=', 0)
    .as('ranked');
  return db
    .selectFrom(ranked)
    .select(['prompt_id', 'variation', 'scores', 'harness', 'scenario', 'probe', 'prompt', 'response', 'reason'])
    .where('rank', '<=', perProbe)
    .orderBy('ordinal')
    .execute();
}

/**
 * The agent's previous completed evaluation of the same harnesses (same type and names), in the
 * same team, created before `row`: what a report compares with.
 */
export const previousCompletedRun = (db: Kysely<DB>, row: EvaluationRow) =>
  db
    .selectFrom('evaluations')
    .selectAll()
    .where('agent_id', '=', row.agent_id)
    .where('team_id', '=', row.team_id)
    .where('status', '=', 'completed')
    .where('harness_type', '=', row.harness_type)
    .where('harness_names', '=', row.harness_names)
    .where('id', '!=', row.id)
    .where((eb) => eb.or([eb('created_at', '<', row.created_at), eb.and([eb('created_at', '=', row.created_at), eb('id', '<', row.id)])]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();

/**
 * Prompts (by id) judged in both runs whose verdict went from `before` in `previousId` to
 * `after` in `currentId`: their count and the first `limit` ids in plan order.
 */
export async function changedVerdicts(db: Kysely<DB>, currentId: string, previousId: string, before: 0 | 1, after: 0 | 1, limit: number) {
  const query = db
    .selectFrom('evaluation_results as cur')
    .innerJoin('evaluation_results as prev', (join) => join.onRef('prev.prompt_id', '=', 'cur.prompt_id').on('prev.evaluation_id', '=', previousId))
    .where('cur.evaluation_id', '=', currentId)
    .where('cur.passed', '=', after)
    .where('prev.passed', '=', before);
  const [count, ids] = await Promise.all([
    query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    query.select('cur.prompt_id').orderBy('cur.ordinal').orderBy('cur.prompt_id').limit(limit).execute(),
  ]);
  return { count: Number(count.n), ids: ids.map((r) => r.prompt_id) };
}

/** The most frequent agent error of a run (the reason given when no prompt could be scored). */
export async function commonestError(db: Kysely<DB>, evaluationId: string): Promise<string | undefined> {
  const row = await db
    .selectFrom('evaluation_results')
    .select(['error', sql<number>`count(*)`.as('n')])
    .where('evaluation_id', '=', evaluationId)
    .where('error', 'is not', null)
    .groupBy('error')
    .orderBy('n', 'desc')
    .orderBy('error')
    .limit(1)
    .executeTakeFirst();
  return row?.error ?? undefined;
}

// ------------------------------------------------------------------ reports

/** When the cached reports were rendered (undefined: none cached). */
export const reportGeneratedAt = async (db: Kysely<DB>, evaluationId: string) =>
  (await db.selectFrom('evaluation_reports').select('generated_at').where('evaluation_id', '=', evaluationId).executeTakeFirst())?.generated_at;

export const findReportPart = <K extends 'html' | 'pdf'>(db: Kysely<DB>, evaluationId: string, part: K) =>
  db.selectFrom('evaluation_reports').select([part, 'generated_at']).where('evaluation_id', '=', evaluationId).executeTakeFirst();

export async function saveReport(db: Kysely<DB>, row: Insertable<EvaluationReportsTable>): Promise<void> {
  await db
    .insertInto('evaluation_reports')
    .values(row)
    .onConflict((oc) =>
      oc.column('evaluation_id').doUpdateSet({ html: row.html, pdf: row.pdf, generated_by: row.generated_by, generated_at: row.generated_at }),
    )
    .execute();
}

// ------------------------------------------------------------------ evidence

/** Ids per `IN (…)` list: far below SQLite's (32,766) and PostgreSQL's (65,535) bound-parameter limits. */
const IDS_PER_QUERY = 1000;

/** The latest completed evaluation of each agent in `agentIds` (a whole fleet is read in batches). */
export async function latestEvaluations(db: Kysely<DB>, agentIds: readonly string[]) {
  const latest = new Map<string, LatestEvaluationRow>();
  for (let start = 0; start < agentIds.length; start += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('evaluations')
      .select(['id', 'agent_id', 'overall_score', 'reliability_score', 'security_score', 'safety_score', 'completed_at'])
      .where('agent_id', 'in', agentIds.slice(start, start + IDS_PER_QUERY))
      .where('status', '=', 'completed')
      .orderBy('agent_id')
      .orderBy('completed_at', 'desc')
      .orderBy('id', 'desc')
      .execute();
    for (const row of rows) if (!latest.has(row.agent_id)) latest.set(row.agent_id, row);
  }
  return latest;
}

export interface LatestEvaluationRow {
  id: string;
  agent_id: string;
  overall_score: number | null;
  reliability_score: number | null;
  security_score: number | null;
  safety_score: number | null;
  completed_at: number | null;
}

/** The agents' evidence per pillar (docs/evaluations.md, "The agent's evidence"), by agent. */
export async function findEvidenceOf(db: Kysely<DB>, agentIds: readonly string[]): Promise<Map<string, PillarEvidence[]>> {
  const out = new Map<string, PillarEvidence[]>();
  for (let start = 0; start < agentIds.length; start += IDS_PER_QUERY) {
    const rows = await db
      .selectFrom('agent_pillar_evidence')
      .selectAll()
      .where('agent_id', 'in', agentIds.slice(start, start + IDS_PER_QUERY))
      .orderBy('agent_id')
      .orderBy('pillar')
      .execute();
    for (const row of rows) {
      const list = out.get(row.agent_id) ?? [];
      list.push({
        pillar: row.pillar as Pillar,
        evaluationId: row.evaluation_id,
        harnesses: decodeStringList(row.harnesses, 'agent_pillar_evidence.harnesses') ?? [],
        score: { score: row.score, n: row.n, low: row.low, high: row.high },
        measuredAt: Number(row.measured_at),
      });
      out.set(row.agent_id, list);
    }
  }
  return out;
}

export const findEvidence = async (db: Kysely<DB>, agentId: string): Promise<PillarEvidence[]> => (await findEvidenceOf(db, [agentId])).get(agentId) ?? [];

/** Writes an agent's evidence, a row per pillar (inside the transaction that completes a run). */
export async function saveEvidence(db: Kysely<DB>, agentId: string, evidence: readonly PillarEvidence[]): Promise<void> {
  for (const e of evidence) {
    const values = {
      evaluation_id: e.evaluationId,
      harnesses: JSON.stringify(e.harnesses),
      score: e.score.score,
      n: e.score.n,
      low: e.score.low,
      high: e.score.high,
      measured_at: e.measuredAt,
    };
    await db
      .insertInto('agent_pillar_evidence')
      .values({ agent_id: agentId, pillar: e.pillar, ...values })
      .onConflict((oc) => oc.columns(['agent_id', 'pillar']).doUpdateSet(values))
      .execute();
  }
}
