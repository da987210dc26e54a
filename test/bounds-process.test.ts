import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startControlCharacterAgent } from './helpers/control-agent.js';
import { api, loginTo, startServer, type ServerProcess } from './helpers/server-process.js';

/**
 * The service as it runs (dist/main.js in its own process, so that its memory is its own): an
 * agent answering 40,000 control characters to every prompt, then three clients reading the
 * run's results at once (result pages, campaign results, downloads, reports). With the heap
 * limit docs/deployment.md gives small machines, it lives and its resident memory stays under
 * 300 MB (docs/api.md, "Bounds"); and a report built on demand does not hold
 * the event loop: /healthz keeps answering while it renders (a worker thread).
 */

const RSS_BOUND_MB = 300;
const ALL_HARNESSES = ['security', 'privacy', 'safety', 'toxicity', 'ethics', 'reliability'];

/** The process's resident memory now and at its peak (VmRSS, VmHWM), in MB. */
function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)?.[1] ?? Number.NaN);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

async function poll<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > until) return value;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** Reads a whole answer and returns its size (bytes), failing on any status but 200. */
async function fetchBytes(url: string, token: string, method = 'GET'): Promise<number> {
  const res = await fetch(url, { method, headers: { authorization: `Bearer ${token}` } });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) throw new Error(`${method} ${url} → ${res.status}: ${body.subarray(0, 300).toString()}`);
  return body.length;
}

