import { setTimeout as delay } from 'node:timers/promises';
import type { CallRateLimiter } from './types.js';

/**
 * The in-process call ceiling (docs/connector.md, "Rate ceiling"): a sliding window of the
 * starts of the last minute per key. A call starts only when fewer than `perMinute` calls
 * started in the 60 s before it, so no 60-second window ever holds more; callers wait in
 * arrival order (first in, first out), and a caller whose signal aborts leaves the line.
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
  /** Start times within the window, oldest first. */
  starts: number[];
  queue: Waiter[];
  /** Whether a pump (the loop that lets callers start) runs for this key. */
  pumping: boolean;
  /** Ends the pump's current sleep early (when nobody waits any more). */
  wake: AbortController | null;
}

export interface InProcessRateLimiterOptions {
  now?: () => number;
  /** Must really wait (a fake clock's sleep advances the clock); it is aborted when nobody waits any more. */
  sleep?: Sleep;
  windowMs?: number;
}

export interface InProcessRateLimiter extends CallRateLimiter {
  /** Callers waiting under `key` (for tests and metrics). */
  waiting(key: string): number;
}

const abortReason = (signal: AbortSignal): unknown => signal.reason ?? new DOMException('The operation was aborted', 'AbortError');

export function createInProcessRateLimiter(options: InProcessRateLimiterOptions = {}): InProcessRateLimiter {
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const windowMs = options.windowMs ?? 60_000;
  const keys = new Map<string, KeyState>();
  let acquisitions = 0;

  function prune(state: KeyState, at: number) {
    while (state.starts.length > 0 && state.starts[0]! <= at - windowMs) state.starts.shift();
  }

  // Keys of agents no longer called would otherwise stay forever.
  function sweep() {
    const at = now();
    for (const [key, state] of keys) {
      prune(state, at);
      if (state.queue.length === 0 && !state.pumping && state.starts.length === 0) keys.delete(key);
    }
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
        prune(state, at);
        if (state.starts.length < head.limit) {
          state.starts.push(at);
          state.queue.shift();
          leave(head);
          head.resolve();
          continue;
        }
        // The window frees a place when the start that keeps it full is a full window old.
        const freeAt = state.starts[state.starts.length - head.limit]! + windowMs;
        const wake = new AbortController();
        state.wake = wake;
        try {
          await sleep(Math.max(1, freeAt - at), wake.signal);
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
        state = { starts: [], queue: [], pumping: false, wake: null };
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
    async tryAcquire(key, perMinute) {
      if (!(perMinute > 0) || !Number.isFinite(perMinute)) return { ok: true };
      if (++acquisitions % 1000 === 0) sweep();
      const limit = Math.max(1, Math.floor(perMinute));
      let state = keys.get(key);
      if (state === undefined) {
        state = { starts: [], queue: [], pumping: false, wake: null };
        keys.set(key, state);
      }
      const at = now();
      prune(state, at);
      // Callers already waiting in line go first.
      if (state.queue.length === 0 && state.starts.length < limit) {
        state.starts.push(at);
        return { ok: true };
      }
      const index = Math.min(state.starts.length - 1, Math.max(0, state.starts.length - limit + state.queue.length));
      return { ok: false, retryAfterMs: Math.max(1, state.starts[index]! + windowMs - at) };
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
