import { describe, expect, it } from 'vitest';
import { createInProcessRateLimiter } from './rate-limiter.js';

/** A clock moved by hand (test/helpers/fake-clock.ts has the full one; src/ tests stay inside src/). */
class FakeClock {
  private timers: Array<{ at: number; resolve: () => void }> = [];
  constructor(public time = 1_700_000_000_000) {}
  now = () => this.time;
  sleep = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      const timer = { at: this.time + ms, resolve };
      this.timers.push(timer);
      signal?.addEventListener('abort', () => {
        this.timers = this.timers.filter((t) => t !== timer);
        reject(signal.reason);
      });
    });
  pending = () => this.timers.length;
  advance(ms: number) {
    this.time += ms;
    const due = this.timers.filter((t) => t.at <= this.time);
    this.timers = this.timers.filter((t) => t.at > this.time);
    due.forEach((t) => t.resolve());
  }
  advanceToNext(): boolean {
    if (this.timers.length === 0) return false;
    this.advance(Math.max(0, Math.min(...this.timers.map((t) => t.at)) - this.time));
    return true;
  }
}
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The most starts any 60-second window [t, t + 60 s) holds. */
function busiestWindow(starts: number[], windowMs = 60_000): number {
  const sorted = [...starts].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; j < sorted.length; j++) {
    while (sorted[j]! - sorted[i]! >= windowMs) i++;
    most = Math.max(most, j - i + 1);
  }
  return most;
}

/** Runs the clock until every promise settled (or nobody sleeps any more). */
async function runOut(clock: FakeClock, all: Promise<unknown>) {
  let settled = false;
  void all.finally(() => (settled = true));
  for (let round = 0; round < 10_000 && !settled; round++) {
    await flush();
    if (!settled && !clock.advanceToNext()) await flush();
  }
}

