import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveKeys } from '../src/crypto/keys.js';
import { signAccessToken } from '../src/modules/auth/tokens.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createAgent, createUser, createWorld, login, uniqueEmail, type Actor, type World } from './helpers/factories.js';
import { startFakeLlm } from './helpers/fake-llm.js';
import { ROUTES, type Caller, type Ctx, type RouteCase } from './helpers/route-table.js';

/**
 * Every route × every kind of caller (issue 7): each cell's status is asserted. The routes
 * come from the app itself, so a new route that is not in the table fails this test.
 */
let t: TestApp;
let fakeLlm: Awaited<ReturnType<typeof startFakeLlm>>;
let world: World;
const tokens = {} as Record<Caller, (needs: string | null) => Promise<string | undefined>>;

beforeAll(async () => {
  // Rule extraction runs against a fake model, so its cells show who may extract (not a 503).
  fakeLlm = await startFakeLlm();
  t = await buildTestApp({ app: { llm: fakeLlm.llm } });
  world = await createWorld(t.app);
  const member = world.teamA.member;

  const expired = async () => {
    const fresh = await login(t.app, member.email, member.password);
    const { sid } = decodeJwt(fresh) as { sid: string };
    const keys = deriveKeys('test-secret-key-that-is-long-enough-0123456789');
    return signAccessToken(keys.jwt, { userId: member.id, sessionId: sid, expiresAt: t.clock.current - 10 }, t.clock.current - 100);
  };
  const revokedSession = async () => {
    const token = await login(t.app, member.email, member.password);
    await t.app.inject({ method: 'POST', url: '/v1/auth/jwt/logout', headers: bearer(token) });
    return token;
  };
  const revokedKey = async () => {
    const created = await t.app.inject({ method: 'POST', url: '/v1/api-keys/', headers: bearer(member.token), payload: { name: 'to revoke' } });
    await t.app.inject({ method: 'DELETE', url: `/v1/api-keys/${created.json().id}`, headers: bearer(member.token) });
    return created.json().key as string;
  };
  /** A key of the member limited to a permission other than the one the route needs. */
  const keyWithout = async (needs: string | null) => createApiKey(t.app, member.token, [needs === 'agent:read' ? 'persona:read' : 'agent:read']);

  tokens.anonymous = async () => undefined;
  tokens.malformed = async () => 'this-is-not-a-token';
  tokens.expired = expired;
  tokens.revokedSession = revokedSession;
  tokens.revokedKey = revokedKey;
  tokens.keyWithoutPermission = keyWithout;
  tokens.otherTeam = async () => world.teamB.member.token;
  tokens.member = async () => member.token;
  tokens.superAdmin = async () => world.admin.token;
});
afterAll(async () => {
  await t.close();
  await fakeLlm.close();
});

const CALLERS: Caller[] = ['anonymous', 'malformed', 'expired', 'revokedSession', 'revokedKey', 'keyWithoutPermission', 'otherTeam', 'member', 'superAdmin'];

/** A new person for a caller kind, for routes that change the caller's own session or password. */
async function freshActor(caller: Caller): Promise<Actor | undefined> {
  if (caller === 'member') return createUser(t.app, world.teamA.owner.token, world.teamA.id, 'fresh-a');
  if (caller === 'otherTeam') return createUser(t.app, world.teamB.owner.token, world.teamB.id, 'fresh-b');
  if (caller === 'superAdmin') {
    const email = uniqueEmail('fresh-admin');
    await t.app.services.identity.createSuperAdmin({ email, password: 'admin-password-9' });
    const token = await login(t.app, email, 'admin-password-9');
    return { id: '', email, password: 'admin-password-9', token };
  }
  return undefined;
}

const ACTOR_OF: Partial<Record<Caller, (w: World) => Actor>> = {
  keyWithoutPermission: (w) => w.teamA.member,
  otherTeam: (w) => w.teamB.member,
  member: (w) => w.teamA.member,
  superAdmin: (w) => w.admin,
};

