/** When to try an agent again, and how long to wait first (docs/connector.md, "Retries"). */

/** Answers worth another attempt: too many requests, and the server-side failures that pass. */
export const RETRY_STATUSES = new Set([429, 500, 502, 503, 504]);

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
  random: () => number;
}

/**
 * Exponential back-off with "equal jitter": retry n waits between half and all of
 * min(max, base · 2^(n-1)), so callers that failed together do not come back together.
 */
export function backoffMs(retry: number, policy: BackoffPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, retry - 1));
  return Math.round(ceiling / 2 + policy.random() * (ceiling / 2));
}

/**
 * A `Retry-After` header (delay-seconds or an HTTP date) as milliseconds from `nowMs`, capped
 * at `maxMs`; null when absent or unreadable.
 */
export function retryAfterMs(header: string | string[] | undefined, nowMs: number, maxMs: number): number | null {
  const value = (Array.isArray(header) ? header[0] : header)?.trim();
  if (!value) return null;
  let ms: number;
  if (/^\d+$/.test(value)) {
    ms = Number(value) * 1000;
  } else {
    const at = Date.parse(value);
    if (Number.isNaN(at)) return null;
    ms = at - nowMs;
  }
  return Math.min(maxMs, Math.max(0, ms));
}
