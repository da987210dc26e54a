import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createSuperAdmin, createUser, createWorld, login, uniqueEmail, type World } from './helpers/factories.js';
import { startTestAgent } from './helpers/agents/index.js';
import { expectDetail } from './helpers/reference.js';
import { AGENT_KEY, CAMPAIGN_KEY, quickConnector, registerAgent, startCampaign, waitForCampaign } from './helpers/redteam.js';

describe('failed-login limits', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await buildTestApp({ app: { loginLimits: { maxFailuresPerAccount: 3, maxFailuresPerAddress: 6, windowSeconds: 600 } } });
    world = await createWorld(t.app);
  });
  afterAll(async () => t.close());

  const attempt = (email: string, password: string, ip = '10.0.0.1') =>
    t.app.inject({ method: 'POST', url: '/v1/auth/jwt/login', payload: { email, password }, remoteAddress: ip });

  it('answers 429 with Retry-After once an account has failed too often, even with the right password', async () => {
    const victim = world.teamA.member;
    for (let i = 0; i < 3; i++) expectDetail(await attempt(victim.email, 'wrong-password', '10.0.0.1'), 401);
    const blocked = await attempt(victim.email, victim.password, '10.0.0.2');
    expectDetail(blocked, 429);
    expect(Number(blocked.headers['retry-after'])).toBe(600);
    t.clock.advance(601);
    expect((await attempt(victim.email, victim.password, '10.0.0.2')).statusCode).toBe(200);
  });

  it('limits an address that fails across many accounts', async () => {
    for (let i = 0; i < 6; i++) expectDetail(await attempt(uniqueEmail('spray'), 'guess-123', '10.9.9.9'), 401);
    expectDetail(await attempt(world.teamB.member.email, world.teamB.member.password, '10.9.9.9'), 429);
    expect((await attempt(world.teamB.member.email, world.teamB.member.password, '10.8.8.8')).statusCode).toBe(200);
  });

  it('counts an attempt before the password hash: concurrent wrong logins get at most the limit of 401s', async () => {
    const target = world.teamB.owner;
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => attempt(target.email, `wrong-${i}`, `10.7.0.${i + 1}`)));
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 401)).toHaveLength(3);
    expect(statuses.filter((s) => s === 429)).toHaveLength(9);
    for (const r of answers.filter((a) => a.statusCode === 429)) expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
    // The right password too is refused now: the account is locked for the window.
    expectDetail(await attempt(target.email, target.password, '10.7.1.1'), 429);
  });

  it('counts IPv6 clients by their /64', async () => {
    for (let i = 0; i < 6; i++) expectDetail(await attempt(uniqueEmail('v6'), 'guess-123', `2001:db8:1:2::${(i + 1).toString(16)}`), 401);
    // Another address of the same /64 is the same client; another /64 is not.
    expectDetail(await attempt(world.teamA.owner.email, world.teamA.owner.password, '2001:db8:1:2:ffff:1:2:3'), 429);
    expect((await attempt(world.teamA.owner.email, world.teamA.owner.password, '2001:db8:1:3::1')).statusCode).toBe(200);
  });
});

