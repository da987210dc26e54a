import { describe, expect, it } from 'vitest';
import { dispatch, MAX_RATE_LIMITED_TRIES, type DispatchOptions, type SendOutcome } from './dispatch.js';

/** A clock that only moves when the dispatcher sleeps. */
function fakeTime() {
  let at = 0;
  return { now: () => at, sleep: async (ms: number) => void (at += ms) };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

type Send = (unit: number, lastTry: boolean) => Promise<SendOutcome<number>>;

function harness(units: number[], send: Send, extra: Partial<DispatchOptions<number, number>> = {}) {
  const accepted: number[] = [];
  const controller = new AbortController();
  const time = fakeTime();
  const run = dispatch<number, number>({
    units,
    concurrency: 4,
    signal: controller.signal,
    send,
    accept: async (n) => void accepted.push(n),
    stopped: () => false,
    ...time,
    ...extra,
  });
  return { run, accepted, controller, time };
}

describe('dispatch', () => {
  it('sends every unit once, never more than `concurrency` at a time, and stores each result', async () => {
    let inFlight = 0;
    let most = 0;
    const { run, accepted } = harness([...Array(50).keys()], async (n) => {
      most = Math.max(most, ++inFlight);
      await tick();
      inFlight--;
      return n;
    });
    await run;
    expect(most).toBe(4);
    expect(accepted.sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
  });

  it('sends a rate-limited unit again later, halves what is in flight and pauses, then gives up on it as an error', async () => {
    const tries = new Map<number, boolean[]>();
    let inFlight = 0;
    const mostAfterLimit: number[] = [];
    let limited = false;
    const { run, accepted, time } = harness([...Array(20).keys()], async (n, lastTry) => {
      tries.set(n, [...(tries.get(n) ?? []), lastTry]);
      inFlight++;
      if (limited) mostAfterLimit.push(inFlight);
      await tick();
      inFlight--;
      if (n === 3) {
        limited = true;
        return lastTry ? -3 : 'rate-limited';
      }
      return n;
    });
    await run;
    expect(tries.get(3)).toEqual([...Array(MAX_RATE_LIMITED_TRIES - 1).fill(false), true]);
    expect(accepted).toContain(-3);
    expect(accepted).toHaveLength(20);
    expect(time.now()).toBeGreaterThanOrEqual(1000);
    // After the first 429, fewer than `concurrency` were sent at once for a while.
    expect(Math.min(...mostAfterLimit)).toBeLessThan(4);
  });

  it('stops starting units once a result cannot be stored, and throws that error', async () => {
    let sent = 0;
    const { run } = harness(
      [...Array(100).keys()],
      async (n) => {
        sent++;
        await tick();
        return n;
      },
      {
        accept: async (n) => {
          if (n === 5) throw new Error('disk full');
        },
      },
    );
    await expect(run).rejects.toThrow('disk full');
    expect(sent).toBeLessThan(20);
  });

  it('starts nothing more once its signal aborts or it is told to stop', async () => {
    let sent = 0;
    const { run, controller } = harness([...Array(100).keys()], async (n) => {
      if (++sent === 10) controller.abort();
      await tick();
      return n;
    });
    await run;
    expect(sent).toBeLessThanOrEqual(13);
    let stop = false;
    let sentToo = 0;
    await harness([...Array(100).keys()], async (n) => {
      if (++sentToo === 10) stop = true;
      await tick();
      return n;
    }, { stopped: () => stop }).run;
    expect(sentToo).toBeLessThanOrEqual(13);
  });
});
