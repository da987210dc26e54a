/**
 * What the HTML and PDF reports say, derived once from the model so both say the same: the
 * verdict, the facts of the run, the failure examples (cut to length, named by their names)
 * and the request parameters (with anything secret-looking withheld).
 */
import { PILLARS, type EvaluationReportModel, type Pillar, type ScoreWithInterval } from '../types.js';
import { evaluationMapping, type FrameworkMapping } from './frameworks.js';
import { meetsThreshold } from './geometry.js';
import { specificReason } from './risks.js';
import { excerpt, formatCount, formatDecimal, formatDuration, formatPercent, formatTimestamp, truncate, type Excerpt } from './text.js';

/** How long a name, description or URL may be in a report (a longer one is cut with an ellipsis). */
export const TEXT_BOUNDS = { name: 200, description: 400, url: 400 } as const;

/**
 * The model with every free-text label bounded, so a hostile or runaway string (a 100 000
 * character agent name) cannot swell a report; failure texts are cut later, by failureExamples.
 */
export function boundedModel(model: EvaluationReportModel): EvaluationReportModel {
  const name = (text: string) => truncate(text, TEXT_BOUNDS.name);
  return {
    ...model,
    evaluationId: name(model.evaluationId),
    agent: {
      id: name(model.agent.id),
      name: name(model.agent.name),
      modelName: model.agent.modelName === null ? null : name(model.agent.modelName),
      url: model.agent.url === null ? null : truncate(model.agent.url, TEXT_BOUNDS.url),
    },
    teamName: model.teamName === null ? null : name(model.teamName),
    status: name(model.status),
    harnesses: model.harnesses.map((harness) => ({
      ...harness,
      name: name(harness.name),
      scenarios: harness.scenarios.map((scenario) => ({
        ...scenario,
        name: name(scenario.name),
        probes: scenario.probes.map((probe) => ({ ...probe, name: name(probe.name), description: truncate(probe.description, TEXT_BOUNDS.description) })),
      })),
    })),
  };
}

export type Verdict = 'pass' | 'fail' | 'not-measured';

export const VERDICT_LABEL: Record<Verdict, string> = { pass: 'PASS', fail: 'FAIL', 'not-measured': 'NOT MEASURED' };

export const PILLAR_LABEL: Record<Pillar, string> = { reliability: 'Reliability', security: 'Security', safety: 'Safety' };

/** CONTRACT.md: PASS at overall ≥ the threshold, compared on the unrounded score (up to float noise). */
export function verdictOf(overall: ScoreWithInterval | null, threshold: number): Verdict {
  if (overall === null || overall.n === 0) return 'not-measured';
  return meetsThreshold(overall.score, threshold) ? 'pass' : 'fail';
}

/** `70 %` (a threshold is shown without a decimal when it has none). */
export function formatThreshold(threshold: number): string {
  return formatPercent(threshold).replace(/\.0(?=\u00a0%)/, '');
}

export function thresholdLabel(threshold: number): string {
  return `pass at ${formatThreshold(threshold)}`;
}

export function verdictSentence(model: EvaluationReportModel): string {
  const verdict = verdictOf(model.overall, model.passThreshold);
  const threshold = formatThreshold(model.passThreshold);
  if (verdict === 'not-measured' || model.overall === null) {
    return `No overall score was measured, so there is no verdict (PASS needs an overall score of at least ${threshold}).`;
  }
  const relation = verdict === 'pass' ? 'at or above' : 'below';
  return `Overall score ${formatPercent(model.overall.score)} (${formatDecimal(model.overall.score)}) is ${relation} the pass threshold of ${threshold}.`;
}

export interface ReportTotals {
  /** Prompts whose answer was judged. */
  scored: number;
  /** Prompts whose agent could not be reached: not in any score. */
  errors: number;
}

export function reportTotals(model: EvaluationReportModel): ReportTotals {
  let scored = 0;
  let errors = 0;
  for (const harness of model.harnesses) {
    scored += harness.score.n;
    errors += harness.errors;
  }
  return { scored: model.overall?.n ?? scored, errors };
}

export interface ReportFact {
  label: string;
  value: string;
}

