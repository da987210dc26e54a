/**
 * Failed-login limits, per account and per client address (issue 7): after `max` failures
 * within `windowSeconds`, further attempts answer 429 until the oldest failure leaves the
 * window. A successful login clears the account's failures. Counters live in the process:
 * with several processes each keeps its own (docs/deployment.md).
 */
export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
}

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = {
  maxFailuresPerAccount: 10,
  maxFailuresPerAddress: 50,
  windowSeconds: 15 * 60,
};

/** Bounds memory under a flood of distinct keys: the oldest entries are dropped first. */
const MAX_KEYS = 100_000;

class FailureLog {
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowSeconds: number,
  ) {}

  private recent(key: string, now: number): number[] {
    const list = this.failures.get(key);
    if (list === undefined) return [];
    const kept = list.filter((t) => t > now - this.windowSeconds);
    if (kept.length === 0) this.failures.delete(key);
    else this.failures.set(key, kept);
    return kept;
  }

  /** Seconds until another attempt is allowed, or 0 when it is allowed now. */
  retryAfter(key: string, now: number): number {
    const recent = this.recent(key, now);
    if (recent.length < this.max) return 0;
    const oldest = recent[recent.length - this.max] as number;
    return Math.max(1, oldest + this.windowSeconds - now);
  }

  record(key: string, now: number): void {
    const recent = this.recent(key, now);
    recent.push(now);
    this.failures.delete(key);
    this.failures.set(key, recent.slice(-this.max));
    if (this.failures.size > MAX_KEYS) this.failures.delete(this.failures.keys().next().value as string);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }
}

export function createLoginThrottle(limits: ThrottleLimits = DEFAULT_LOGIN_LIMITS) {
  const accounts = new FailureLog(limits.maxFailuresPerAccount, limits.windowSeconds);
  const addresses = new FailureLog(limits.maxFailuresPerAddress, limits.windowSeconds);
  return {
    /** Seconds to wait before this account may try again from this address (0: go ahead). */
    retryAfter(account: string, address: string, now: number): number {
      return Math.max(accounts.retryAfter(account, now), addresses.retryAfter(address, now));
    },
    recordFailure(account: string, address: string, now: number): void {
      accounts.record(account, now);
      addresses.record(address, now);
    },
    recordSuccess(account: string): void {
      accounts.clear(account);
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
