import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUARDED, INJECTION, startChatAgent } from './helpers/gateway-agents.js';
import { api, loginTo, startServer, type ServerProcess } from './helpers/server-process.js';

// vitest.config.ts runs this file only when WARDEN_TEST_POSTGRES_URL names a server (and says so when it does not).
const serverUrl = process.env.WARDEN_TEST_POSTGRES_URL as string;

/** Two Warden processes on one PostgreSQL database, written to at the same time. */
describe('two processes on one PostgreSQL database', () => {
  const database = `warden_mp_${randomBytes(5).toString('hex')}`;
  const servers: ServerProcess[] = [];
  const admin = { email: 'mp@example.com', password: 'mp-password-1' };

  async function adminQuery(sql: string) {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await adminQuery(`CREATE DATABASE ${database}`);
    const url = new URL(serverUrl as string);
    url.pathname = `/${database}`;
    const env = {
      WARDEN_DATABASE_URL: url.toString(),
      WARDEN_SECRET_KEY: randomBytes(32).toString('hex'),
      WARDEN_ADMIN_EMAIL: admin.email,
      WARDEN_ADMIN_PASSWORD: admin.password,
      WARDEN_PASSWORD_HASH_COST: '14',
      WARDEN_DATA_DIR: `/tmp/${database}`,
    };
    // Both start at once on the empty database: migrations and the first admin must not collide.
    servers.push(...(await Promise.all([startServer(env), startServer(env)])));
  });

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.kill()));
    await adminQuery(`DROP DATABASE IF EXISTS ${database}`);
  });

  it("use, in one process's gateway, an agent change made through the other at the very next call, and both see the agent domed", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const token = await loginTo(a.url, admin.email, admin.password);
    const [before, after] = await Promise.all([startChatAgent(), startChatAgent()]);
    try {
      const body = { agent_name: 'gateway-mp', agent_url: before.url, protocol: 'chat_completions', model_name: 'm', api_key: 'sk-mp-before-key-0001' };
      const agent = (await api(a.url, 'POST', '/v1/agent-configurations/', token, body)).body;
      const chat = (content: string) => api(a.url, 'POST', `/v1/gateway/${agent.id}/chat/completions`, token, { messages: [{ role: 'user', content }] });
      expect((await chat('hello')).status).toBe(200);
      expect(before.received).toHaveLength(1);

      // Changed through process b: process a's next call goes to the new address with the new key.
      const update = { agent_url: after.url, api_key: 'sk-mp-after-key-0002' };
      expect((await api(b.url, 'PUT', `/v1/agent-configurations/${agent.id}`, token, update)).status).toBe(200);
      expect((await chat('again')).status).toBe(200);
      expect(before.received).toHaveLength(1);
      expect(after.received.at(-1)!.headers.authorization).toBe('Bearer sk-mp-after-key-0002');

      // A configuration applied through process b guards process a's next call, which makes the agent domed for both.
      const made = (await api(b.url, 'POST', '/v1/dome-configs', token, { agent_id: agent.id, config_body: GUARDED })).body;
      expect((await api(b.url, 'POST', `/v1/dome-configs/${made.id}/apply`, token)).status).toBe(200);
      const blocked = await chat(INJECTION);
      expect(blocked.body.choices[0].finish_reason).toBe('content_filter');
      for (const server of [a, b]) {
        expect((await api(server.url, 'GET', `/v1/agent-configurations/${agent.id}`, token)).body.protection_status).toBe('domed');
      }
    } finally {
      await Promise.all([before.close(), after.close()]);
    }
  });

  it('lose no update and keep one ordered lifecycle history', async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const token = await loginTo(a.url, admin.email, admin.password);
    // A token from one process works on the other: they share the secret and the sessions.
    expect((await api(b.url, 'GET', '/v1/users/me', token)).status).toBe(200);
    const agent = (await api(a.url, 'POST', '/v1/agent-configurations/', token, { agent_name: 'shared', model_name: 'm' })).body;
    const path = `/v1/agent-configurations/${agent.id}`;

    // About 50 requests in flight at every moment, spread over both processes: 5 streams that
    // each own a field, 25 that all write the same field, 20 that move the lifecycle.
    const fields = ['purpose', 'last_tested_by', 'agent_system_prompt', 'model_name', 'hub'];
    const last = new Map<string, string>();
    const streams = fields.map(async (field, f) => {
      for (let i = 1; i <= 20; i++) {
        const target = (i + f) % 2 === 0 ? a : b;
        const value = `${field}-${i}`;
        const res = await api(target.url, 'PUT', path, token, { [field]: value });
        expect(res.status).toBe(200);
        last.set(field, value);
      }
    });
    const lastOfNameStream: string[] = [];
    const sameField = Array.from({ length: 25 }, async (_, s) => {
      for (let i = 1; i <= 8; i++) {
        const target = (i + s) % 2 === 0 ? a : b;
        const res = await api(target.url, 'PUT', path, token, { agent_name: `name-${s}-${i}` });
        expect(res.status).toBe(200);
        expect(res.body.agent_name).toBe(`name-${s}-${i}`);
      }
      lastOfNameStream.push(`name-${s}-8`);
    });
    const stages = ['tested', 'hardened', 'trusted', 'registered'];
    let moves = 0;
    const lifecycle = Array.from({ length: 20 }, async (_, s) => {
      const target = s % 2 === 0 ? a : b;
      for (let i = 0; i < 10; i++) {
        const res = await api(target.url, 'PUT', `${path}/lifecycle`, token, { trust_stage: stages[(i + s) % stages.length] });
        expect(res.status).toBe(200);
        moves++;
      }
    });
    await Promise.all([...streams, ...sameField, ...lifecycle]);
    const final = (await api(b.url, 'GET', path, token)).body;
    for (const field of fields) expect(final[field], field).toBe(last.get(field));
    // The same field: the last write of one of the streams (an earlier one would mean a lost write).
    expect(lastOfNameStream).toContain(final.agent_name);
    const history = (await api(a.url, 'GET', `${path}/lifecycle/history?limit=1000`, token)).body;
    expect(history.count).toBe(moves + 1);
    const events = history.results as Array<{ from_stage: string | null; to_stage: string }>;
    for (let i = 1; i < events.length; i++) expect(events[i]?.from_stage).toBe(events[i - 1]?.to_stage);
    expect(final.trust_stage).toBe(events[events.length - 1]?.to_stage);
  });
});