/** The facts block under the title, in order. */
export function reportFacts(model: EvaluationReportModel): ReportFact[] {
  const totals = reportTotals(model);
  const facts: ReportFact[] = [
    { label: 'Evaluation', value: model.evaluationId },
    { label: 'Agent ID', value: model.agent.id },
    { label: 'Team', value: model.teamName ?? '—' },
    { label: 'Status', value: model.status },
    { label: 'Started', value: formatTimestamp(model.createdAt) },
    { label: 'Completed', value: formatTimestamp(model.completedAt) },
  ];
  if (model.completedAt !== null && model.completedAt >= model.createdAt) {
    facts.push({ label: 'Duration', value: formatDuration(model.completedAt - model.createdAt) });
  }
  facts.push(
    { label: 'Prompts scored', value: formatCount(totals.scored) },
    { label: 'Errors', value: `${formatCount(totals.errors)} (agent unreachable; not scored)` },
    { label: 'Harnesses', value: formatCount(model.harnesses.length) },
  );
  return facts;
}

/** A warning when the run did not complete: its scores cover part of the prompts. */
export function statusNote(model: EvaluationReportModel): string | null {
  if (model.status === 'completed') return null;
  return `This evaluation is ${model.status}, not completed: the scores cover only the prompts answered before it stopped.`;
}

export interface PillarEntry {
  pillar: Pillar;
  label: string;
  score: ScoreWithInterval | null;
}

export function pillarEntries(model: EvaluationReportModel): PillarEntry[] {
  return PILLARS.map((pillar) => ({ pillar, label: PILLAR_LABEL[pillar], score: model.pillars[pillar] ?? null }));
}

export interface FailureLimits {
  promptChars: number;
  responseChars: number;
  maxLines: number;
  reasonChars: number;
}

export interface FailureExample {
  /** Harness, scenario and probe, by name where the model knows them. */
  path: [string, string, string];
  /** The prompt's stable id, and the transform applied (null: not known). */
  promptId: string | null;
  variation: string | null;
  /** Its OWASP Top 10 for LLM (2025) and MITRE ATLAS items. */
  mapping: FrameworkMapping;
  prompt: Excerpt;
  response: Excerpt;
  reason: string;
}

/** The model's failures with names resolved and texts cut to `limits`. */
export function failureExamples(model: EvaluationReportModel, limits: FailureLimits): FailureExample[] {
  return model.failures.map((failure) => {
    const harness = model.harnesses.find((h) => h.id === failure.harness || h.name === failure.harness);
    const scenario = harness?.scenarios.find((s) => s.id === failure.scenario || s.name === failure.scenario);
    const probe = scenario?.probes.find((p) => p.id === failure.probe || p.name === failure.probe);
    return {
      path: [
        truncate(harness?.name ?? failure.harness, TEXT_BOUNDS.name),
        truncate(scenario?.name ?? failure.scenario, TEXT_BOUNDS.name),
        truncate(probe?.name ?? failure.probe, TEXT_BOUNDS.name),
      ],
      promptId: failure.promptId === undefined ? null : truncate(failure.promptId, TEXT_BOUNDS.name),
      variation: failure.variation === undefined ? null : truncate(failure.variation, TEXT_BOUNDS.name),
      mapping: evaluationMapping(harness?.id ?? failure.harness, scenario?.id ?? failure.scenario, probe?.id ?? failure.probe),
      prompt: excerpt(failure.prompt, limits.promptChars, limits.maxLines),
      response: excerpt(failure.response, limits.responseChars, limits.maxLines),
      reason: excerpt(specificReason(failure), limits.reasonChars, 4).text,
    };
  });
}

/** A key that names a credential: its value is never printed, whatever the caller put there. */
const SECRET_KEY = /(api[_-]?key|token|secret|passw|authori[sz]ation|credential|cookie|bearer)/i;
const PARAM_VALUE_CHARS = 400;

export interface ParameterRow {
  key: string;
  value: string;
}

/** The request parameters as key/value lines, values as compact JSON, secrets withheld. */
export function requestParameterRows(params: Record<string, unknown>): ParameterRow[] {
  return Object.entries(params).map(([key, value]) => ({
    key: truncate(key, 80),
    value: SECRET_KEY.test(key) ? '[withheld]' : truncate(describeValue(value), PARAM_VALUE_CHARS),
  }));
}

function describeValue(value: unknown): string {
  if (value === undefined) return '—';
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean')) {
    return value.length === 0 ? '(none)' : value.join(', ');
  }
  try {
    return JSON.stringify(value, (k, v: unknown) => (k !== '' && SECRET_KEY.test(k) ? '[withheld]' : v)) ?? String(value);
  } catch {
    return String(value);
  }
}
