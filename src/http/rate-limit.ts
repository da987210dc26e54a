import type { FastifyInstance } from 'fastify';
import { addressKey } from '../modules/auth/login-throttle.js';
import { AppError } from './errors.js';

/**
 * The API rate limit (WARDEN_RATE_LIMIT_PER_MINUTE): a fixed window of one minute per client
 * address, opened by the client's first request, as `@fastify/rate-limit`'s local store counts,
 * in one callback-style `onRequest` hook (docs/decisions.md, "Rate limit").
 *
 * That plugin ran two async functions and a promise per request (about 5 µs in-process, of the
 * 80–100 µs a cached list answer costs here); this hook does the same count, keeps the same headers
 * (`x-ratelimit-limit`, `-remaining`, `-reset`, and `retry-after` on a 429) and the same key:
 * the client address as the login throttle counts it (`addressKey`: IPv6 by its /64, an
 * IPv4-mapped address as IPv4), never the credential:
 * the limit runs before authentication, and a bucket per credential would give every made-up
 * token a fresh budget. WARDEN_TRUST_PROXY_HOPS makes `request.ip` the client's address behind
 * a proxy. At most `maxClients` windows are kept; past that, the least recently seen client's
 * window is forgotten (it starts again at zero).
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Limited by its own rule instead (the gateway: each agent's limit, docs/gateway.md), not by the per-address limit. */
    ownRateLimit?: boolean;
  }
}

export interface RateLimitOptions {
  /** Requests per client address per window. */
  max: number;
  windowMs?: number;
  maxClients?: number;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

interface Window {
  start: number;
  count: number;
}

export function registerRateLimit(app: FastifyInstance, options: RateLimitOptions): void {
  const { max, windowMs = 60_000, maxClients = 5_000, now = Date.now } = options;
  const windows = new Map<string, Window>();
  const limit = String(max);

  app.addHook('onRequest', (request, reply, done) => {
    // The gateway's routes are limited by each agent's own limit (docs/gateway.md, "Limits"):
    // every application behind one proxy address would otherwise share this one.
    if (request.routeOptions.config?.ownRateLimit === true) return done();
    const key = addressKey(request.ip);
    const at = now();
    let window = windows.get(key);
    if (window === undefined || window.start + windowMs <= at) window = { start: at, count: 0 };
    // Most recently seen last: the first key is the one to forget.
    windows.delete(key);
    windows.set(key, window);
    if (windows.size > maxClients) windows.delete(windows.keys().next().value as string);
    window.count++;
    const reset = Math.ceil((window.start + windowMs - at) / 1000);
    reply.header('x-ratelimit-limit', limit);
    if (window.count <= max) {
      reply.header('x-ratelimit-remaining', String(max - window.count));
      reply.header('x-ratelimit-reset', String(reset));
      done();
      return;
    }
    reply.header('x-ratelimit-remaining', '0');
    reply.header('x-ratelimit-reset', String(reset));
    done(
      new AppError(
        'too_many_requests',
        `Rate limit of ${max} requests per ${windowMs === 60_000 ? 'minute' : `${windowMs / 1000} s`} exceeded: retry in ${reset} s`,
        {
          'retry-after': String(reset),
        },
      ),
    );
  });
}