describe('API rate limit', () => {
  it('answers 429 with Retry-After past the configured requests per minute, per client address, whatever the token', async () => {
    const t = await buildTestApp({ app: { rateLimitPerMinute: 5 } });
    try {
      const { admin } = await createSuperAdmin(t.app);
      const from = (remoteAddress: string, token: string) =>
        t.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(token), remoteAddress });
      const statuses = [];
      for (let i = 0; i < 5; i++) statuses.push((await from('10.1.1.1', admin.token)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200]);
      const limited = await from('10.1.1.1', admin.token);
      expectDetail(limited, 429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Made-up tokens do not buy a fresh budget.
      expectDetail(await from('10.1.1.1', 'made-up-token-1'), 429);
      // Another address has its own.
      expect((await from('10.2.2.2', admin.token)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
  it('counts the client address: the socket address with no trusted proxy, the one X-Forwarded-For names behind one', async () => {
    for (const [hops, limitedBy] of [
      [0, 'socket'],
      [1, 'forwarded'],
    ] as const) {
      const t = await buildTestApp({ app: { rateLimitPerMinute: 5, trustProxyHops: hops } });
      try {
        const { admin } = await createSuperAdmin(t.app);
        // One socket (the proxy, 10.0.0.1), two clients behind it.
        const from = (client: string) =>
          t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { ...bearer(admin.token), 'x-forwarded-for': client }, remoteAddress: '10.0.0.1' });
        const statuses = [];
        for (const client of ['10.5.5.1', '10.5.5.1', '10.5.5.1', '10.5.5.2', '10.5.5.2', '10.5.5.2']) statuses.push((await from(client)).statusCode);
        // Without a trusted proxy the header is not believed: all six share the socket's budget of 5.
        expect(statuses).toEqual(limitedBy === 'socket' ? [200, 200, 200, 200, 200, 429] : [200, 200, 200, 200, 200, 200]);
      } finally {
        await t.close();
      }
    }
  });
});

describe('HTTP hardening', () => {
  let t: TestApp;
  let world: World;
  beforeAll(async () => {
    t = await buildTestApp();
    world = await createWorld(t.app);
  });
  afterAll(async () => t.close());

  it('sets security headers and no CORS headers by default', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: { ...bearer(world.teamA.member.token), origin: 'https://evil.example.com' } });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toBeDefined();
    expect(res.headers['content-security-policy']).toBeDefined();
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-security-policy']).toContain("script-src 'self'");
  });

  it('asks browsers to upgrade to https only when Warden is reached over https (issue 17: a blank /docs over HTTP)', async () => {
    const csp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);
    const forwardedHttps = { 'x-forwarded-proto': 'https' };
    // Plain HTTP, and an X-Forwarded-Proto that no trusted proxy set (WARDEN_TRUST_PROXY_HOPS=0).
    for (const headers of [{}, forwardedHttps]) {
      for (const url of ['/docs/', '/docs/static/index.html', '/healthz', '/v1/users/me']) {
        const res = await t.app.inject({ method: 'GET', url, headers: { ...headers, ...bearer(world.teamA.member.token) } });
        expect(csp(res), url).toContain("default-src 'self'");
        expect(csp(res), url).not.toContain('upgrade-insecure-requests');
      }
    }
    const docs = await t.app.inject({ method: 'GET', url: '/docs/' });
    expect(csp(docs)).toContain("script-src 'self'");
    expect(csp(docs)).toContain("img-src 'self' data: validator.swagger.io");
    // Behind one trusted proxy that says the client came over https: the directive is back.
    const proxied = await buildTestApp({ app: { trustProxyHops: 1 } });
    try {
      for (const url of ['/docs/', '/healthz']) {
        expect(csp(await proxied.app.inject({ method: 'GET', url, headers: forwardedHttps })), url).toContain('upgrade-insecure-requests');
        expect(csp(await proxied.app.inject({ method: 'GET', url, headers: { 'x-forwarded-proto': 'http' } })), url).not.toContain('upgrade-insecure-requests');
        expect(csp(await proxied.app.inject({ method: 'GET', url })), url).not.toContain('upgrade-insecure-requests');
      }
    } finally {
      await proxied.close();
    }
  });

  it('allows only the configured origins when CORS is on', async () => {
    const c = await buildTestApp({ app: { corsOrigins: ['https://console.example.com'] } });
    try {
      const preflight = (origin: string) =>
        c.app.inject({ method: 'OPTIONS', url: '/v1/agent-configurations/', headers: { origin, 'access-control-request-method': 'GET' } });
      expect((await preflight('https://console.example.com')).headers['access-control-allow-origin']).toBe('https://console.example.com');
      expect((await preflight('https://evil.example.com')).headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await c.close();
    }
  });

  it('answers 422, not 500, for integers beyond the safe range and for deeply nested JSON', async () => {
    const token = world.teamA.member.token;
    const huge = await t.app.inject({ method: 'GET', url: '/v1/agent-configurations/?offset=100000000000000000000', headers: bearer(token) });
    expect(huge.statusCode, huge.body).toBe(422);
    expect(huge.json().detail[0]).toMatchObject({ loc: ['query', 'offset'], type: 'less_than_equal' });
    const agent = (
      await t.app.inject({ method: 'POST', url: '/v1/agent-configurations/', headers: bearer(token), payload: { agent_name: 'n', model_name: 'm' } })
    ).json();
    const epoch = await t.app.inject({
      method: 'PUT',
      url: `/v1/agent-configurations/${agent.id}`,
      headers: bearer(token),
      payload: { last_evaluated_at: 1e19 },
    });
    expect(epoch.statusCode).toBe(422);
    const deep = `{"agent_name":"a","model_name":"m","agent_params":{"rag_params":{"x":${'['.repeat(5000)}${']'.repeat(5000)}}}}`;
    const nested = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: deep,
    });
    expect(nested.statusCode, nested.body).toBe(422);
    expect(nested.json().detail[0]).toMatchObject({ loc: ['body'], type: 'json_invalid' });
  });

  it('answers 404 to a super admin naming a team that does not exist', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/?team_id=01890000-0000-7000-8000-00000000beef',
      headers: bearer(world.admin.token),
      payload: { agent_name: 'a', model_name: 'm' },
    });
    expectDetail(res, 404);
  });

  it('refuses a JSON body over 1 MiB with 413 and writes nothing', async () => {
    const before = await t.database.db.selectFrom('agents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    const res = await t.app.inject({
      method: 'POST',
      url: '/v1/agent-configurations/',
      headers: { ...bearer(world.teamA.member.token), 'content-type': 'application/json' },
      payload: JSON.stringify({ agent_name: 'big', model_name: 'm', agent_system_prompt: 'x'.repeat(1024 * 1024) }),
    });
    expectDetail(res, 413);
    const after = await t.database.db.selectFrom('agents').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });
});