describe('the in-process rate ceiling', () => {
  it('never lets more than N calls start in any 60 s window, however many wait, in arrival order', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    const starts: Array<{ caller: number; at: number }> = [];
    const callers = Array.from({ length: 47 }, (_, caller) => limiter.acquire('agent:a', 5).then(() => starts.push({ caller, at: clock.now() })));
    await runOut(clock, Promise.all(callers));
    expect(starts).toHaveLength(47);
    expect(busiestWindow(starts.map((s) => s.at))).toBe(5);
    expect(starts.map((s) => s.caller)).toEqual(Array.from({ length: 47 }, (_, i) => i));
    // 47 calls at 5 a minute, paced one every 12 s: the last starts in the tenth minute (46 × 12 s), not later.
    expect(starts.at(-1)!.at - starts[0]!.at).toBe(46 * 12_000);
  });

  it('paces the ceiling: 600 a minute is one call every 100 ms (10 a second evenly), not 600 at once and then nothing', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    const starts: number[] = [];
    const callers = Array.from({ length: 1_200 }, () => limiter.acquire('agent:fast', 600).then(() => starts.push(clock.now())));
    await runOut(clock, Promise.all(callers));
    expect(starts).toHaveLength(1_200);
    const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
    expect(new Set(gaps)).toEqual(new Set([100]));
    // Any second holds 10 starts, any minute 600: the ceiling, spread evenly.
    expect(busiestWindow(starts, 1_000)).toBe(10);
    expect(busiestWindow(starts)).toBe(600);
    // A ceiling that does not divide the minute evenly still never lets more through in a window.
    const odd: number[] = [];
    const oddCallers = Array.from({ length: 50 }, () => limiter.acquire('agent:odd', 7).then(() => odd.push(clock.now())));
    await runOut(clock, Promise.all(oddCallers));
    expect(busiestWindow(odd)).toBe(7);
    expect(Math.min(...odd.slice(1).map((at, i) => at - odd[i]!))).toBeGreaterThanOrEqual(60_000 / 7);
  });

  it('paces a ceiling above a call a millisecond between turns of the event loop, not with timers that wait a millisecond at least', async () => {
    // 6,000,000 a minute: starts 10 µs apart. The clock moves 4 µs each turn of the event loop.
    let time = 1_000;
    let timers = 0;
    let turns = 0;
    const limiter = createInProcessRateLimiter({
      now: () => time,
      sleep: async (ms) => {
        timers += 1;
        time += ms;
      },
      yieldTurn: async () => {
        turns += 1;
        // After the turn: the callers let in before it see the time they started at.
        await flush();
        time += 0.004;
      },
    });
    const starts: number[] = [];
    await Promise.all(Array.from({ length: 200 }, () => limiter.acquire('agent:unbounded', 6_000_000).then(() => starts.push(time))));
    expect(starts).toHaveLength(200);
    // No timer: a millisecond each would have held 200 calls for 200 ms.
    expect(timers).toBe(0);
    expect(turns).toBeGreaterThan(0);
    // Still paced: never two starts closer than 10 µs on the limiter's clock.
    const gaps = starts.slice(1).map((at, i) => at - starts[i]!);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(0.01 - 1e-9);
    expect(starts.at(-1)! - starts[0]!).toBeLessThan(199 * 0.012 + 1e-9);
  });

  it('holds for callers arriving over time, and keys do not share a ceiling', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    const startsA: number[] = [];
    const startsB: number[] = [];
    const calls: Array<Promise<unknown>> = [];
    const t0 = clock.now();
    for (let i = 0; i < 30; i++) {
      calls.push(limiter.acquire('a', 3).then(() => startsA.push(clock.now())));
      calls.push(limiter.acquire('b', 10).then(() => startsB.push(clock.now())));
      // Let the starts due now be recorded at this time, before the clock moves on.
      await flush();
      clock.advance(7_000);
    }
    await runOut(clock, Promise.all(calls));
    expect(startsA).toHaveLength(30);
    expect(busiestWindow(startsA)).toBeLessThanOrEqual(3);
    expect(busiestWindow(startsB)).toBeLessThanOrEqual(10);
    // b is never held up by a: at 7 s apart, 10 a minute never has to wait.
    expect(startsB).toEqual(Array.from({ length: 30 }, (_, i) => t0 + i * 7_000));
  });

  it('no ceiling when perMinute is 0, negative or not a number', async () => {
    let sleeps = 0;
    const limiter = createInProcessRateLimiter({ now: () => 0, sleep: () => ((sleeps += 1), new Promise(() => {})) });
    for (const perMinute of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      const calls = Array.from({ length: 50 }, () => limiter.acquire('k', perMinute));
      // Every call starts at once: all settle before the next turn of the event loop.
      const startedAtOnce = await Promise.race([Promise.all(calls).then(() => true), flush().then(() => false)]);
      expect(startedAtOnce, String(perMinute)).toBe(true);
      expect(limiter.waiting('k'), String(perMinute)).toBe(0);
    }
    expect(sleeps).toBe(0);
  });

  it('a caller whose signal aborts leaves the line; those behind it keep their place', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    await limiter.acquire('k', 1);
    const controller = new AbortController();
    const order: string[] = [];
    const second = limiter.acquire('k', 1, controller.signal).then(
      () => order.push('second'),
      (error: unknown) => order.push(`second aborted: ${(error as Error).name}`),
    );
    const third = limiter.acquire('k', 1).then(() => order.push('third'));
    await flush();
    expect(limiter.waiting('k')).toBe(2);
    controller.abort();
    await second;
    expect(limiter.waiting('k')).toBe(1);
    await runOut(clock, third);
    expect(order).toEqual(['second aborted: AbortError', 'third']);
  });

  it('an aborted signal is refused at once; the last waiter leaving ends the wait', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    await expect(limiter.acquire('k', 1, AbortSignal.abort())).rejects.toThrow();
    await limiter.acquire('k', 1);
    const controller = new AbortController();
    const waiting = limiter.acquire('k', 1, controller.signal);
    await flush();
    expect(clock.pending()).toBe(1);
    controller.abort();
    await expect(waiting).rejects.toThrow();
    await flush();
    expect(clock.pending()).toBe(0);
    // And the next caller still gets its turn when the window frees a place.
    const next = limiter.acquire('k', 1);
    await runOut(clock, next);
    await next;
  });
});

describe("the gateway's sliding window (tryAcquire)", () => {
  it('admits the limit per minute, then answers when the oldest start leaves', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    for (let i = 0; i < 3; i++) {
      expect(await limiter.tryAcquire('agent:a', 3)).toEqual({ ok: true });
      clock.advance(10_000);
    }
    // Starts at 0, 10 and 20 s; now 30 s: the oldest leaves at 60 s.
    expect(await limiter.tryAcquire('agent:a', 3)).toEqual({ ok: false, retryAfterMs: 30_000 });
    expect(await limiter.tryAcquire('agent:b', 3)).toEqual({ ok: true });
    clock.advance(30_001);
    expect(await limiter.tryAcquire('agent:a', 3)).toEqual({ ok: true });
    expect(await limiter.tryAcquire('agent:a', 3)).toEqual({ ok: false, retryAfterMs: 9_999 });
  });

  it('gives the same answers as counting the whole last minute, over many calls and several minutes', async () => {
    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const admitted: number[] = [];
    const limit = 3_000;
    for (let call = 0; call < 20_000; call++) {
      clock.advance(Math.floor(random() * 30));
      const at = clock.now();
      const recent = admitted.filter((start) => start > at - 60_000);
      const expected = recent.length < limit ? { ok: true } : { ok: false, retryAfterMs: Math.max(1, recent[recent.length - limit]! + 60_000 - at) };
      const answer = await limiter.tryAcquire('agent:busy', limit);
      expect(answer).toEqual(expected);
      if (answer.ok) admitted.push(at);
    }
    expect(admitted.length).toBeGreaterThan(limit * 2);
    expect(admitted.length).toBeLessThan(20_000);
  });
});
