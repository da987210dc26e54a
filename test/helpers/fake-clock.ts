/**
 * A clock tests move by hand: `now()` and `sleep()` to inject where code takes them
 * (the connector, the rate limiter). Nothing waits for real; `advance*` wakes the sleepers.
 */
export class FakeClock {
  private timers: Array<{ at: number; seq: number; resolve: () => void }> = [];
  private seq = 0;
  /** Every sleep asked for, in milliseconds, in order. */
  readonly sleeps: number[] = [];

  constructor(public time = 1_700_000_000_000) {}

  now = (): number => this.time;

  sleep = (ms: number, signal?: AbortSignal): Promise<void> => {
    this.sleeps.push(ms);
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise<void>((resolve, reject) => {
      const timer = { at: this.time + Math.max(0, ms), seq: this.seq++, resolve: () => resolve() };
      this.timers.push(timer);
      signal?.addEventListener(
        'abort',
        () => {
          this.timers = this.timers.filter((t) => t !== timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
  };

  /** Sleepers not yet woken. */
  pending(): number {
    return this.timers.length;
  }

  /** Moves to the earliest wake-up and wakes everyone due then; false when nobody sleeps. */
  advanceToNext(): boolean {
    if (this.timers.length === 0) return false;
    const next = Math.min(...this.timers.map((t) => t.at));
    this.advanceTo(next);
    return true;
  }

  advance(ms: number): void {
    this.advanceTo(this.time + ms);
  }

  advanceTo(at: number): void {
    this.time = Math.max(this.time, at);
    const due = this.timers.filter((t) => t.at <= this.time).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.timers = this.timers.filter((t) => t.at > this.time);
    for (const timer of due) timer.resolve();
  }
}

/** Lets promise callbacks and I/O callbacks already queued run. */
export const flush = () => new Promise<void>((resolve) => setImmediate(resolve));