describe('secrets in logs', () => {
  it('never writes passwords, tokens, API keys or agent keys to the log of a full session', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({ app: { logger: { level: 'trace', stream } } });
    try {
      const { admin, teamId } = await createSuperAdmin(t.app);
      const user = await createUser(t.app, admin.token, teamId, 'logged');
      const key = await createApiKey(t.app, user.token);
      const agentKey = 'sk-agent-secret-value-abcdef123456';
      const created = await t.app.inject({
        method: 'POST',
        url: '/v1/agent-configurations/',
        headers: bearer(key),
        payload: { agent_name: 'a', model_name: 'm', api_key: agentKey },
      });
      expect(created.statusCode).toBe(201);
      await t.app.inject({
        method: 'PUT',
        url: `/v1/agent-configurations/${created.json().id}`,
        headers: bearer(user.token),
        payload: { api_key: `${agentKey}-2` },
      });
      await t.app.inject({ method: 'POST', url: '/v1/auth/jwt/login', payload: { email: user.email, password: 'a-wrong-password' } });
      const changed = await t.app.inject({
        method: 'POST',
        url: '/v1/auth/change-password',
        headers: bearer(user.token),
        payload: { current_password: user.password, new_password: 'the-new-password-9' },
      });
      expect(changed.statusCode).toBe(200);
      const fresh = await login(t.app, user.email, 'the-new-password-9');
      await t.app.inject({ method: 'GET', url: '/v1/users/me', headers: bearer(fresh) });
      await t.app.inject({
        method: 'GET',
        url: '/v1/users/me',
        headers: bearer('wdn_0123456789abcdef0123456789abcdef_notarealsecretnotarealsecretnotarealsecretx'),
      });

      const log = lines.join('');
      expect(lines.length).toBeGreaterThan(10);
      for (const secret of [
        admin.password,
        user.password,
        'a-wrong-password',
        'the-new-password-9',
        admin.token,
        user.token,
        fresh,
        key,
        key.slice(-43),
        agentKey,
        'notarealsecret',
      ]) {
        expect(log.includes(secret), `log contains ${secret.slice(0, 12)}…`).toBe(false);
      }
    } finally {
      await t.close();
    }
  });

  it('redacts every field SECURITY.md names wherever a log line carries it', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const t = await buildTestApp({ app: { logger: { level: 'info', stream } } });
    try {
      const fields = { password: 's-password', api_key: 's-api-key', agent_api_key: 's-agent-api-key', access_token: 's-access-token', key: 's-key' };
      t.app.log.info({ campaign: fields }, 'a line that carries secrets');
      t.app.log.info({ body: { new_password: 's-new-password', current_password: 's-current-password' } }, 'another');
      const log = lines.join('');
      expect(log).toContain('a line that carries secrets');
      for (const secret of [...Object.values(fields), 's-new-password', 's-current-password']) expect(log, secret).not.toContain(secret);
    } finally {
      await t.close();
    }
  });

  it('never writes a campaign\'s key, an agent\'s key or a webhook\'s API key to the log of a red-team session', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const connector = quickConnector();
    const echoing = await startTestAgent('compliant', { requireApiKey: 'another-key', echoAuthorization: true });
    const answering = await startTestAgent('compliant');
    const t = await buildTestApp({ startJobs: true, app: { connector, logger: { level: 'trace', stream } } });
    try {
      const world = await createWorld(t.app);
      const token = world.teamA.member.token;
      const failing = await startCampaign(t.app, token, { agent_url: echoing.chatUrl, agent_api_key: CAMPAIGN_KEY, categories: ['injection'], num_tests: 1 });
      expect((await waitForCampaign(t.app, token, failing)).status).toBe('failed');
      const agent = await registerAgent(t.app, token, echoing);
      const viaAgent = await startCampaign(t.app, token, { agent_id: agent.id, categories: ['injection'], num_tests: 1 });
      expect((await waitForCampaign(t.app, token, viaAgent)).status).toBe('failed');
      const done = await startCampaign(t.app, token, { agent_url: answering.chatUrl, agent_api_key: CAMPAIGN_KEY, categories: ['pii'], num_tests: 1 });
      expect((await waitForCampaign(t.app, token, done)).status).toBe('completed');
      const webhookKey = await createApiKey(t.app, token);
      const registered = await t.app.inject({
        method: 'POST',
        url: '/v1/webhooks/register-dome',
        headers: { 'x-webhook-api-key': webhookKey },
        payload: { agent_id: agent.id, team_id: world.teamA.id, dome_url: 'http://dome.internal:8000' },
      });
      expect(registered.statusCode, registered.body).toBe(200);
      const log = lines.join('');
      expect(log).toContain('job ended');
      for (const secret of [CAMPAIGN_KEY, AGENT_KEY, webhookKey]) expect(log, secret.slice(0, 12)).not.toContain(secret.slice(4, -4));
    } finally {
      await t.close();
      connector.close();
      await Promise.all([echoing.close(), answering.close()]);
    }
  });
});
