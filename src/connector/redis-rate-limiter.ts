import { Redis } from 'ioredis';
import { realSleep, type Sleep } from './rate-limiter.js';
import type { CallRateLimiter, RateDecision } from './types.js';

/**
 * The per-key call ceiling shared by every Warden process through Redis (WARDEN_REDIS_URL,
 * docs/gateway.md "Limits"): the same sliding window of the last minute's starts as the
 * in-process limiter, kept in a sorted set per key and decided by one Lua script, so that two
 * processes never both take the last place. `acquire` (evaluations, campaigns) waits for a place;
 * `tryAcquire` (the gateway) answers at once.
 */

const SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local limit = tonumber(ARGV[3])
local member = ARGV[4]
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
local count = redis.call('ZCARD', key)
if count < limit then
  redis.call('ZADD', key, now, member)
  redis.call('PEXPIRE', key, window)
  return 0
end
local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
local wait = tonumber(oldest[2]) + window - now
if wait < 1 then wait = 1 end
return wait
`;

export interface RedisRateLimiterOptions {
  windowMs?: number;
  /** Prefix of the keys in Redis (several Warden installations may share one Redis). */
  prefix?: string;
  sleep?: Sleep;
}

export interface RedisRateLimiter extends CallRateLimiter {
  close(): Promise<void>;
}

export function createRedisRateLimiter(url: string, options: RedisRateLimiterOptions = {}): RedisRateLimiter {
  const windowMs = options.windowMs ?? 60_000;
  const prefix = options.prefix ?? 'warden:rate:';
  const sleep = options.sleep ?? realSleep;
  // No queue of commands while Redis is away: a limit that cannot be checked fails the call at once.
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: true, maxRetriesPerRequest: 1, connectTimeout: 2_000 });
  redis.on('error', () => {
    // Reported per call (tryAcquire rejects); the client reconnects by itself.
  });
  let sequence = 0;
  const origin = `${process.pid}-${Math.random().toString(36).slice(2)}`;

  async function decide(key: string, perMinute: number): Promise<RateDecision> {
    if (!(perMinute > 0) || !Number.isFinite(perMinute)) return { ok: true };
    // Redis's own clock: the processes' clocks may differ, the window must not.
    const [seconds, micros] = (await redis.time()) as [string | number, string | number];
    const nowMs = Number(seconds) * 1000 + Math.floor(Number(micros) / 1000);
    const member = `${nowMs}-${origin}-${(sequence += 1)}`;
    const wait = Number(await redis.eval(SCRIPT, 1, `${prefix}${key}`, nowMs, windowMs, Math.max(1, Math.floor(perMinute)), member));
    return wait === 0 ? { ok: true } : { ok: false, retryAfterMs: wait };
  }

  return {
    tryAcquire: decide,
    async acquire(key, perMinute, signal) {
      for (;;) {
        if (signal?.aborted) throw signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
        const decision = await decide(key, perMinute);
        if (decision.ok) return;
        await sleep(decision.retryAfterMs, signal);
      }
    },
    async close() {
      redis.disconnect();
    },
  };
}
