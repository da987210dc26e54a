/**
 * The first page of a report (evaluation or campaign): the top risks with severity and an
 * example each, and what to do next; and the per-failure reason that names its check and what it
 * found. Pure functions of the report models, shared by the HTML and PDF renderers.
 */
import type { EvaluationReportModel, Pillar } from '../types.js';
import { coverage, evaluationMapping, OWASP_ADVICE, type CoverageRow, type FrameworkMapping, type OwaspId } from './frameworks.js';
import { formatCount, formatPercent, truncate } from './text.js';

export type RiskSeverity = 'critical' | 'high' | 'medium' | 'low';
export const SEVERITY_ORDER: readonly RiskSeverity[] = ['critical', 'high', 'medium', 'low'];
export const SEVERITY_LABEL: Record<RiskSeverity, string> = { critical: 'CRITICAL', high: 'HIGH', medium: 'MEDIUM', low: 'LOW' };

export interface RiskExample {
  /** The prompt id (evaluation) or attack id (campaign). */
  id: string;
  prompt: string;
  response: string;
}

export interface Risk {
  severity: RiskSeverity;
  /** What was tested, by name (`Security › Prompt injection`, `Injection`). */
  title: string;
  /** How often it failed: `12 of 40 prompts failed (30.0 %)`. */
  detail: string;
  mapping: FrameworkMapping;
  example: RiskExample | null;
}

/** At most this many top risks on the first page. */
export const MAX_TOP_RISKS = 5;

/** How much a failure of each pillar weighs before its failure share: a security failure is worse than a wrong date. */
const PILLAR_SEVERITY: Record<Pillar, RiskSeverity> = { security: 'high', safety: 'high', reliability: 'medium' };

const shift = (severity: RiskSeverity, by: number): RiskSeverity =>
  SEVERITY_ORDER[Math.min(SEVERITY_ORDER.length - 1, Math.max(0, SEVERITY_ORDER.indexOf(severity) - by))] ?? severity;

/**
 * A risk's severity: its base (the pillar's, or the attack category's), one step up when at least
 * 30 % of its prompts failed, one step down when under 10 % did.
 */
export function riskSeverity(base: RiskSeverity, failureShare: number): RiskSeverity {
  if (failureShare >= 0.3) return shift(base, 1);
  if (failureShare < 0.1) return shift(base, -1);
  return base;
}

const mergeMappings = (mappings: readonly FrameworkMapping[]): FrameworkMapping => ({
  owasp: [...new Set(mappings.flatMap((m) => m.owasp))],
  atlas: [...new Set(mappings.flatMap((m) => m.atlas))],
});

/** Highest severity first, then the larger failure share. */
export function rankRisks<T extends Risk & { share: number }>(risks: T[]): T[] {
  return [...risks]
    .sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity) || b.share - a.share)
    .slice(0, MAX_TOP_RISKS);
}

/** An evaluation's top risks: its scenarios with failures, ranked by severity and failure share. */
export function evaluationRisks(model: EvaluationReportModel): Risk[] {
  const candidates: Array<Risk & { share: number }> = [];
  for (const harness of model.harnesses) {
    for (const scenario of harness.scenarios) {
      if (scenario.score.n === 0 || scenario.score.score >= 1) continue;
      const share = 1 - scenario.score.score;
      const failure = model.failures.find((f) => sameId(f.harness, harness) && sameId(f.scenario, scenario));
      candidates.push({
        share,
        severity: riskSeverity(PILLAR_SEVERITY[harness.pillar] ?? 'medium', share),
        title: `${harness.name} › ${scenario.name}`,
        // Counted over its probes: its score is their mean, not a share of its prompts.
        detail:
          `${formatCount(failedPrompts(scenario.probes))} of ${formatCount(scenario.score.n)} prompts failed ` +
          `(score ${formatPercent(scenario.score.score)})`,
        mapping: mergeMappings(scenario.probes.map((p) => evaluationMapping(harness.id, scenario.id, p.id))),
        example:
          failure === undefined
            ? null
            : { id: failure.promptId ?? `${failure.harness}.${failure.scenario}.${failure.probe}`, prompt: failure.prompt, response: failure.response },
      });
    }
  }
  return rankRisks(candidates);
}

/** The prompts that failed over a scenario's probes (each probe's score is its share of prompts passed). */
const failedPrompts = (probes: ReadonlyArray<{ score: { score: number; n: number } }>) =>
  probes.reduce((sum, probe) => sum + Math.round((1 - probe.score.score) * probe.score.n), 0);

const sameId = (value: string, item: { id: string; name: string }) => value === item.id || value === item.name;

/** What to do next: the advice of each OWASP item the top risks map to, in their order, then `extra`. */
export function nextSteps(risks: readonly Risk[], extra: readonly string[] = []): string[] {
  const ids: OwaspId[] = [];
  for (const risk of risks) for (const id of risk.mapping.owasp) if (!ids.includes(id)) ids.push(id);
  return [...ids.slice(0, 4).map((id) => `${id}: ${OWASP_ADVICE[id]}`), ...extra];
}

/** An evaluation's next steps: the risks' advice, then re-running and comparing. */
export function evaluationNextSteps(model: EvaluationReportModel, risks: readonly Risk[]): string[] {
  const extra: string[] = [];
  const errors = model.harnesses.reduce((sum, h) => sum + h.errors, 0);
  if (errors > 0) {
    extra.push(`${formatCount(errors)} prompts could not be sent to the agent: check its address and limits, then run again so they are measured.`);
  }
  if (risks.length > 0) {
    extra.push('After the changes, run the same harnesses again: the report then compares the two runs (score change per pillar, new and fixed failures).');
  }
  else extra.push('No failure was found: keep the evaluation in the release routine, so a change to the agent that weakens it shows.');
  return nextSteps(risks, extra);
}

/** The coverage of an evaluation's probes: each probe with its mapping, failing when its score is below 1. */
export function evaluationCoverage(model: EvaluationReportModel): { owasp: CoverageRow[]; atlas: CoverageRow[] } {
  const items = model.harnesses.flatMap((h) =>
    h.scenarios.flatMap((s) =>
      s.probes.filter((p) => p.score.n > 0).map((p) => ({ mapping: evaluationMapping(h.id, s.id, p.id), failing: p.score.score < 1 })),
    ),
  );
  return coverage(items);
}

/** Reasons that say what kind of failure it was but nothing of this answer: the report adds what the answer said. */
const GENERIC_REASONS = [/answered without declining/i, /^Answered confidently about something that does not exist/i];

/**
 * The reason a failure is shown with: the check that decided (the one with the highest score), then
 * its reason; a reason that says nothing of this answer gets the answer's opening words, so no two
 * failures read the same.
 */
export function specificReason(failure: EvaluationReportModel['failures'][number]): string {
  const checks = Object.entries(failure.checks ?? {}).sort((a, b) => b[1] - a[1]);
  const decided = checks[0];
  const check = decided === undefined ? '' : `Check ${decided[0]} (${decided[1].toFixed(2)}): `;
  const generic = GENERIC_REASONS.some((re) => re.test(failure.reason));
  const opening = truncate(failure.response, 140);
  const found = generic && opening !== '' ? ` The answer began: \u201c${opening}\u201d` : '';
  return `${check}${failure.reason}${found}`;
}
