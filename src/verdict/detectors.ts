/**
 * Running the guard catalogue's methods for a check: a method that fails is "unavailable", not
 * a verdict, and what a method found is told by kind (entities, rules), never by value.
 */
import type { DetectionResult } from '../guard/types.js';
import { VERDICT_THRESHOLD, type VerdictContext } from './types.js';

export interface DetectorRun {
  method: string;
  result: DetectionResult | null;
  error?: string;
}

export interface Detections {
  runs: DetectorRun[];
  /** method → 0..1 (a hit reads at least the threshold). */
  scores: Record<string, number>;
  hits: DetectorRun[];
  unavailable: DetectorRun[];
  allUnavailable: boolean;
}

/** One guard method, with a failure turned into "unavailable" rather than into a verdict. */
async function runDetector(context: VerdictContext, method: string, text: string, params: Record<string, unknown> | undefined): Promise<DetectorRun> {
  try {
    const result = params === undefined ? await context.detect(method, text) : await context.detect(method, text, params);
    if (result.label === 'error') return { method, result: null, error: String(result.details.error ?? 'the method reported an error') };
    return { method, result };
  } catch (error) {
    return { method, result: null, error: error instanceof Error ? error.message : String(error) };
  }
}

export async function detectAll(context: VerdictContext, methods: readonly string[], text: string, params?: Record<string, unknown>): Promise<Detections> {
  const runs = await Promise.all(methods.map((m) => runDetector(context, m, text, params)));
  const scores: Record<string, number> = {};
  for (const run of runs) if (run.result) scores[run.method] = run.result.hit ? Math.max(run.result.score, VERDICT_THRESHOLD) : run.result.score;
  return {
    runs,
    scores,
    hits: runs.filter((r) => r.result?.hit),
    unavailable: runs.filter((r) => !r.result),
    allUnavailable: runs.length > 0 && runs.every((r) => !r.result),
  };
}

/** An entry of a detector's details: a kind itself, or an entity `{ type, … }`. */
const kindOf = (value: unknown): string | null => {
  if (typeof value === 'string') return value;
  const type = typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type : null;
};

/** The kinds a hit names (entity types, rules, categories), as strings; [] when it names none. */
export function hitKinds(run: DetectorRun): string[] {
  const details = run.result?.details ?? {};
  for (const key of ['entities', 'types', 'kinds', 'categories', 'matches', 'rules', 'labels']) {
    const value = details[key];
    if (!Array.isArray(value) || value.length === 0) continue;
    const kinds = value.map(kindOf);
    if (kinds.every((k): k is string => k !== null)) return [...new Set(kinds)];
  }
  return [];
}

/** What a detector found, for a person: `method (kind, kind)`. */
export function describeHit(run: DetectorRun, kinds: readonly string[] = hitKinds(run)): string {
  return kinds.length ? `${run.method} (${kinds.slice(0, 5).join(', ')})` : run.method;
}

/** The score of a failure some detectors found: their highest, and at least the threshold. */
export const hitScore = (hits: readonly DetectorRun[]): number => Math.max(VERDICT_THRESHOLD, ...hits.map((h) => h.result?.score ?? 0));

export const unavailableNote = (runs: readonly DetectorRun[]): string =>
  runs.length ? ` (not checked: ${runs.map((r) => `${r.method} unavailable`).join(', ')})` : '';

export const unavailableReason = (runs: readonly DetectorRun[]): string =>
  `Could not be checked: ${runs.map((r) => `${r.method} unavailable (${r.error})`).join(', ')}.`;

/** Up to `max` phrases of the answer, quoted and shortened, for a reason. */
export const quote = (items: readonly string[], max = 3): string =>
  items
    .slice(0, max)
    .map((s) => `"${s.length > 60 ? `${s.slice(0, 57)}…` : s}"`)
    .join(', ');
