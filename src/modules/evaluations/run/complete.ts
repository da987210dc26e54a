import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { mergeEvidence, missingPillars, overallOfEvidence, VERDICT_NAME, verdictOf } from '../../../evaluation/evidence.js';
import { formatDecimal } from '../../../evaluation/report/text.js';
import { aggregate, PASS_THRESHOLD, type EvaluationScores } from '../../../evaluation/aggregate.js';
import type { StoredHarnessScore } from '../evaluations.mapping.js';
import type { JobContext } from '../../../jobs/types.js';
import { updateAgent } from '../../agents/agents.repo.js';
import { commonestError, findEvidence, saveEvidence, updateRunOf, verdictRows, type EvaluationRow } from '../evaluations.repo.js';
import { completedMessage } from './messages.js';
import type { HarnessInfo, Plan } from './plan.js';

/** The engine's name on the agent (CONTRACT.md, "Engine names"). */
export const TESTED_BY = 'diamond';

/**
 * CONTRACT.md: a decimal string with at most 4 decimals. Truncated, as the report prints it
 * (0.69996 is "0.6999", never "0.7000" beside a FAIL), so the agent and its report show one number.
 */
export const testScoreOf = (overall: number) => formatDecimal(overall);

/**
 * pillar_details as the summaries answer it: every level's score, n and interval, and the
 * verdict (PASS / FAIL only when every pillar was measured, else INCOMPLETE with the pillars
 * missing: docs/evaluations.md, "The PASS rule").
 */
export function pillarDetails(scores: EvaluationScores, harnesses: ReadonlyMap<string, HarnessInfo>, prompts: number) {
  // The reports' own rule (0.70, floating-point noise allowed), so the summary and the report agree.
  const verdict = verdictOf(scores.overall, PASS_THRESHOLD, { pillars: scores.pillars });
  return {
    overall: scores.overall,
    pillars: scores.pillars,
    pass_threshold: PASS_THRESHOLD,
    passed: verdict === 'pass',
    verdict: VERDICT_NAME[verdict],
    missing_pillars: missingPillars(scores.pillars),
    prompts,
    errors: scores.errors,
    harnesses: scores.harnesses.map((h) => ({
      id: h.id,
      name: harnesses.get(h.id)?.name ?? h.id,
      pillar: h.pillar,
      score: h.score,
      errors: h.errors,
      scenarios: h.scenarios.map((s) => ({
        id: s.id,
        score: s.score,
        errors: s.errors,
        probes: s.probes.map((p) => ({ id: p.id, score: p.score, passed: p.passed, errors: p.errors })),
      })),
    })),
  };
}

export function harnessScores(scores: EvaluationScores, harnesses: ReadonlyMap<string, HarnessInfo>): Record<string, StoredHarnessScore> {
  const out: Record<string, StoredHarnessScore> = {};
  for (const h of scores.harnesses) {
    out[h.id] = {
      name: harnesses.get(h.id)?.name ?? h.id,
      pillar: h.pillar,
      score: h.score?.score ?? null,
      n: h.score?.n ?? 0,
      low: h.score?.low ?? null,
      high: h.score?.high ?? null,
      errors: h.errors,
    };
  }
  return out;
}

/**
 * Scores the stored verdicts and records the end of the run: the evaluation completed with its
 * scores and, in the same transaction, the evidence on the agent: each pillar it measured
 * replaces that pillar's evidence, and test_score is the mean over the evidence (also
 * last_tested_by, evaluated_harnesses, last_evaluated_at; never its trust stage). Nothing is written when the
 * evaluation stopped running this job meanwhile (cancelled, deleted, re-created under the same
 * id) or the run lost its job: the job's fenced transaction. Throws when no prompt could be
 * scored: the run fails with the agent's commonest error as its reason.
 */
export async function completeRun(
  db: Kysely<DB>,
  fenced: JobContext['fenced'],
  run: { evaluation: EvaluationRow; jobId: string },
  plan: Plan,
  at: number,
): Promise<boolean> {
  const { evaluation, jobId } = run;
  const rows = await verdictRows(db, evaluation.id);
  const verdicts = rows.map((row) => ({ ...row, passed: row.passed === null ? null : row.passed === 1 }));
  const errors = verdicts.filter((v) => v.passed === null).length;
  if (rows.length > 0 && errors === rows.length) {
    const cause = await commonestError(db, evaluation.id);
    throw new Error(`No prompt could be scored: all ${rows.length} failed${cause === undefined ? '' : ` (for example: ${cause})`}`);
  }
  const scores = aggregate(verdicts, (harness) => plan.harnesses.get(harness)?.pillar);
  const evaluatedHarnesses = [...plan.harnesses.entries()].map(([id, info]) => (evaluation.harness_type === 'custom' ? info.name : id));
  return fenced(async (trx) => {
    const changed = await updateRunOf(trx, evaluation.id, jobId, {
      status: 'completed',
      completed_at: at,
      overall_score: scores.overall?.score ?? null,
      reliability_score: scores.pillars.reliability?.score ?? null,
      security_score: scores.pillars.security?.score ?? null,
      safety_score: scores.pillars.safety?.score ?? null,
      harness_scores: JSON.stringify(harnessScores(scores, plan.harnesses)),
      pillar_details: JSON.stringify(pillarDetails(scores, plan.harnesses, rows.length)),
      progress_done: rows.length,
      error_count: errors,
      status_message: completedMessage(rows.length, errors),
    });
    if (!changed) return false;
    // The agent's row first: on PostgreSQL this locks it, so two runs of one agent ending together merge their evidence one after the other.
    await updateAgent(trx, evaluation.agent_id, { last_tested_by: TESTED_BY, last_evaluated_at: at, updated_at: at });
    const evidence = mergeEvidence(await findEvidence(trx, evaluation.agent_id), {
      evaluationId: evaluation.id,
      at,
      pillars: scores.pillars,
      harnesses: [...plan.harnesses.entries()].map(([id, info]) => ({ name: evaluation.harness_type === 'custom' ? info.name : id, pillar: info.pillar })),
    });
    await saveEvidence(trx, evaluation.agent_id, evidence);
    const overall = overallOfEvidence(evidence);
    await updateAgent(trx, evaluation.agent_id, {
      // The mean of each pillar's latest measurement (docs/evaluations.md, "The agent's evidence"): a narrower run hides no wider one.
      test_score: overall === null ? null : testScoreOf(overall.score),
      evaluated_harnesses: JSON.stringify(evidence.length === 0 ? evaluatedHarnesses : [...new Set(evidence.flatMap((e) => e.harnesses))]),
    });
    return true;
  });
}
