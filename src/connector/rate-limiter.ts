import { setTimeout as delay } from 'node:timers/promises';
import type { CallRateLimiter } from './types.js';

/**
 * The in-process call ceiling (docs/connector.md, "Rate ceiling"), paced: under a ceiling of
 * `perMinute`, calls under one key start at least 60 s / perMinute apart (600 a minute: one
 * every 100 ms, about 10 a second evenly, not 600 in the first seconds and then nothing). So
 * no 60-second window ever holds more than `perMinute` starts; callers wait in arrival order
 * (first in, first out), and a caller whose signal aborts leaves the line.
 */

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = (ms, signal) => delay(ms, undefined, signal ? { signal } : undefined);

interface Waiter {
  limit: number;
  resolve(): void;
  reject(reason: unknown): void;
  signal: AbortSignal | undefined;
  onAbort: (() => void) | undefined;
}

interface KeyState {
  /** When the last call under this key started (null: none yet). */
  lastStart: number | null;
  queue: Waiter[];
  /** Whether a pump (the loop that lets callers start) runs for this key. */
  pumping: boolean;
  /** Ends the pump's current sleep early (when nobody waits any more). */
  wake: AbortController | null;
}

export interface InProcessRateLimiterOptions {
  /** Milliseconds, fractional (default: the process's monotonic clock as epoch milliseconds). */
  now?: () => number;
  /** Must really wait (a fake clock's sleep advances the clock); it is aborted when nobody waits any more. */
  sleep?: Sleep;
  /**
   * A wait shorter than a millisecond (a ceiling above 60,000 a minute): the next turn of the
   * event loop, then the clock is read again (default setImmediate). A timer cannot wait less
   * than a millisecond, so a ceiling of 10,000,000 a minute paced by timers let one call start
   * per millisecond at best (bench/README.md, "Evaluations").
   */
  yieldTurn?: () => Promise<void>;
  windowMs?: number;
}

/** Epoch milliseconds with the monotonic clock's fractions: calls under a high ceiling start microseconds apart. */
const preciseNow = () => performance.timeOrigin + performance.now();
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export interface InProcessRateLimiter extends CallRateLimiter {
  /** Callers waiting under `key` (for tests and metrics). */
  waiting(key: string): number;
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('The operation was aborted', 'AbortError');

/** A key's starts of the last window: `starts[head…]` are live, oldest first (the ones before `head` have left). */
interface SlidingWindow {
  starts: number[];
  head: number;
}

export function createInProcessRateLimiter(options: InProcessRateLimiterOptions = {}): InProcessRateLimiter {
  const now = options.now ?? preciseNow;
  const sleep = options.sleep ?? realSleep;
  const yieldTurn = options.yieldTurn ?? nextTurn;
  const windowMs = options.windowMs ?? 60_000;
  const keys = new Map<string, KeyState>();
  /** The gateway's windows (tryAcquire): start times of the last minute per key, oldest first. */
  const windows = new Map<string, SlidingWindow>();
  let acquisitions = 0;

  // Keys of agents no longer called would otherwise stay forever (a start a window old constrains nothing).
  function sweep() {
    const at = now();
    for (const [key, state] of keys) {
      const idle = state.lastStart === null || state.lastStart <= at - windowMs;
      if (state.queue.length === 0 && !state.pumping && idle) keys.delete(key);
    }
    for (const [key, window] of windows) if ((window.starts[window.starts.length - 1] ?? -Infinity) <= at - windowMs) windows.delete(key);
  }

  function leave(waiter: Waiter) {
    if (waiter.signal && waiter.onAbort) waiter.signal.removeEventListener('abort', waiter.onAbort);
  }

  async function pump(state: KeyState) {
    state.pumping = true;
    try {
      while (state.queue.length > 0) {
        const head = state.queue[0]!;
        const at = now();
        // The head's turn comes one interval (a window shared evenly by its ceiling) after the last start.
        const freeAt = state.lastStart === null ? at : state.lastStart + windowMs / head.limit;
        if (at >= freeAt) {
          state.lastStart = at;
          state.queue.shift();
          leave(head);
          head.resolve();
          continue;
        }
        if (freeAt - at < 1) {
          await yieldTurn();
          continue;
        }
        const wake = new AbortController();
        state.wake = wake;
        try {
          await sleep(Math.ceil(freeAt - at), wake.signal);
        } catch {
          // Woken early: the loop looks at the line again (it ends when nobody is left).
        } finally {
          state.wake = null;
        }
      }
    } finally {
      state.pumping = false;
    }
  }

  return {
    acquire(key, perMinute, signal) {
      if (!(perMinute > 0) || !Number.isFinite(perMinute)) return Promise.resolve();
      if (signal?.aborted) return Promise.reject(abortReason(signal));
      if (++acquisitions % 1000 === 0) sweep();
      let state = keys.get(key);
      if (state === undefined) {
        state = { lastStart: null, queue: [], pumping: false, wake: null };
        keys.set(key, state);
      }
      const owner = state;
      return new Promise<void>((resolve, reject) => {
        const waiter: Waiter = { limit: Math.max(1, Math.floor(perMinute)), resolve, reject, signal, onAbort: undefined };
        if (signal) {
          waiter.onAbort = () => {
            const index = owner.queue.indexOf(waiter);
            if (index < 0) return;
            owner.queue.splice(index, 1);
            leave(waiter);
            reject(abortReason(signal));
            if (owner.queue.length === 0) owner.wake?.abort();
          };
          signal.addEventListener('abort', waiter.onAbort, { once: true });
        }
        owner.queue.push(waiter);
        if (!owner.pumping) void pump(owner);
      });
    },
    // The gateway's check (answered at once, never waited for): a sliding window of the starts of
    // the last minute per key, kept apart from the paced line above, which is how Warden's own
    // runs (evaluations, campaigns) wait their turn.
    async tryAcquire(key, perMinute) {
      if (!(perMinute > 0) || !Number.isFinite(perMinute)) return { ok: true };
      if (++acquisitions % 1000 === 0) sweep();
      const limit = Math.max(1, Math.floor(perMinute));
      const at = now();
      let window = windows.get(key);
      if (window === undefined) windows.set(key, (window = { starts: [], head: 0 }));
      const { starts } = window;
      // Starts leave from the front only (each call costs what left since the last one, not the whole minute's count).
      while (window.head < starts.length && starts[window.head]! <= at - windowMs) window.head += 1;
      if (window.head > 1024 && window.head * 2 > starts.length) {
        window.starts = starts.slice(window.head);
        window.head = 0;
      }
      const live = window.starts;
      if (live.length - window.head < limit) {
        live.push(at);
        return { ok: true };
      }
      return { ok: false, retryAfterMs: Math.max(1, live[live.length - limit]! + windowMs - at) };
    },
    waiting(key) {
      return keys.get(key)?.queue.length ?? 0;
    },
  };
}

/**
 * The one limiter of this process: every connector built without one shares it, so an agent's
 * ceiling holds across the evaluations, the red team and the gateway running side by side.
 */
export const processRateLimiter: InProcessRateLimiter = createInProcessRateLimiter();