describe('the service under an agent answering 40,000 control characters', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'warden-bounds-'));
  const env = {
    WARDEN_DATABASE_URL: `sqlite://${path.join(dir, 'warden.db')}`,
    WARDEN_DATA_DIR: dir,
    WARDEN_ADMIN_EMAIL: 'bounds@example.com',
    WARDEN_ADMIN_PASSWORD: 'bounds-password-1',
    WARDEN_PASSWORD_HASH_COST: '14',
    // As npm start runs it, with the heap limit docs/deployment.md gives small machines (one
    // unbounded result page used to exhaust it and kill the process).
    NODE_OPTIONS: '--max-semi-space-size=8 --max-old-space-size=160',
  };
  let server: ServerProcess;
  let agent: Awaited<ReturnType<typeof startControlCharacterAgent>>;
  let token: string;
  let evaluationId: string;
  let campaignId: string;

  beforeAll(async () => {
    agent = await startControlCharacterAgent(40_000);
    server = await startServer(env, 90_000);
    token = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    const registered = await api(server.url, 'POST', '/v1/agent-configurations/', token, {
      agent_name: 'Noisy',
      model_name: 'noise',
      agent_url: agent.chatUrl,
      protocol: 'chat_completions',
      rate_limit_requests_per_minute: 100_000,
    });
    expect(registered.status).toBe(201);
    const evaluation = await api(server.url, 'POST', '/v1/evaluations/', token, { agent_id: registered.body.id, harness_names: ALL_HARNESSES });
    expect(evaluation.status).toBe(202);
    evaluationId = evaluation.body.evaluation_id;
    const campaign = await api(server.url, 'POST', '/v1/campaigns', token, {
      tool: 'diamond_security',
      agent_url: agent.chatUrl,
      purpose: 'Customer support assistant of a retail bank',
      categories: ['injection', 'jailbreak', 'harmful', 'pii', 'toxicity', 'hallucination', 'overreliance'],
      strategies: ['basic', 'hex', 'rot13'],
      num_tests: 25,
    });
    expect(campaign.status).toBe(202);
    campaignId = campaign.body.campaign_id;
    const ended = await poll(() => api(server.url, 'GET', `/v1/evaluations/${evaluationId}`, token), (r) => r.body.status !== 'running', 400_000);
    expect(ended.body.status, JSON.stringify(ended.body)).toBe('completed');
    const campaignEnded = (r: { body: { status: string } }) => !['pending', 'running'].includes(r.body.status);
    const finished = await poll(() => api(server.url, 'GET', `/v1/campaigns/${campaignId}`, token), campaignEnded, 400_000);
    expect(finished.body.status, JSON.stringify(finished.body)).toBe('completed');
    // The reads start from a fresh process, as they would days after the runs: what is measured
    // is what reading costs, not what the runs left in the heap.
    await server.kill();
    server = await startServer(env, 90_000);
    token = await loginTo(server.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
  }, 900_000);

  afterAll(async () => {
    await server?.kill();
    await agent?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`stays under ${RSS_BOUND_MB} MB of resident memory while three clients read the results`, async () => {
    const pid = server.child.pid as number;
    const base = `${server.url}/v1`;
    const before = memoryOf(pid).rss;
    let peakRss = before;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, memoryOf(pid).rss);
    }, 20);
    let bytes = 0;
    const read = async (url: string, method = 'GET') => {
      bytes += await fetchBytes(url, token, method);
    };
    const resultPages = async () => {
      for (let offset: number | null = 0; offset !== null; ) {
        const url = `${base}/evaluation-results/${evaluationId}/results?limit=2000&offset=${offset}`;
        const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
        const text = await res.text();
        bytes += text.length;
        offset = (JSON.parse(text) as { next_offset: number | null }).next_offset;
      }
    };
    const clients = [
      async () => {
        await resultPages();
        await read(`${base}/campaigns/${campaignId}/results/download?format=json`);
        await read(`${base}/evaluations/${evaluationId}/html`);
      },
      async () => {
        await read(`${base}/campaigns/${campaignId}/results`);
        await read(`${base}/campaigns/${campaignId}/results/download?format=csv`);
        await resultPages();
      },
      async () => {
        await read(`${base}/campaigns/${campaignId}/results/download?format=jsonl`);
        await read(`${base}/evaluations/${evaluationId}/report?force_regenerate=true`, 'POST');
        await read(`${base}/evaluations/${evaluationId}/pdf`);
        await read(`${base}/evaluation-results/${evaluationId}/results?limit=2000`);
      },
    ];
    try {
      for (let round = 0; round < 3; round++) await Promise.all(clients.map((client) => client()));
    } finally {
      clearInterval(sampler);
    }
    expect(server.child.exitCode).toBeNull();
    const { peak } = memoryOf(pid);
    expect(bytes).toBeGreaterThan(30 * 1024 * 1024);
    const mb = (value: number) => `${Math.round(value)} MB`;
    const what = `before ${mb(before)}; read ${mb(bytes / 1048576)}; peak resident memory ${mb(peakRss)} (VmHWM ${mb(peak)})`;
    console.log(what);
    expect(peakRss, what).toBeLessThan(RSS_BOUND_MB);
  }, 600_000);

  it('answers /healthz all along while a report is rendered (the render is off the event loop)', async () => {
    const latencies: number[] = [];
    let rendering = true;
    const report = fetchBytes(`${server.url}/v1/evaluations/${evaluationId}/report?force_regenerate=true`, token, 'POST').finally(() => {
      rendering = false;
    });
    const started = performance.now();
    while (rendering) {
      const at = performance.now();
      const res = await fetch(`${server.url}/healthz`);
      await res.text();
      if (rendering) latencies.push(performance.now() - at);
    }
    await report;
    const took = performance.now() - started;
    const slowest = Math.max(...latencies);
    // Rendered on the event loop, the report would answer no /healthz until it was done: the
    // slowest would last about the whole render. Compared with the render itself, not with a
    // fixed number of milliseconds, so that a machine busy with other work does not decide it.
    expect(latencies.length, `report took ${Math.round(took)} ms`).toBeGreaterThan(5);
    expect(slowest, `slowest /healthz ${Math.round(slowest)} ms while the report took ${Math.round(took)} ms`).toBeLessThan(took / 2);
  }, 120_000);
});
