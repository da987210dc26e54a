/**
 * The agent's evidence and the verdict rule (docs/evaluations.md, "The agent's evidence" and
 * "The PASS rule"): an agent keeps the latest measurement of each pillar, whichever run made
 * it, and its overall score is the mean of those (CONTRACT.md: overall = mean of the pillars
 * measured). A verdict is PASS or FAIL only when every pillar was measured. Pure.
 */
import { meetsThreshold } from './report/geometry.js';
import { PILLARS, type Pillar, type ScoreWithInterval } from './types.js';

/** One pillar's latest measurement on an agent. */
export interface PillarEvidence {
  pillar: Pillar;
  evaluationId: string;
  /** The harnesses that measured it in that run. */
  harnesses: string[];
  score: ScoreWithInterval;
  /** When that run completed (epoch seconds). */
  measuredAt: number;
}

/** What a completed run measured: its pillars (null or n = 0: not measured) and the harnesses behind each. */
export interface MeasuredRun {
  evaluationId: string;
  at: number;
  pillars: Record<Pillar, ScoreWithInterval | null>;
  harnesses: ReadonlyArray<{ name: string; pillar: Pillar }>;
}

const measured = (score: ScoreWithInterval | null | undefined): score is ScoreWithInterval => score != null && score.n > 0;

/** The pillars with no measurement (in the order of PILLARS). */
export function missingPillars(pillars: Partial<Record<Pillar, ScoreWithInterval | null>>): Pillar[] {
  return PILLARS.filter((pillar) => !measured(pillars[pillar]));
}

/**
 * The evidence after a run: each pillar the run measured replaces the one kept (the latest
 * measurement wins); a pillar it did not measure keeps its older measurement. Sorted by pillar.
 */
export function mergeEvidence(previous: readonly PillarEvidence[], run: MeasuredRun): PillarEvidence[] {
  const byPillar = new Map(previous.map((e) => [e.pillar, e]));
  for (const pillar of PILLARS) {
    const score = run.pillars[pillar];
    if (!measured(score)) continue;
    const harnesses = run.harnesses.filter((h) => h.pillar === pillar).map((h) => h.name);
    byPillar.set(pillar, { pillar, evaluationId: run.evaluationId, harnesses, score, measuredAt: run.at });
  }
  return PILLARS.flatMap((pillar) => byPillar.get(pillar) ?? []);
}

/** The agent's overall score: the mean of its pillars' latest scores, and the date of the oldest of them (its age). Null without evidence. */
export function overallOfEvidence(evidence: readonly PillarEvidence[]): { score: number; measuredAt: number } | null {
  if (evidence.length === 0) return null;
  const score = evidence.reduce((sum, e) => sum + e.score.score, 0) / evidence.length;
  return { score, measuredAt: Math.min(...evidence.map((e) => e.measuredAt)) };
}

export type Verdict = 'pass' | 'fail' | 'incomplete' | 'not-measured';

/** The verdict as the API writes it (`verdict` of a summary). */
export const VERDICT_NAME = { pass: 'PASS', fail: 'FAIL', incomplete: 'INCOMPLETE', 'not-measured': 'NOT MEASURED' } as const satisfies Record<Verdict, string>;

/**
 * PASS at overall ≥ the threshold (compared on the unrounded score, float noise allowed), FAIL
 * below it, but only for a completed run that measured every pillar: a run that did not
 * complete is INCOMPLETE, a completed one with no overall score NOT MEASURED, and one with a
 * pillar not measured INCOMPLETE.
 * `pillars` left out: the overall score alone decides (a pillar chart with no pillars).
 */
export function verdictOf(
  overall: ScoreWithInterval | null,
  threshold: number,
  evidence?: { pillars: Partial<Record<Pillar, ScoreWithInterval | null>>; status?: string },
): Verdict {
  if (evidence?.status !== undefined && evidence.status !== 'completed') return 'incomplete';
  if (overall === null || overall.n === 0) return 'not-measured';
  if (evidence !== undefined && missingPillars(evidence.pillars).length > 0) return 'incomplete';
  return meetsThreshold(overall.score, threshold) ? 'pass' : 'fail';
}
