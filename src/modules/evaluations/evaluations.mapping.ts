import { Type, type Static } from 'typebox';
import { decodeJsonColumn, decodeNullableJsonColumn, decodeStringList } from '../../db/json-columns.js';
import { Nullable } from '../../http/schemas.js';
import type { EvaluationRow, ResultRow } from './evaluations.repo.js';
import { PASS_THRESHOLD } from '../../evaluation/aggregate.js';
import { missingPillars, VERDICT_NAME, verdictOf } from '../../evaluation/evidence.js';
import type { Pillar, ScoreWithInterval } from '../../evaluation/types.js';
import { truncationFields } from './result-bounds.js';
import type { EvaluationListItem, EvaluationStatusOut, EvaluationSummaryOut } from './evaluations.schemas.js';

/** Rows → API objects (never a row spread: a new column does not leak). */

/*
 * The JSON columns of evaluations and results, decoded with their schemas (docs/architecture.md,
 * "Typed edges"): a stored value of another shape is a ColumnDecodeError naming the column.
 */
const ObjectColumn = Type.Record(Type.String(), Type.Unknown());

export const harnessNamesOf = (row: Pick<EvaluationRow, 'harness_names'>): string[] =>
  decodeStringList(row.harness_names, 'evaluations.harness_names') ?? [];

/** Per-harness scores, as stored on completion: harness → { score, … }. */
export const StoredHarnessScore = Type.Object({
  name: Type.String(),
  pillar: Type.String(),
  score: Nullable(Type.Number()),
  n: Type.Number(),
  low: Nullable(Type.Number()),
  high: Nullable(Type.Number()),
  errors: Type.Number(),
});
export type StoredHarnessScore = Static<typeof StoredHarnessScore>;
const HarnessScoresColumn = Type.Record(Type.String(), StoredHarnessScore);

export const harnessScoresOf = (row: Pick<EvaluationRow, 'harness_scores'>): Record<string, StoredHarnessScore> | null =>
  decodeNullableJsonColumn(HarnessScoresColumn, row.harness_scores, 'evaluations.harness_scores');

/** A run's request parameters (what was asked for), as stored at creation. */
export const requestParamsOf = (row: Pick<EvaluationRow, 'request_params'>): Record<string, unknown> | null =>
  decodeNullableJsonColumn(ObjectColumn, row.request_params, 'evaluations.request_params');

/** A result's detector readings (id → 0..1). */
export const detectorScoresOf = (scores: string): Record<string, number> =>
  decodeJsonColumn(Type.Record(Type.String(), Type.Number()), scores, 'evaluation_results.scores');

/** The status answer's `scores`: harness → score (0..1), harnesses with a score only. */
function scoreMap(row: EvaluationRow): Record<string, number> | null {
  const stored = harnessScoresOf(row);
  if (stored === null) return null;
  const out: Record<string, number> = {};
  for (const [id, value] of Object.entries(stored)) if (value.score !== null) out[id] = value.score;
  return out;
}

export function toEvaluationStatus(row: EvaluationRow): EvaluationStatusOut {
  return {
    evaluation_id: row.id,
    status: row.status,
    scores: scoreMap(row),
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    error_message: row.error_message,
    status_message: row.status_message,
    team_id: row.team_id,
    agent_id: row.agent_id,
    harness_names: harnessNamesOf(row),
    harness_type: row.harness_type,
    sample_size: row.sample_size,
    seed: row.seed,
    progress: { done: row.progress_done, total: row.progress_total, errors: row.error_count },
  };
}

/** An item of GET /v1/evaluations/ (the reference's free-form summaries). */
export function toEvaluationItem(row: EvaluationRow, agentName: string | undefined): Record<string, unknown> {
  return {
    ...toEvaluationStatus(row),
    agent_name: agentName ?? row.agent_name,
    created_by: row.created_by,
    tested_by: row.tested_by,
  };
}

export function toListItem(row: EvaluationRow, agentName: string | undefined): Static<typeof EvaluationListItem> {
  return {
    evaluation_id: row.id,
    team_id: row.team_id,
    created_by: row.created_by,
    created_at: row.created_at,
    completed_at: row.completed_at,
    agent_id: row.agent_id,
    agent_name: agentName ?? row.agent_name,
  };
}

/**
 * The summary's verdict (an addition): PASS or FAIL only for a completed run that measured every
 * pillar, INCOMPLETE naming the pillars missing otherwise (docs/evaluations.md, "The PASS rule");
 * null while it runs. Computed from the stored scores, so runs stored before the rule get it too.
 */
function verdictFields(row: EvaluationRow, details: Record<string, unknown>) {
  if (row.status === 'running') return { verdict: null, missing_pillars: null };
  const pillars = (details.pillars ?? {}) as Partial<Record<Pillar, ScoreWithInterval | null>>;
  const overall = (details.overall ?? null) as ScoreWithInterval | null;
  const verdict = verdictOf(overall, PASS_THRESHOLD, { pillars, status: row.status });
  return { verdict: VERDICT_NAME[verdict], missing_pillars: missingPillars(pillars) };
}

export function toSummary(row: EvaluationRow): EvaluationSummaryOut {
  const details = decodeNullableJsonColumn(ObjectColumn, row.pillar_details, 'evaluations.pillar_details') ?? {};
  const verdict = verdictFields(row, details);
  return {
    id: row.id,
    team_id: row.team_id,
    agent_id: row.agent_id,
    tested_by: row.tested_by,
    status: row.status,
    reliability_score: row.reliability_score,
    security_score: row.security_score,
    safety_score: row.safety_score,
    overall_score: row.overall_score,
    pillar_details: row.pillar_details === null ? details : { ...details, passed: verdict.verdict === 'PASS', ...verdict },
    harness_names: harnessNamesOf(row),
    harness_type: row.harness_type,
    resource_version: null,
    created_by: row.created_by,
    created_at: row.created_at,
    completed_at: row.completed_at,
    request_params: requestParamsOf(row),
    ...verdict,
  };
}

export function toResult(row: ResultRow): Record<string, unknown> {
  return {
    prompt_id: row.prompt_id,
    harness: row.harness,
    scenario: row.scenario,
    probe: row.probe,
    base: row.base,
    variation: row.variation,
    prompt: row.prompt,
    response: row.response,
    ...truncationFields(row),
    passed: row.passed === null ? null : row.passed === 1,
    detector_scores: detectorScoresOf(row.scores),
    reason: row.reason,
    error: row.error,
    latency_ms: row.latency_ms,
    ...(row.lineage === null ? {} : { lineage: decodeJsonColumn(ObjectColumn, row.lineage, 'evaluation_results.lineage') }),
  };
}
