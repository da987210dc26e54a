/**
 * Sends a job's units of work to an agent a bounded number at a time, and treats the agent's
 * rate limiting the same way for every job that calls agents (evaluations, red-team campaigns:
 * docs/jobs.md, "Fairness" and "Deferral").
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { JobContext } from './types.js';

/** What sending one unit gave: its results, `rate-limited` (the agent kept answering 429), or null (stopped during a call). */
export type SendOutcome<R> = R | 'rate-limited' | null;

export interface DispatchOptions<U, R> {
  units: readonly U[];
  /** Units in flight at most (the agent's own rate ceiling applies on top, in the connector). */
  concurrency: number;
  signal: AbortSignal;
  /** `lastTry`: the unit was rate-limited too often; its results are wanted whatever they are (errors). */
  send(unit: U, lastTry: boolean): Promise<SendOutcome<R>>;
  /** Stores a unit's results; may wait (the writes fall behind) or throw (the run stops). */
  accept(results: R): Promise<void>;
  /** True once nothing more should be sent (the evaluation stopped running). */
  stopped(): boolean;
  /** How long to hold back after the agent answered 429 despite the retries (default 1 s). */
  pauseMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Milliseconds (injected with `sleep` in tests). */
  now?: () => number;
}

/**
 * An agent that asks to wait longer than this (Retry-After) is not waited in the job's slot: the
 * job gives its slot back and resumes then (docs/jobs.md, "Deferral"). Passed to the connector
 * as `maxRetryAfterMs`.
 */
export const MAX_RETRY_AFTER_IN_SLOT_MS = 5_000;

/**
 * What an agent's failed call means for the unit that made it: `null` when the job gave its slot
 * back (the agent asked to wait past MAX_RETRY_AFTER_IN_SLOT_MS; the unit is dropped and sent
 * again when the job resumes), `rate-limited` when the agent still answered 429 and the unit may
 * go back to the end of the line, `undefined` when the failure counts (stored as the unit's error).
 */
export function rateLimitOutcome(
  failure: { status?: number | undefined; retryAfterMs?: number | undefined },
  lastTry: boolean,
  deferFor: JobContext['deferFor'],
): 'rate-limited' | null | undefined {
  // Past the deferral budget deferFor answers false: the answer counts as below.
  if (failure.retryAfterMs !== undefined && deferFor(failure.retryAfterMs, 'the agent asked to retry later')) return null;
  if (failure.status === 429 && !lastTry) return 'rate-limited';
  return undefined;
}

/** Times a unit goes back to the end of the line for answering 429, before its answer counts as an error. */
export const MAX_RATE_LIMITED_TRIES = 5;

const abortableSleep = async (ms: number, signal: AbortSignal) => {
  try {
    await delay(ms, undefined, { signal });
  } catch {
    // aborted: the caller looks at the signal
  }
};

/**
 * Sends units with at most `concurrency` in flight, stores each one's results as it comes, and
 * slows down when the agent says it is overloaded: a unit still answered 429 after the
 * connector's retries goes back to the end of the line, the number in flight is halved (at
 * most once per pause) and sending pauses; every run of successes as long as twice the number
 * in flight raises it by one again, up to `concurrency` (additive increase, multiplicative
 * decrease). So an agent that answers 429 past its real rate is driven at about that rate,
 * and its prompts count as errors only after MAX_RATE_LIMITED_TRIES turns.
 */
export async function dispatch<U, R>(options: DispatchOptions<U, R>): Promise<void> {
  const { signal, concurrency } = options;
  const pauseMs = options.pauseMs ?? 1000;
  const sleep = options.sleep ?? abortableSleep;
  const now = options.now ?? Date.now;
  const waiting: Array<{ unit: U; tries: number }> = options.units.map((unit) => ({ unit, tries: 0 }));
  const inFlight = new Set<Promise<void>>();
  let next = 0;
  let allowed = Math.max(1, concurrency);
  let successes = 0;
  let pauseUntil = 0;
  let failure: { error: unknown } | undefined;

  const take = () => (next < waiting.length ? waiting[next++] : undefined);

  async function handle(item: { unit: U; tries: number }) {
    const outcome = await options.send(item.unit, item.tries + 1 >= MAX_RATE_LIMITED_TRIES);
    if (outcome === null) return;
    if (outcome === 'rate-limited') {
      waiting.push({ unit: item.unit, tries: item.tries + 1 });
      const at = now();
      if (at >= pauseUntil) {
        allowed = Math.max(1, Math.floor(allowed / 2));
        pauseUntil = at + pauseMs;
      }
      successes = 0;
      return;
    }
    await options.accept(outcome);
    if (++successes >= allowed * 2 && allowed < concurrency) {
      allowed++;
      successes = 0;
    }
  }

  while (!signal.aborted && failure === undefined && !options.stopped()) {
    if (inFlight.size >= allowed) {
      await Promise.race(inFlight);
      continue;
    }
    const wait = pauseUntil - now();
    if (wait > 0) {
      await sleep(wait, signal);
      continue;
    }
    const item = take();
    if (item === undefined) {
      if (inFlight.size === 0) break;
      await Promise.race(inFlight);
      continue;
    }
    const running: Promise<void> = handle(item)
      .catch((error: unknown) => {
        failure ??= { error };
      })
      .finally(() => inFlight.delete(running));
    inFlight.add(running);
  }
  await Promise.all(inFlight);
  if (failure !== undefined) throw failure.error;
}
