import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerErrorHandling } from './error-handler.js';
import { registerRateLimit } from './rate-limit.js';

/** A bare app with the limit and the service's error answers; `clock` is the limiter's time in ms. */
async function limitedApp(max: number, extra: { maxClients?: number } = {}) {
  const clock = { ms: 1_000_000 };
  const app = Fastify();
  registerErrorHandling(app);
  registerRateLimit(app, { max, now: () => clock.ms, ...extra });
  app.get('/', async () => ({ ok: true }));
  await app.ready();
  const from = (remoteAddress: string) => app.inject({ method: 'GET', url: '/', remoteAddress });
  return { app, clock, from };
}

describe('rate limit', () => {
  it('counts down in headers, answers 429 with Retry-After past the limit, and starts again after the minute', async () => {
    const { app, clock, from } = await limitedApp(3);
    try {
      const first = await from('10.0.0.1');
      expect(first.statusCode).toBe(200);
      expect(first.headers).toMatchObject({ 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '2', 'x-ratelimit-reset': '60' });
      clock.ms += 20_500;
      expect((await from('10.0.0.1')).headers['x-ratelimit-remaining']).toBe('1');
      const third = await from('10.0.0.1');
      expect(third.statusCode).toBe(200);
      expect(third.headers).toMatchObject({ 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '40' });
      const refused = await from('10.0.0.1');
      expect(refused.statusCode).toBe(429);
      expect(refused.headers).toMatchObject({ 'retry-after': '40', 'x-ratelimit-remaining': '0', 'x-ratelimit-limit': '3' });
      expect(refused.json()).toEqual({ detail: 'Rate limit of 3 requests per minute exceeded: retry in 40 s' });
      // The window is fixed: still refused just before its end, open again at it.
      clock.ms += 39_499;
      expect((await from('10.0.0.1')).statusCode).toBe(429);
      clock.ms += 1;
      const again = await from('10.0.0.1');
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-ratelimit-remaining']).toBe('2');
    } finally {
      await app.close();
    }
  });

  it('keeps one budget per address, an IPv6 /64 sharing one and an IPv4-mapped address counted as IPv4', async () => {
    const { app, from } = await limitedApp(1);
    try {
      expect((await from('10.0.0.1')).statusCode).toBe(200);
      expect((await from('10.0.0.2')).statusCode).toBe(200);
      expect((await from('::ffff:10.0.0.1')).statusCode).toBe(429);
      expect((await from('2001:db8:1:2::1')).statusCode).toBe(200);
      expect((await from('2001:db8:1:2:ffff:ffff:ffff:ffff')).statusCode).toBe(429);
      expect((await from('2001:db8:1:3::1')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('keeps at most maxClients windows, forgetting the client seen least recently', async () => {
    const { app, from } = await limitedApp(1, { maxClients: 2 });
    try {
      for (const ip of ['10.0.0.1', '10.0.0.2']) expect((await from(ip)).statusCode).toBe(200);
      expect((await from('10.0.0.1')).statusCode).toBe(429); // 10.0.0.1 is now the most recent
      expect((await from('10.0.0.3')).statusCode).toBe(200); // 10.0.0.2 is forgotten
      expect((await from('10.0.0.1')).statusCode).toBe(429);
      expect((await from('10.0.0.2')).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