function ctx(actor: Actor | undefined): Ctx {
  return {
    app: t.app,
    world,
    actor,
    createAgent: (body) => createAgent(t.app, world.teamA.member.token, body),
    createUser: (label) => createUser(t.app, world.teamA.owner.token, world.teamA.id, label),
    uniqueEmail,
  };
}

describe('isolation matrix', () => {
  it('has an entry for every route of the app', () => {
    const known = new Set(ROUTES.map((r) => `${r.method} ${r.url}`));
    const missing = t.app.apiRoutes.filter((r) => !known.has(`${r.method} ${r.url}`)).map((r) => `${r.method} ${r.url}`);
    expect(missing, 'routes without an isolation entry: add them to test/route-cases/<feature>.ts (listed in test/helpers/route-table.ts)').toEqual([]);
    const stale = ROUTES.filter((r) => !t.app.apiRoutes.some((a) => a.method === r.method && a.url === r.url)).map((r) => `${r.method} ${r.url}`);
    expect(stale, 'entries for routes the app does not have').toEqual([]);
  });

  it('lists its public routes explicitly: login, refresh and the default Dome configuration under /v1, and healthz, openapi and docs', async () => {
    const publicApi = t.app.apiRoutes.filter((r) => r.public).map((r) => `${r.method} ${r.url}`).sort();
    expect(publicApi).toEqual(['GET /v1/default-dome-config', 'POST /v1/auth/jwt/login', 'POST /v1/auth/jwt/refresh']);
    expect(ROUTES.filter((r) => r.public).map((r) => `${r.method} ${r.url}`).sort()).toEqual(publicApi);
    // Outside /v1, only these answer without a credential.
    for (const url of ['/healthz', '/openapi.json', '/docs/']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode, url).toBe(200);
    }
    expect((await t.app.inject({ method: 'GET', url: '/v1/users/me' })).headers['www-authenticate']).toBe('Bearer');
  });

  const expected = (route: RouteCase, caller: Caller): number => {
    if (route.public) return route.expect[caller] ?? route.expect.member;
    switch (caller) {
      case 'anonymous':
      case 'malformed':
      case 'expired':
      case 'revokedSession':
      case 'revokedKey':
        return 401;
      case 'keyWithoutPermission':
        return route.expect.keyWithoutPermission ?? (route.needs === null ? route.expect.member : 403);
      case 'otherTeam':
        return route.expect.otherTeam ?? 404;
      case 'member':
        return route.expect.member;
      case 'superAdmin':
        return route.expect.superAdmin ?? route.expect.member;
    }
  };

  for (const route of ROUTES) {
    it(`${route.method} ${route.url}`, async () => {
      const failures: string[] = [];
      for (const caller of CALLERS) {
        const fresh = route.freshActors ? await freshActor(caller) : undefined;
        const token = fresh?.token ?? (await tokens[caller](route.needs));
        const actor = fresh ?? ACTOR_OF[caller]?.(world);
        const { url, body, headers } = await route.prepare(ctx(actor), caller);
        const res = await t.app.inject({
          method: route.method as 'GET',
          url,
          headers: { ...headers, ...(token === undefined ? {} : bearer(token)) },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        const want = expected(route, caller);
        if (res.statusCode !== want) failures.push(`${caller}: expected ${want}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
        if (res.statusCode === 401 && res.headers['www-authenticate'] !== 'Bearer') {
          failures.push(`${caller}: 401 without WWW-Authenticate: Bearer (${String(res.headers['www-authenticate'])})`);
        }
        if (res.statusCode >= 400) {
          const parsed = JSON.parse(res.body);
          // The gateway answers in its callers' protocols (CONTRACT.md Wave 3): OpenAI's error shape, or JSON-RPC's.
          const detail = route.errorShape === undefined ? parsed.detail : parsed.error?.message;
          if (res.statusCode !== 422 && typeof detail !== 'string') failures.push(`${caller}: error body without a detail message`);
          if (route.errorShape === 'jsonrpc' && parsed.jsonrpc !== '2.0') failures.push(`${caller}: error body is not a JSON-RPC answer`);
        }
      }
      expect(failures).toEqual([]);
    });
  }
});
