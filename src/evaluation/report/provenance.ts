/**
 * What a recipient checks an evaluation report by (seed, versions, the SHA-256 of the results it
 * was built from) and its comparison with the agent's previous run: derived once for both renderers.
 */
import type { EvaluationReportModel, RunComparison } from '../types.js';
import type { ProvenanceRow } from './html-sections.js';
import { formatCount, formatPercent, formatTimestamp, NBSP } from './text.js';

export const HASH_LEAD =
  'The SHA-256 is taken over the canonical JSON of every result GET /v1/evaluations/{id}/results answers (all pages, in order): ' +
  'object keys sorted, no spaces, UTF-8. Recompute it from the API to check that this report shows those results (docs/evaluations.md, "Checking a report").';

export function evaluationProvenanceRows(model: EvaluationReportModel): ProvenanceRow[] {
  const p = model.provenance;
  if (p === undefined) return [{ label: 'Evaluation', value: model.evaluationId, code: true }];
  return [
    { label: 'Evaluation', value: model.evaluationId, code: true },
    { label: 'Seed', value: p.seed === null ? 'none (random order)' : String(p.seed) },
    { label: 'Warden version', value: p.wardenVersion },
    { label: 'Catalogue version', value: p.catalogueVersion },
    { label: 'Results', value: `${formatCount(p.resultsCount)} prompts` },
    { label: 'Results SHA-256', value: p.resultsSha256 ?? 'not computed', code: true },
  ];
}

export interface ComparisonView {
  lead: string;
  rows: Array<{ label: string; before: string; after: string; change: string; direction: 'up' | 'down' | 'same' | 'none' }>;
  newFailures: string;
  fixedFailures: string;
}

const points = (before: number | null, after: number | null) => {
  if (before === null || after === null) return { change: '—', direction: 'none' as const };
  const delta = Math.round((after - before) * 1000) / 10;
  if (delta === 0) return { change: `±0.0${NBSP}pt`, direction: 'same' as const };
  return { change: `${delta > 0 ? '+' : '−'}${Math.abs(delta).toFixed(1)}${NBSP}pt`, direction: delta > 0 ? ('up' as const) : ('down' as const) };
};

const idList = (part: RunComparison['newFailures']) =>
  part.count === 0 ? 'none' : `${formatCount(part.count)}${part.ids.length > 0 ? ` (${part.ids.join(', ')}${part.count > part.ids.length ? ', …' : ''})` : ''}`;

/** The comparison as text, or null when there is no previous run to compare with. */
export function comparisonView(model: EvaluationReportModel): ComparisonView | null {
  const c = model.comparison;
  if (c === undefined || c === null) return null;
  return {
    lead: `Compared with evaluation ${c.previousId} of the same harnesses, completed ${formatTimestamp(c.previousCompletedAt)}. ` +
      'New failures: prompts that passed then and fail now; fixed: the reverse (prompts in both runs only).',
    rows: c.scores.map((s) => ({
      label: s.label,
      before: s.before === null ? '—' : formatPercent(s.before),
      after: s.after === null ? '—' : formatPercent(s.after),
      ...points(s.before, s.after),
    })),
    newFailures: idList(c.newFailures),
    fixedFailures: idList(c.fixedFailures),
  };
}

export const NO_PREVIOUS_RUN = 'This is the first completed run of these harnesses against this agent: there is nothing to compare it with.';
