import type { VerdictResult } from '../types.js';

/** A check's result; `signals` default to the deciding detector's score. */
export function found(
  score: number,
  detector: string,
  reason: string,
  options: { signals?: Record<string, number>; heuristic?: boolean; unchecked?: boolean } = {},
): VerdictResult {
  return {
    score,
    detector,
    reason,
    signals: options.signals ?? { [detector]: score },
    ...(options.heuristic ? { heuristic: true as const } : {}),
    ...(options.unchecked ? { unchecked: true as const } : {}),
  };
}
