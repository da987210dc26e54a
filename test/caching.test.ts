import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { createAgent, createWorld, login, type World } from './helpers/factories.js';

// Read answers of the lists are cached per credential and URL until the next write, with
// ETag / If-None-Match (src/http/response-cache.ts). On PostgreSQL nothing is cached, but
// the ETag is sent and honoured all the same: the same assertions hold on both engines.

const AGENTS = '/v1/agent-configurations/?include_scores=true';
const RULES = '/v1/rules/?limit=100';

function cachingSuite(name: string, build: () => Promise<{ app: FastifyInstance; close(): Promise<void> }>) {
  describe(name, () => {
    let app: FastifyInstance;
    let close: () => Promise<void>;
    let world: World;

    beforeAll(async () => {
      ({ app, close } = await build());
      world = await createWorld(app);
    });
    afterAll(async () => close());

    const get = (url: string, token: string, etag?: string) =>
      app.inject({ method: 'GET', url, headers: { ...bearer(token), ...(etag ? { 'if-none-match': etag } : {}) } });
    const send = (method: 'PUT' | 'POST', url: string, token: string, payload: object) => app.inject({ method, url, headers: bearer(token), payload });

    it('answers 304 to If-None-Match only while the list is unchanged', async () => {
      const token = world.teamA.member.token;
      await createAgent(app, token, { agent_name: 'first' });
      const first = await get(AGENTS, token);
      expect(first.statusCode).toBe(200);
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[\w-]+"$/);
      expect(first.headers['cache-control']).toBe('private, no-cache');

      const again = await get(AGENTS, token);
      expect(again.body).toBe(first.body);
      expect(again.headers.etag).toBe(etag);
      const revalidated = await get(AGENTS, token, etag);
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(etag);

      await createAgent(app, token, { agent_name: 'second' });
      const changed = await get(AGENTS, token, etag);
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      expect(changed.json().results.map((a: { agent_name: string }) => a.agent_name)).toContain('second');
    });

    it('shows every acknowledged write on the next read', async () => {
      const token = world.teamA.owner.token;
      const agent = await createAgent(app, token, { agent_name: 'moving' });
      const stageOf = async () => (await get(AGENTS, token)).json().results.find((a: { id: string }) => a.id === agent.id);
      expect((await stageOf()).trust_stage).toBe('registered');
      for (const stage of ['tested', 'hardened', 'trusted', 'registered']) {
        const res = await send('PUT', `/v1/agent-configurations/${agent.id}/lifecycle`, token, { trust_stage: stage });
        expect(res.statusCode).toBe(200);
        expect((await stageOf()).trust_stage).toBe(stage);
      }
      for (let i = 0; i < 3; i++) {
        const res = await send('PUT', `/v1/agent-configurations/${agent.id}`, token, { agent_name: `renamed-${i}` });
        expect(res.statusCode).toBe(200);
        expect((await stageOf()).agent_name).toBe(`renamed-${i}`);
      }
      await send('PUT', `/v1/agent-configurations/${agent.id}/archive`, token, {});
      expect(await stageOf()).toBeUndefined();
    });

    it('keeps answers apart per credential: another team, another key, a revoked session', async () => {
      const a = world.teamA.member;
      const b = world.teamB.member;
      await createAgent(app, b.token, { agent_name: 'only in B' });
      const inA = await get(AGENTS, a.token);
      const inB = await get(AGENTS, b.token);
      expect(inA.json().results.every((x: { team_id: string }) => x.team_id === world.teamA.id)).toBe(true);
      expect(inB.json().results.every((x: { team_id: string }) => x.team_id === world.teamB.id)).toBe(true);
      // A copy of the cached URL with B's ETag gets nothing of B's answer.
      const crossed = await get(AGENTS, a.token, inB.headers.etag as string);
      expect(crossed.statusCode).toBe(200);
      expect(crossed.body).toBe(inA.body);

      const session = await login(app, a.email, a.password);
      expect((await get(AGENTS, session)).statusCode).toBe(200);
      expect((await app.inject({ method: 'POST', url: '/v1/auth/jwt/logout', headers: bearer(session) })).statusCode).toBeLessThan(300);
      expect((await get(AGENTS, session)).statusCode).toBe(401);
    });

    it('shows a new rule on the next rule list', async () => {
      const token = world.teamA.owner.token;
      const policy = await send('POST', '/v1/policies/', token, { name: 'Cache policy', category: 'privacy' });
      expect(policy.statusCode, policy.body).toBe(201);
      const before = await get(RULES, token);
      expect(before.statusCode).toBe(200);
      const count = before.json().count as number;
      const rule = await send('POST', `/v1/policies/${policy.json().id}/rules`, token, {
        rule_type: 'prohibition',
        action: 'share',
        consequence: { action: 'block', severity: 'high' },
        natural_language: 'Do not share personal data.',
      });
      expect(rule.statusCode, rule.body).toBe(201);
      const after = await get(RULES, token, before.headers.etag as string);
      expect(after.statusCode).toBe(200);
      expect(after.json().count).toBe(count + 1);
      expect(after.json().results.map((r: { id: string }) => r.id)).toContain(rule.json().id);
    });
  });
}

