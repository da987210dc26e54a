import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, loginTo, startServer, type ServerProcess } from './helpers/server-process.js';

/**
 * The embedded default's promise: a write that was answered 2xx survives the process being
 * killed (SIGKILL, no shutdown) in the middle of a write load.
 */
describe('SQLite durability', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'warden-crash-'));
  const env = {
    WARDEN_DATABASE_URL: `sqlite://${path.join(dir, 'warden.db')}`,
    WARDEN_DATA_DIR: dir,
    WARDEN_ADMIN_EMAIL: 'crash@example.com',
    WARDEN_ADMIN_PASSWORD: 'crash-password-1',
    WARDEN_PASSWORD_HASH_COST: '14',
  };
  let server: ServerProcess | undefined;
  afterAll(async () => {
    await server?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('keeps every acknowledged write after a SIGKILL mid-load', async () => {
    server = await startServer(env);
    const token = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    const target = (await api(server.url, 'POST', '/v1/agent-configurations/', token, { agent_name: 'target', model_name: 'm' })).body;

    const acknowledgedAgents: string[] = [];
    const acknowledgedMoves = new Map<string, number>();
    let stop = false;
    const url = server.url;
    const worker = async (w: number) => {
      for (let i = 0; !stop; i++) {
        try {
          if (i % 2 === 0) {
            const res = await api(url, 'POST', '/v1/agent-configurations/', token, { agent_name: `w${w}-${i}`, model_name: 'm' });
            if (res.status === 201) acknowledgedAgents.push(res.body.id);
          } else {
            const stage = i % 4 === 1 ? 'tested' : 'hardened';
            const res = await api(url, 'PUT', `/v1/agent-configurations/${target.id}/lifecycle`, token, { trust_stage: stage });
            if (res.status === 200) acknowledgedMoves.set(stage, (acknowledgedMoves.get(stage) ?? 0) + 1);
          }
        } catch {
          return; // the connection died with the process
        }
      }
    };
    const moveCount = () => [...acknowledgedMoves.values()].reduce((a, b) => a + b, 0);
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    // Kill once the load is well under way (bounded: at most 10 s).
    const started = Date.now();
    while (acknowledgedAgents.length + moveCount() < 300 && Date.now() - started < 10_000) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await server.kill('SIGKILL');
    stop = true;
    await Promise.all(workers);
    expect(acknowledgedAgents.length).toBeGreaterThan(50);

    server = await startServer(env);
    const fresh = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    const stored = new Set<string>();
    for (let offset = 0; ; offset += 1000) {
      const page = (await api(server.url, 'GET', `/v1/agent-configurations/?limit=1000&offset=${offset}`, fresh)).body;
      for (const agent of page.results) stored.add(agent.id);
      if (page.results.length < 1000) break;
    }
    const lost = acknowledgedAgents.filter((id) => !stored.has(id));
    expect(lost).toEqual([]);
    // The whole lifecycle history, not only the final state: one unbroken chain from
    // "registered", holding every acknowledged move (and at most one unacknowledged move per
    // worker: those in flight when the process died may or may not have committed).
    const events: Array<{ from_stage: string | null; to_stage: string }> = [];
    for (let offset = 0; ; offset += 1000) {
      const page = (await api(server.url, 'GET', `/v1/agent-configurations/${target.id}/lifecycle/history?limit=1000&offset=${offset}`, fresh)).body;
      events.push(...page.results);
      if (page.results.length < 1000) break;
    }
    expect(events[0]).toMatchObject({ from_stage: null, to_stage: 'registered' });
    for (let i = 1; i < events.length; i++) expect(events[i]?.from_stage, `event ${i}`).toBe(events[i - 1]?.to_stage);
    for (const [stage, count] of acknowledgedMoves) {
      expect(events.filter((e, i) => i > 0 && e.to_stage === stage).length, stage).toBeGreaterThanOrEqual(count);
    }
    expect(events.length - 1).toBeLessThanOrEqual(moveCount() + workers.length);
    expect(moveCount()).toBeGreaterThan(20);
    const after = (await api(server.url, 'GET', `/v1/agent-configurations/${target.id}`, fresh)).body;
    expect(after.trust_stage).toBe(events[events.length - 1]?.to_stage);
  });

  it('finds every acknowledged write after a SIGKILL in the middle of a write flood', { timeout: 180_000 }, async () => {
    await server?.kill('SIGKILL');
    server = await startServer(env);
    const token = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    const url = server.url;
    // Each writer owns one agent and writes it in sequence, as fast as it is answered: its last
    // acknowledged update, and every acknowledged lifecycle move, must be there after the crash.
    const writers = 32;
    const agents: string[] = [];
    for (let w = 0; w < writers; w++) {
      agents.push((await api(url, 'POST', '/v1/agent-configurations/', token, { agent_name: `flood-${w}-0`, model_name: 'm' })).body.id);
    }
    const lastUpdate = new Array<number>(writers).fill(0);
    const moves = new Array<number>(writers).fill(0);
    let acknowledged = 0;
    let stop = false;
    const writer = async (w: number) => {
      const id = agents[w] as string;
      for (let i = 1; !stop; i++) {
        try {
          if (i % 2 === 0) {
            const res = await api(url, 'PUT', `/v1/agent-configurations/${id}`, token, { agent_name: `flood-${w}-${i}` });
            if (res.status !== 200) throw new Error(`update answered ${res.status}`);
            lastUpdate[w] = i;
          } else {
            const res = await api(url, 'PUT', `/v1/agent-configurations/${id}/lifecycle`, token, { trust_stage: i % 4 === 1 ? 'tested' : 'hardened' });
            if (res.status !== 200) throw new Error(`lifecycle answered ${res.status}`);
            moves[w] = (moves[w] ?? 0) + 1;
          }
          acknowledged++;
        } catch (error) {
          if (stop) return; // the connection died with the process
          throw error;
        }
      }
    };
    const flood = Promise.all(Array.from({ length: writers }, (_, w) => writer(w)));
    const started = Date.now();
    while (acknowledged < 1500 && Date.now() - started < 15_000) await new Promise((resolve) => setTimeout(resolve, 5));
    stop = true;
    await server.kill('SIGKILL');
    await flood;
    expect(acknowledged).toBeGreaterThan(200);

    server = await startServer(env);
    const fresh = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    for (let w = 0; w < writers; w++) {
      const id = agents[w] as string;
      const agent = (await api(server.url, 'GET', `/v1/agent-configurations/${id}`, fresh)).body;
      // The last acknowledged update, or the one in flight when the process died.
      const stored = Number(/^flood-\d+-(\d+)$/.exec(agent.agent_name)?.[1]);
      expect(stored, `agent ${w}`).toBeGreaterThanOrEqual(lastUpdate[w] as number);
      expect(stored, `agent ${w}`).toBeLessThanOrEqual((lastUpdate[w] as number) + 2);
      const history = (await api(server.url, 'GET', `/v1/agent-configurations/${id}/lifecycle/history?limit=1000`, fresh)).body;
      const recorded = history.results.length - 1; // the first event is the registration
      expect(recorded, `agent ${w}`).toBeGreaterThanOrEqual(moves[w] as number);
      expect(recorded, `agent ${w}`).toBeLessThanOrEqual((moves[w] as number) + 1);
    }
  });
});
