import { describe, expect, it } from 'vitest';
import { runPipeline, type UnitScope } from './pipeline.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

/** A batch writer kept in memory; `stopAfter`: the record ends once that many rows are stored. */
function memoryWriter(stopAfter = Infinity) {
  const stored: string[] = [];
  let closed = false;
  return {
    stored,
    get closed() {
      return closed;
    },
    get stopped() {
      return stored.length >= stopAfter;
    },
    add: async (rows: readonly string[]) => void stored.push(...rows),
    flush: async () => undefined,
    close: () => void (closed = true),
  };
}

function options(writer: ReturnType<typeof memoryWriter>, send: (unit: number, scope: UnitScope) => Promise<string[] | null>, units = 10) {
  let at = 0;
  return {
    context: { signal: new AbortController().signal, deferFor: () => false },
    units: [...Array(units).keys()],
    concurrency: 3,
    send,
    writer,
    // Dispatch's pause after a 429 passes on this clock, not the wall's.
    now: () => at,
    sleep: async (ms: number) => void (at += ms),
  };
}

describe('the run pipeline', () => {
  it('stores a unit held back on 429 once, when it is sent again, and nothing of the attempt that was held back', async () => {
    const writer = memoryWriter();
    const attempts = new Map<number, number>();
    await runPipeline(
      options(writer, async (unit, scope) => {
        const n = (attempts.get(unit) ?? 0) + 1;
        attempts.set(unit, n);
        await tick();
        if (unit === 4 && n === 1) {
          expect(scope.holdsBack({ status: 429 })).toBe(true);
          expect(scope.signal.aborted).toBe(true);
          // Whatever the unit answers after being held back is dropped.
          return [`${unit}: the 429 attempt`];
        }
        if (unit === 7) expect(scope.holdsBack({ status: 500 })).toBe(false);
        return [`${unit}`];
      }),
    );
    expect(writer.stored.sort()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9']);
    expect(attempts.get(4)).toBe(2);
    expect(writer.closed).toBe(true);
  });

  it('a unit still answered 429 on its last try counts: its rows are stored (as its error)', async () => {
    const writer = memoryWriter();
    const tries: boolean[] = [];
    await runPipeline(
      options(
        writer,
        async (_unit, scope) => {
          tries.push(scope.lastTry);
          return scope.holdsBack({ status: 429 }) ? null : ['error: the agent answered 429'];
        },
        1,
      ),
    );
    expect(tries.at(-1)).toBe(true);
    expect(tries.slice(0, -1).every((last) => !last)).toBe(true);
    expect(writer.stored).toEqual(['error: the agent answered 429']);
  });

  it('stops sending once the record ended (a batch found it so), aborting the units in flight', async () => {
    const writer = memoryWriter(4);
    let sent = 0;
    let abortedInFlight = 0;
    await runPipeline(
      options(
        writer,
        async (unit, scope) => {
          sent++;
          await tick();
          if (scope.signal.aborted) abortedInFlight++;
          return [`${unit}`];
        },
        100,
      ),
    );
    expect(sent).toBeLessThan(10);
    expect(writer.stored.length).toBeGreaterThanOrEqual(4);
    expect(writer.stored.length).toBeLessThan(10);
    expect(abortedInFlight + writer.stored.length).toBeLessThanOrEqual(sent);
  });

  it("stops with a check's error (a fail-fast rule), sending nothing more and keeping what was sent", async () => {
    const writer = memoryWriter();
    let sent = 0;
    const run = runPipeline({
      ...options(
        writer,
        async (unit) => {
          sent++;
          await tick();
          return [`${unit}`];
        },
        100,
      ),
      check: (rows) => {
        if (rows.includes('5')) throw new Error('the agent cannot be reached');
      },
    });
    await expect(run).rejects.toThrow('the agent cannot be reached');
    expect(sent).toBeLessThan(12);
    // The unit that met the rule is stored with the ones before it: the failed run's report shows them.
    expect(writer.stored).toContain('5');
  });
});
