/**
 * The CI gate: what `warden evaluate --fail-under` and `warden redteam --fail-over` decide from
 * what the API answered. Pure functions, unit-tested beside this file.
 */
import type { SuccessRate } from '../redteam/summary.js';

export interface Interval {
  score: number;
  n?: number;
  low?: number;
  high?: number;
}

export interface HarnessMeasure {
  id: string;
  pillar: string;
  score: Interval | null;
  errors?: number;
}

export interface PillarDetails {
  overall: Interval | null;
  pillars: Record<string, Interval | null>;
  harnesses: HarnessMeasure[];
  passed?: boolean | null;
}

export const PILLARS = ['security', 'safety', 'reliability'] as const;

export interface EvaluationGate {
  /** 0 every harness asked for met the bound (or no bound was given), 1 one did not. */
  exitCode: 0 | 1;
  /** Harnesses asked for that were not measured at all (no scored prompt). */
  unmeasured: string[];
  /** Harnesses below the bound. */
  below: string[];
  /** Pillars this run did not measure: the verdict is INCOMPLETE when there is one. */
  missingPillars: string[];
  lines: string[];
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
export const formatInterval = (s: Interval | null): string =>
  s === null ? 'not measured' : s.low !== undefined && s.high !== undefined ? `${pct(s.score)} [${pct(s.low)}, ${pct(s.high)}]` : pct(s.score);

/**
 * Every harness asked for must have a score of at least `failUnder`. A harness that was asked
 * for and has no score (every prompt errored) fails the gate: nothing shows it is safe.
 */
export function gateEvaluation(details: PillarDetails, asked: readonly string[], failUnder: number | undefined): EvaluationGate {
  const byId = new Map(details.harnesses.map((h) => [h.id, h]));
  const unmeasured: string[] = [];
  const below: string[] = [];
  const lines: string[] = [];
  for (const name of asked) {
    const harness = byId.get(name);
    const score = harness?.score ?? null;
    let mark = '';
    if (score === null) {
      unmeasured.push(name);
      mark = failUnder !== undefined ? '  FAIL (not measured)' : '';
    } else if (failUnder !== undefined && score.score < failUnder) {
      below.push(name);
      mark = `  FAIL (< ${pct(failUnder)})`;
    } else if (failUnder !== undefined) {
      mark = '  ok';
    }
    lines.push(`  ${name.padEnd(14)} ${formatInterval(score)}${harness?.errors ? `  (${harness.errors} errors)` : ''}${mark}`);
  }
  const missingPillars = PILLARS.filter((p) => (details.pillars[p] ?? null) === null);
  lines.push(`  ${'overall'.padEnd(14)} ${formatInterval(details.overall)}`);
  if (missingPillars.length > 0) {
    lines.push(`verdict: INCOMPLETE (not measured: ${missingPillars.join(', ')}); gated on what this run measured`);
  }
  const failed = failUnder !== undefined && (below.length > 0 || unmeasured.length > 0);
  return { exitCode: failed ? 1 : 0, unmeasured, below, missingPillars, lines };
}

/** The red-team gate: the overall attack success rate must be at most `failOver`. */
export function gateCampaign(overall: SuccessRate | null | undefined, failOver: number | undefined): { exitCode: 0 | 1; line: string } {
  if (!overall || overall.rate === null) {
    return { exitCode: failOver !== undefined ? 1 : 0, line: 'attack success rate: not measured (no attack was judged)' };
  }
  const interval = overall.low !== null && overall.high !== null ? ` [${pct(overall.low)}, ${pct(overall.high)}]` : '';
  const line = `attack success rate: ${pct(overall.rate)}${interval} (${overall.successful} of ${overall.n} attacks succeeded)`;
  if (failOver === undefined) return { exitCode: 0, line };
  return overall.rate > failOver ? { exitCode: 1, line: `${line}  FAIL (> ${pct(failOver)})` } : { exitCode: 0, line: `${line}  ok` };
}