// On SQLite, buildTestApp opens a file as production does (group commit, a reader connection).
cachingSuite(`read caching (${TEST_ENGINE})`, async () => {
  const t: TestApp = await buildTestApp();
  return { app: t.app, close: () => t.close() };
});

// The principal of a login token is kept between requests on SQLite (src/http/auth.ts): it
// must never outlive the token, the session or a change of the user's teams.
describe(`authentication between requests (${TEST_ENGINE})`, () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await buildTestApp({ tokenTtlSeconds: 3_600 });
    world = await createWorld(t.app);
  });
  afterAll(async () => t.close());
  const me = (token: string) => t.app.inject({ method: 'GET', url: '/v1/users/me/teams', headers: bearer(token) });

  it('refuses a token the moment it expires by the clock', async () => {
    const token = await login(t.app, world.teamA.member.email, world.teamA.member.password);
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(3_599);
    expect((await me(token)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await me(token)).statusCode).toBe(401);
  });

  it('refuses an API key the moment it expires or is revoked, although its principal was kept, and records its last use', async () => {
    const owner = await login(t.app, world.teamA.member.email, world.teamA.member.password);
    const create = (name: string, expiresAt?: number) =>
      t.app.inject({ method: 'POST', url: '/v1/api-keys/', headers: bearer(owner), payload: { name, ...(expiresAt ? { expires_at: expiresAt } : {}) } });
    const expiring = (await create('expiring', t.clock.current + 30)).json() as { id: string; key: string };
    const revoked = (await create('revoked')).json() as { id: string; key: string };
    for (const key of [expiring, revoked]) {
      expect((await me(key.key)).statusCode).toBe(200);
      expect((await me(key.key)).statusCode).toBe(200);
    }
    const listed = await t.app.inject({ method: 'GET', url: '/v1/api-keys/', headers: bearer(owner) });
    const keys = listed.json().results as Array<{ id: string; last_used_at: number | null }>;
    expect(keys.find((k) => k.id === revoked.id)?.last_used_at).toBe(t.clock.current);
    expect((await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${revoked.id}`, headers: bearer(owner) })).statusCode).toBeLessThan(300);
    expect((await me(revoked.key)).statusCode).toBe(401);
    t.clock.advance(29);
    expect((await me(expiring.key)).statusCode).toBe(200);
    t.clock.advance(1);
    expect((await me(expiring.key)).statusCode).toBe(401);
  });

  it('sees a new membership on the next request', async () => {
    const member = world.teamB.member;
    const token = await login(t.app, member.email, member.password);
    const adminToken = await login(t.app, world.admin.email, world.admin.password); // the world's tokens have expired
    const before = (await me(token)).json() as Array<{ team_id: string }>;
    expect(before.map((m) => m.team_id)).not.toContain(world.teamA.id);
    const added = await t.app.inject({
      method: 'POST',
      url: `/v1/teams/${world.teamA.id}/invites`,
      headers: bearer(adminToken),
      payload: { email: member.email, role: 'MEMBER' },
    });
    expect(added.statusCode, added.body).toBeLessThan(300);
    const accepted = await t.app.inject({ method: 'POST', url: `/v1/teams/invites/${added.json().id}/accept`, headers: bearer(token) });
    expect(accepted.statusCode, accepted.body).toBeLessThan(300);
    const after = (await me(token)).json() as Array<{ team_id: string }>;
    expect(after.map((m) => m.team_id)).toContain(world.teamA.id);
  });
});
