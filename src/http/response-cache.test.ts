import Fastify from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import type { Principal } from '../modules/auth/permissions.js';
import { registerResponseCache } from './response-cache.js';

/** A route behind a fake authentication step, with a read version the test moves and a count of handler runs. */
async function cachedApp(options: { maxEntries?: number } = {}) {
  const app = Fastify();
  let version = 1;
  /** Per table, how often it was written; the identity version apart. */
  const tableWrites = new Map<string, number>();
  let identity = 0;
  let handled = 0;
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const id = request.headers['x-credential'];
    if (typeof id !== 'string') return done(Object.assign(new Error('no credential'), { statusCode: 401 }));
    request.principal = { credential: { kind: 'session', id } } as unknown as Principal;
    done(null, payload);
  });
  registerResponseCache(app, {
    versions: () => ({
      read: String(version),
      identity: String(identity),
      tables: (names) => names.map((name) => tableWrites.get(name) ?? 0).join('.'),
    }),
    ...options,
  });
  app.get('/scoped', { config: { cacheable: { reads: ['rules'] } } }, async (request) => {
    handled++;
    return { version, url: request.url };
  });
  app.get('/list', { config: { cacheable: true } }, async (request) => {
    handled++;
    return { version, url: request.url };
  });
  app.get('/uncached', async (request) => {
    handled++;
    return { version, url: request.url };
  });
  await app.ready();
  const get = (url: string, credential = 'a', headers: Record<string, string> = {}) =>
    app.inject({ method: 'GET', url, headers: { 'x-credential': credential, ...headers } });
  return {
    app,
    get,
    handled: () => handled,
    write: () => void version++,
    /** A commit that wrote `table` (and moved the read version, as every commit does). */
    writeTable: (table: string, identityToo = false) => {
      version++;
      tableWrites.set(table, (tableWrites.get(table) ?? 0) + 1);
      if (identityToo) identity++;
    },
  };
}

describe('response cache', async () => {
  const t = await cachedApp();
  afterAll(() => t.app.close());

  it('stores an answer asked for twice under one version, then answers it without the handler', async () => {
    const before = t.handled();
    const first = await t.get('/list?page=1');
    const second = await t.get('/list?page=1');
    expect(t.handled()).toBe(before + 2);
    const third = await t.get('/list?page=1');
    const fourth = await t.get('/list?page=1');
    expect(t.handled()).toBe(before + 2);
    for (const res of [second, third, fourth]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).toBe(first.body);
      expect(res.headers.etag).toBe(first.headers.etag);
      expect(res.headers['cache-control']).toBe('private, no-cache');
      expect(res.headers['content-type']).toBe(first.headers['content-type']);
    }
  });

  it('caches only routes marked cacheable', async () => {
    const before = t.handled();
    for (let i = 0; i < 3; i++) expect((await t.get('/uncached?page=1')).statusCode).toBe(200);
    expect(t.handled()).toBe(before + 3);
  });

  it('computes again after a write, and answers 304 only for the current ETag', async () => {
    const old = await t.get('/list?page=2');
    await t.get('/list?page=2');
    t.write();
    const before = t.handled();
    const fresh = await t.get('/list?page=2', 'a', { 'if-none-match': String(old.headers.etag) });
    expect(t.handled()).toBe(before + 1);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.headers.etag).not.toBe(old.headers.etag);
    await t.get('/list?page=2');
    const revalidated = await t.get('/list?page=2', 'a', { 'if-none-match': String(fresh.headers.etag) });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(t.handled()).toBe(before + 2);
  });

  it('does not store a page asked for once, nor across a write between the two asks', async () => {
    const before = t.handled();
    await t.get('/list?page=3');
    t.write();
    await t.get('/list?page=3');
    await t.get('/list?page=4');
    expect(t.handled()).toBe(before + 3);
    await t.get('/list?page=3');
    expect(t.handled()).toBe(before + 4); // the second ask under the new version: stored now
    await t.get('/list?page=3');
    expect(t.handled()).toBe(before + 4);
  });

  it('keeps answers apart per credential, and authenticates before answering from the cache', async () => {
    await t.get('/list?page=5', 'a');
    await t.get('/list?page=5', 'a');
    const before = t.handled();
    expect((await t.get('/list?page=5', 'b')).statusCode).toBe(200);
    expect(t.handled()).toBe(before + 1);
    const anonymous = await t.app.inject({ method: 'GET', url: '/list?page=5' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('keeps the answers of a route that names its tables while other tables are written', async () => {
    await t.get('/scoped?page=1');
    await t.get('/scoped?page=1');
    const before = t.handled();
    t.writeTable('agents');
    t.writeTable('agent_lifecycle_events');
    expect((await t.get('/scoped?page=1')).statusCode).toBe(200);
    expect(t.handled()).toBe(before);
    // A write to its table, or to an identity table, computes it again.
    t.writeTable('rules');
    await t.get('/scoped?page=1');
    expect(t.handled()).toBe(before + 1);
    await t.get('/scoped?page=1');
    t.writeTable('memberships', true);
    await t.get('/scoped?page=1');
    expect(t.handled()).toBe(before + 3);
  });

  it('keeps at most maxEntries answers, least recently used out first', async () => {
    const small = await cachedApp({ maxEntries: 2 });
    try {
      for (const page of [1, 2, 3]) for (let i = 0; i < 2; i++) await small.get(`/list?p=${page}`);
      const before = small.handled();
      await small.get('/list?p=3');
      await small.get('/list?p=2');
      expect(small.handled()).toBe(before);
      await small.get('/list?p=1');
      expect(small.handled()).toBe(before + 1);
    } finally {
      await small.app.close();
    }
  });
});
