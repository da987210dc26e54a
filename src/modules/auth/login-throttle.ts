import { isIPv4, isIPv6 } from 'node:net';

/**
 * Failed-login limits, per account and per client address (issue 7): after `max` failures
 * within `windowSeconds`, further attempts answer 429 until the oldest failure leaves the
 * window. A successful login clears the account's failures. Counters live in the process:
 * with several processes each keeps its own (docs/deployment.md).
 *
 * An attempt is counted as a failure when it *starts* (`reserve`), before the slow password
 * hash, and given back if it succeeds: otherwise N concurrent guesses would all pass the check
 * before the first of them is counted, and the limit would not hold.
 */
export interface ThrottleLimits {
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  windowSeconds: number;
  /** Most accounts (and, separately, addresses) remembered at once; default 100,000. */
  maxKeys?: number;
}

export const DEFAULT_LOGIN_LIMITS: ThrottleLimits = {
  maxFailuresPerAccount: 10,
  maxFailuresPerAddress: 50,
  windowSeconds: 15 * 60,
};

/** Bounds memory under a flood of distinct keys: the oldest entries are dropped first. */
const MAX_KEYS = 100_000;

/**
 * The address a client is counted under: an IPv4 address as it is (also when written as
 * IPv4-mapped IPv6), an IPv6 address by its /64 prefix, since one subscriber usually holds
 * a whole /64 and could otherwise rotate through 2^64 addresses.
 */
export function addressKey(address: string): string {
  // Without a colon or a zone (`%…`) it is not IPv6 (nor IPv4-mapped): kept as it is, without
  // the regexes below.
  if (!address.includes(':') && !address.includes('%')) return address;
  const plain = address.replace(/%.*$/, '');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(plain);
  if (mapped?.[1] !== undefined && isIPv4(mapped[1])) return mapped[1];
  if (!isIPv6(plain)) return plain;
  const [head = '', tail] = plain.toLowerCase().split('::');
  const headGroups = head === '' ? [] : head.split(':');
  const tailGroups = tail === undefined || tail === '' ? [] : tail.split(':');
  // An embedded IPv4 tail (a:b::1.2.3.4) counts as two groups; only the first four matter here.
  const tailCount = tailGroups.reduce((n, g) => n + (g.includes('.') ? 2 : 1), 0);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailCount).fill('0'), ...tailGroups];
  return `${groups
    .slice(0, 4)
    .map((g) => (g.includes('.') ? g : g.replace(/^0+(?=.)/, '')))
    .join(':')}::/64`;
}

class FailureLog {
  /** Failure times per key; the Map's order is the order of each key's latest failure. */
  private readonly failures = new Map<string, number[]>();
  constructor(
    private readonly max: number,
    private readonly windowSeconds: number,
    private readonly maxKeys: number,
  ) {}

  get size(): number {
    return this.failures.size;
  }

  private recent(key: string, now: number): number[] {
    const list = this.failures.get(key);
    if (list === undefined) return [];
    const kept = list.filter((t) => t > now - this.windowSeconds);
    if (kept.length === 0) this.failures.delete(key);
    else if (kept.length !== list.length) this.failures.set(key, kept);
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
    this.evict(now);
  }

  /** Gives back one failure recorded at `at` (a reserved attempt that succeeded). */
  release(key: string, at: number): void {
    const list = this.failures.get(key);
    if (list === undefined) return;
    const i = list.lastIndexOf(at);
    if (i >= 0) list.splice(i, 1);
    if (list.length === 0) this.failures.delete(key);
  }

  clear(key: string): void {
    this.failures.delete(key);
  }

  /**
   * Keys whose latest failure has left the window are dropped from the front (the Map is in
   * order of latest failure, so the scan stops at the first live key), then the oldest past
   * `maxKeys`: memory stays bounded whatever the number of distinct accounts or addresses.
   */
  private evict(now: number): void {
    for (const [key, list] of this.failures) {
      const latest = list[list.length - 1];
      if (latest !== undefined && latest > now - this.windowSeconds) break;
      this.failures.delete(key);
    }
    while (this.failures.size > this.maxKeys) this.failures.delete(this.failures.keys().next().value as string);
  }
}

export interface LoginAttempt {
  /** The attempt succeeded: the account's failures are cleared and the address's reservation given back. */
  succeeded(): void;
}

export function createLoginThrottle(limits: ThrottleLimits = DEFAULT_LOGIN_LIMITS) {
  const maxKeys = limits.maxKeys ?? MAX_KEYS;
  const accounts = new FailureLog(limits.maxFailuresPerAccount, limits.windowSeconds, maxKeys);
  const addresses = new FailureLog(limits.maxFailuresPerAddress, limits.windowSeconds, maxKeys);
  return {
    /**
     * Starts an attempt: either the seconds to wait (nothing is counted), or the attempt,
     * already counted as a failure until it reports success. Synchronous, so no other attempt
     * can run between the check and the count.
     */
    reserve(account: string, address: string, now: number): { wait: number } | { wait: 0; attempt: LoginAttempt } {
      const byAddress = addressKey(address);
      const wait = Math.max(accounts.retryAfter(account, now), addresses.retryAfter(byAddress, now));
      if (wait > 0) return { wait };
      accounts.record(account, now);
      addresses.record(byAddress, now);
      return {
        wait: 0,
        attempt: {
          succeeded() {
            accounts.clear(account);
            addresses.release(byAddress, now);
          },
        },
      };
    },
    /** How many accounts and addresses are remembered (for tests of the memory bound). */
    sizes(): { accounts: number; addresses: number } {
      return { accounts: accounts.size, addresses: addresses.size };
    },
  };
}

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;
