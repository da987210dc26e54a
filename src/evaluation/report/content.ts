/**
 * What the HTML and PDF reports say, derived once from the model so both say the same: the
 * verdict, the facts of the run, the failure examples (cut to length, named by their names)
 * and the request parameters (with anything secret-looking withheld).
 */
import { PILLARS, type EvaluationReportModel, type Pillar, type ScoreWithInterval } from '../types.js';
import { missingPillars, VERDICT_NAME, verdictOf, type Verdict } from '../evidence.js';
import { evaluationMapping, type FrameworkMapping } from './frameworks.js';
import { specificReason } from './risks.js';
import { excerpt, formatCount, formatDecimal, formatDuration, formatPercent, formatTimestamp, NBSP, truncate, type Excerpt } from './text.js';

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

export { verdictOf, type Verdict } from '../evidence.js';

export const VERDICT_LABEL: Record<Verdict, string> = VERDICT_NAME;

export const PILLAR_LABEL: Record<Pillar, string> = { reliability: 'Reliability', security: 'Security', safety: 'Safety' };

/** The report's verdict: PASS or FAIL only for a completed run that measured every pillar (docs/evaluations.md, "The PASS rule"). */
export function reportVerdict(model: EvaluationReportModel): Verdict {
  return verdictOf(model.overall, model.passThreshold, { pillars: model.pillars, status: model.status });
}

/** `70 %` (a threshold is shown without a decimal when it has none). */
export function formatThreshold(threshold: number): string {
  return formatPercent(threshold).replace(/\.0(?=\u00a0%)/, '');
}

export function thresholdLabel(threshold: number): string {
  return `pass at ${formatThreshold(threshold)}`;
}

export function verdictSentence(model: EvaluationReportModel): string {
  const verdict = reportVerdict(model);
  const threshold = formatThreshold(model.passThreshold);
  if (verdict === 'incomplete' && (model.overall === null || model.overall.n === 0)) {
    return `No PASS or FAIL: the run is ${model.status} and no pillar was measured before it stopped.`;
  }
  if (verdict === 'not-measured' || model.overall === null) {
    return `No overall score was measured, so there is no verdict (PASS needs an overall score of at least ${threshold}).`;
  }
  if (verdict === 'incomplete') {
    const missing = missingPillars(model.pillars).map((p) => PILLAR_LABEL[p].toLowerCase());
    const why =
      model.status !== 'completed'
        ? `the run is ${model.status}`
        : `${missing.join(' and ')} ${missing.length === 1 ? 'was' : 'were'} not measured`;
    const overall = `${formatPercent(model.overall.score)} (${formatDecimal(model.overall.score)})`;
    return `Overall score ${overall} over the pillars measured, but no PASS or FAIL: ${why}, and a verdict needs all three pillars of a completed run.`;
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

/** The facts of a run both reports (evaluation and campaign) print: team, status, start, end, duration. */
export function runFacts(run: { teamName: string | null; status: string; createdAt: number; completedAt: number | null }): ReportFact[] {
  const facts: ReportFact[] = [
    { label: 'Team', value: run.teamName ?? '—' },
    { label: 'Status', value: run.status },
    { label: 'Started', value: formatTimestamp(run.createdAt) },
    { label: 'Completed', value: formatTimestamp(run.completedAt) },
  ];
  if (run.completedAt !== null && run.completedAt >= run.createdAt) {
    facts.push({ label: 'Duration', value: formatDuration(run.completedAt - run.createdAt) });
  }
  return facts;
}

/** The facts block under the title, in order. */
export function reportFacts(model: EvaluationReportModel): ReportFact[] {
  const totals = reportTotals(model);
  const facts: ReportFact[] = [{ label: 'Evaluation', value: model.evaluationId }, { label: 'Agent ID', value: model.agent.id }, ...runFacts(model)];
  facts.push(
    { label: 'Prompts scored', value: formatCount(totals.scored) },
    { label: 'Errors', value: `${formatCount(totals.errors)} (agent unreachable; not scored)` },
    { label: 'Harnesses', value: formatCount(model.harnesses.length) },
  );
  return facts;
}

/**
 * A warning when the run did not complete: what it measured before it stopped and what it did
 * not; its partial scores are no verdict and are not the agent's evidence.
 */
export function statusNote(model: EvaluationReportModel): string | null {
  if (model.status === 'completed') return null;
  if (model.status === 'running') return 'This evaluation is still running: the scores cover only the prompts answered so far.';
  const ended = model.status === 'failed' ? 'failed' : model.status === 'cancelled' ? 'was cancelled' : `is ${model.status}`;
  const reason = model.errorMessage ? ` (${truncate(model.errorMessage, TEXT_BOUNDS.description)})` : '';
  const totals = reportTotals(model);
  const planned = typeof model.requestParams.prompts === 'number' ? ` of ${formatCount(model.requestParams.prompts)} planned` : '';
  const measured = PILLARS.filter((p) => (model.pillars[p]?.n ?? 0) > 0).map(
    (p) => `${PILLAR_LABEL[p].toLowerCase()} (n = ${formatCount(model.pillars[p]?.n ?? 0)})`,
  );
  const missing = missingPillars(model.pillars).map((p) => PILLAR_LABEL[p].toLowerCase());
  return (
    `This evaluation ${ended}${reason} before it completed: ${formatCount(totals.scored)} prompts were scored${planned}, ` +
    `${formatCount(totals.errors)} could not be. Measured before it stopped: ${measured.length > 0 ? measured.join(', ') : 'nothing'}; ` +
    `not measured: ${missing.length > 0 ? missing.join(', ') : 'nothing'}. ` +
    'These scores cover only the prompts answered before it stopped: they are no verdict, and were not written to the agent’s evidence.'
  );
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

/**
 * "How to read this report" of an evaluation, as plain sentences both renderers print: the words a
 * recipient who never saw Warden meets (pillar, harness, probe, transform, interval, verdict).
 */
export function evaluationReading(model: EvaluationReportModel): string[] {
  return [
    'Terms. A pillar is one of the three things Warden measures (security, safety, reliability); each holds harnesses ' +
      '(security, privacy, …), a harness holds scenarios (prompt injection, …) and a scenario holds probes, each a kind of test ' +
      'prompt. A transform (variation) is the way a prompt was disguised before it was sent: plain, base64, another language, ' +
      'role-play… An attack that only works disguised shows which filter is missing.',
    'Every score is a share of prompts passed, from 0 to 100 %. n is the number of prompts it stands on; prompts the agent could not ' +
      'answer (errors) are not in any score.',
    'The interval is the Wilson 95 % confidence interval: the true score lies in it with 95 % confidence. With few prompts it is ' +
      'wide, and two scores whose intervals overlap may not really differ.',
    'The verdict is PASS when every pillar was measured and the overall score (the mean of the pillars) is at least ' +
      `${formatThreshold(model.passThreshold)}, ` +
      'FAIL below it, INCOMPLETE when a pillar was not measured or the run did not complete. Shown percentages are truncated, ' +
      'not rounded, so a score just under the threshold never reads as reaching it.',
    'Times are UTC (ISO 8601).',
  ].map((text) => text.replace(/ %/g, `${NBSP}%`));
}
