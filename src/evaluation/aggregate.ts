/**
 * Verdicts → scores (docs/evaluations.md, "Scores"). Probe = share of its scored prompts that
 * passed; scenario = mean of its probes; harness = mean of its scenarios; pillar = mean of its
 * harnesses; overall = mean of the pillars measured. Errors (`passed: null`) are left out of
 * every score and counted apart. A level with nothing scored has `score: null` and is left out
 * of its parent's mean.
 *
 * Intervals: a probe has the Wilson 95 % interval of its passes / n. A mean of means has a
 * Wilson interval around the mean with an effective sample size (Kish): the children's
 * variances (Agresti–Coull, so 0 % and 100 % children still carry uncertainty) are combined
 * as for a mean, and turned back into the n a single proportion with that variance would have,
 * never more than the prompts pooled. With equal children it is the pooled Wilson interval.
 */
import { HARNESS_PILLAR, PILLARS, type Pillar, type ScoreWithInterval, type StandardHarnessId } from './types.js';

export const Z95 = 1.96;
/** A report shows PASS at overall ≥ this (CONTRACT.md). */
export const PASS_THRESHOLD = 0.7;

/** Wilson score interval for `successes` of `n` (successes may be fractional); null when n = 0. */
export function wilson(successes: number, n: number, z = Z95): { low: number; high: number } | null {
  if (!(n > 0)) return null;
  const p = Math.min(1, Math.max(0, successes / n));
  const z2 = z * z;
  const denominator = 1 + z2 / n;
  const centre = (p + z2 / (2 * n)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / denominator;
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

export interface VerdictRow {
  harness: string;
  scenario: string;
  probe: string;
  passed: boolean | null;
}

export interface ProbeScore {
  id: string;
  score: ScoreWithInterval | null;
  passed: number;
  errors: number;
}
export interface ScenarioScore {
  id: string;
  score: ScoreWithInterval | null;
  errors: number;
  probes: ProbeScore[];
}
export interface HarnessScore {
  id: string;
  pillar: Pillar;
  score: ScoreWithInterval | null;
  errors: number;
  scenarios: ScenarioScore[];
}
export interface EvaluationScores {
  overall: ScoreWithInterval | null;
  pillars: Record<Pillar, ScoreWithInterval | null>;
  harnesses: HarnessScore[];
  errors: number;
}

/** A measured level, with what its parent needs to combine it. */
interface Estimate {
  score: number;
  n: number;
  /** Agresti–Coull centre and variance of `score`. */
  adjusted: number;
  variance: number;
}

const toScore = (e: Estimate | null): ScoreWithInterval | null => {
  if (!e) return null;
  const nEffective = Math.min(e.n, Math.max(1, (e.adjusted * (1 - e.adjusted)) / e.variance - Z95 * Z95));
  const interval = wilson(e.score * nEffective, nEffective) ?? { low: 0, high: 1 };
  // The mean sits inside its interval even where rounding of a tiny n would push it out.
  return { score: e.score, n: e.n, low: Math.min(interval.low, e.score), high: Math.max(interval.high, e.score) };
};

function proportion(passed: number, n: number): Estimate | null {
  if (n === 0) return null;
  const z2 = Z95 * Z95;
  const adjusted = (passed + z2 / 2) / (n + z2);
  return { score: passed / n, n, adjusted, variance: (adjusted * (1 - adjusted)) / (n + z2) };
}

function meanOf(children: Array<Estimate | null>): Estimate | null {
  const measured = children.filter((c): c is Estimate => c !== null);
  const k = measured.length;
  if (k === 0) return null;
  const sum = (f: (e: Estimate) => number) => measured.reduce((total, e) => total + f(e), 0);
  return { score: sum((e) => e.score) / k, n: sum((e) => e.n), adjusted: sum((e) => e.adjusted) / k, variance: sum((e) => e.variance) / (k * k) };
}

/** Insertion-ordered grouping: levels come out in the order their first verdict came in (the catalogue's). */
const groupBy = <T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> => {
  const out = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
};

const standardPillar = (harness: string): Pillar | undefined => HARNESS_PILLAR[harness as StandardHarnessId];

/**
 * Scores every level. `pillarOf` gives a custom harness its pillar (standard harnesses fall
 * back to HARNESS_PILLAR); a harness with no pillar throws rather than count toward a guess.
 */
export function aggregate(rows: readonly VerdictRow[], pillarOf: (harness: string) => Pillar | undefined = standardPillar): EvaluationScores {
  const harnessEstimates = new Map<string, Estimate | null>();
  const harnesses: HarnessScore[] = [];
  for (const [harnessId, harnessRows] of groupBy(rows, (r) => r.harness)) {
    const pillar = pillarOf(harnessId) ?? standardPillar(harnessId);
    if (!pillar) throw new Error(`Harness '${harnessId}' has no pillar`);
    const scenarioEstimates: Array<Estimate | null> = [];
    const scenarios: ScenarioScore[] = [];
    for (const [scenarioId, scenarioRows] of groupBy(harnessRows, (r) => r.scenario)) {
      const probeEstimates: Array<Estimate | null> = [];
      const probes: ProbeScore[] = [];
      for (const [probeId, probeRows] of groupBy(scenarioRows, (r) => r.probe)) {
        const passed = probeRows.filter((r) => r.passed === true).length;
        const errors = probeRows.filter((r) => r.passed === null).length;
        const estimate = proportion(passed, probeRows.length - errors);
        probeEstimates.push(estimate);
        probes.push({ id: probeId, score: toScore(estimate), passed, errors });
      }
      const estimate = meanOf(probeEstimates);
      scenarioEstimates.push(estimate);
      scenarios.push({ id: scenarioId, score: toScore(estimate), errors: probes.reduce((t, p) => t + p.errors, 0), probes });
    }
    const estimate = meanOf(scenarioEstimates);
    harnessEstimates.set(harnessId, estimate);
    harnesses.push({ id: harnessId, pillar, score: toScore(estimate), errors: scenarios.reduce((t, s) => t + s.errors, 0), scenarios });
  }
  const pillarEstimates = Object.fromEntries(
    PILLARS.map((pillar) => [pillar, meanOf(harnesses.filter((h) => h.pillar === pillar).map((h) => harnessEstimates.get(h.id) ?? null))]),
  ) as Record<Pillar, Estimate | null>;
  return {
    overall: toScore(meanOf(PILLARS.map((p) => pillarEstimates[p]))),
    pillars: Object.fromEntries(PILLARS.map((p) => [p, toScore(pillarEstimates[p])])) as Record<Pillar, ScoreWithInterval | null>,
    harnesses,
    errors: harnesses.reduce((t, h) => t + h.errors, 0),
  };
}

export const passes = (overall: ScoreWithInterval | null): boolean => overall !== null && overall.score >= PASS_THRESHOLD;
