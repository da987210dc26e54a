// `npm run bench:gateway` (also in `npm run bench`): the gateway's overhead (docs/gateway.md,
// "Speed"). Starts the built service (as `npm start` runs it, on a fresh SQLite file) and an
// OpenAI-compatible agent on loopback in this process that answers at once, then sends an open
// loop of requests at a fixed rate, in the same run:
//   1. direct: straight to the agent (the baseline);
//   2. gateway, guards off: the same requests through POST /v1/gateway/{id}/chat/completions of
//      an agent with no configuration applied; beside it, the floor: the same requests through a
//      bare node:http + undici proxy in its own process (bench/tools/floor-proxy.mjs), the least a
//      Node.js gateway costs on this machine, so that the overhead can be read against it;
//   3. direct and gateway with Warden's default configuration applied, on 2 KB prompts.
// The overhead is the gateway's latency percentile minus the direct one's. A script, not a test:
// nothing here asserts a timing. Results are printed and saved in
// bench/results/gateway-<time>.json and bench/results/gateway-latest.json.
//
// Environment (all optional):
//   BENCH_GATEWAY_RATE     requests per second of scenarios 1 and 2 (default 1000)
//   BENCH_GATEWAY_SECONDS  seconds per scenario (default 5)
//   BENCH_GATEWAY_GUARDED_RATE requests per second of scenario 3 (default 200; 0 skips it)
//   BENCH_GATEWAY_WARMUP   seconds of warm-up at the scenario's rate right before each measured run (default 1; 0: none)
//   BENCH_NODE_ARGS        the service's node flags (default: those of `npm start`), e.g. to add --cpu-prof
//   BENCH_MAIN             the service's entry (default dist/main.js)
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { cpuMicrosOf, elapsedLog, formatThreadSplit, startBuiltService, threadCpuOf, threadCpuPerRequest } from './tools/service.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const RATE = Number(process.env.BENCH_GATEWAY_RATE ?? 1000);
const SECONDS = Number(process.env.BENCH_GATEWAY_SECONDS ?? 5);
const GUARDED_RATE = Number(process.env.BENCH_GATEWAY_GUARDED_RATE ?? 200);
const WARMUP_SECONDS = Number(process.env.BENCH_GATEWAY_WARMUP ?? 1);
const MAIN = process.env.BENCH_MAIN ?? 'dist/main.js';
const ADMIN = { email: 'bench@warden.local', password: 'bench-password-1' };
const log = elapsedLog();

const ANSWER = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  created: 1_800_000_000,
  model: 'bench',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'Our opening hours are 9 to 5, Monday to Friday.' } }],
  usage: { prompt_tokens: 10, completion_tokens: 12, total_tokens: 22 },
});

async function startAgent() {
  const stats = { requests: 0 };
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      stats.requests++;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ANSWER) }).end(ANSWER);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, stats, close: () => new Promise((resolve) => server.close(resolve)) };
}

async function api(base, token, method, url, body) {
  const res = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 300)}`);
  return text === '' ? null : JSON.parse(text);
}

const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 256 });

/** The first failure of a run, for the report. */
let firstFailure = null;

/** One POST; resolves to its latency in ms (or null when it failed). */
function post(url, headers, body) {
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const sized = { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const options = { method: 'POST', agent: keepAlive, headers: sized };
    const request = http.request(url, options, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => {
        if (response.statusCode !== 200) firstFailure ??= `HTTP ${response.statusCode}: ${Buffer.concat(chunks).toString('utf8').slice(0, 300)}`;
        resolve(response.statusCode === 200 ? Number(process.hrtime.bigint() - started) / 1e6 : null);
      });
    });
    request.on('error', (error) => {
      firstFailure ??= error.message;
      resolve(null);
    });
    request.end(body);
  });
}

/** An open loop: `rate` requests a second for `seconds`, each sent on time whatever the earlier ones do. */
async function openLoop(url, headers, body, rate, seconds) {
  const total = Math.round(rate * seconds);
  const pending = [];
  const t0 = performance.now();
  for (let i = 0; i < total; i++) {
    const due = t0 + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(post(url, headers, body));
  }
  const latencies = await Promise.all(pending);
  const ok = latencies.filter((l) => l !== null).sort((a, b) => a - b);
  const at = (q) => (ok.length === 0 ? NaN : ok[Math.min(ok.length - 1, Math.floor(q * ok.length))]);
  return { sent: total, failed: total - ok.length, achievedRate: total / ((performance.now() - t0) / 1000), p50: at(0.5), p90: at(0.9), p99: at(0.99) };
}

/** The floor proxy (bench/tools/floor-proxy.mjs) in front of the agent: its URL, pid and stop(). */
async function startFloor(agentUrl) {
  const child = spawn(process.execPath, [path.join(ROOT, 'bench', 'tools', 'floor-proxy.mjs')], {
    cwd: ROOT,
    env: { ...process.env, AGENT_URL: agentUrl },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`the floor proxy exited (${code})`)));
    child.stdout.on('data', (chunk) => {
      const match = /ready (\d+)/.exec(String(chunk));
      if (match) resolve(Number(match[1]));
    });
  });
  child.removeAllListeners('exit');
  const stop = () => new Promise((resolve) => (child.exitCode !== null ? resolve() : (child.once('exit', resolve), child.kill())));
  return { url: `http://127.0.0.1:${port}/chat/completions`, pid: child.pid, stop };
}

/**
 * One scenario's measured loop, after a warm-up of WARMUP_SECONDS at the same rate on the same
 * target right before it (as bench/run.mjs warms each scenario up with wrk): the first second at
 * a new rate, after the process sat idle through the scenarios before, is a ramp (V8 grows back
 * the young generation it shrank while idle, collecting every 15–20 ms meanwhile: bench/README.md,
 * "Gateway: the old generation's pauses"), not the steady state the targets are about.
 */
async function warmedLoop(url, headers, body, rate, seconds) {
  await warm(url, headers, body, rate);
  return openLoop(url, headers, body, rate, seconds);
}

const warm = async (url, headers, body, rate) => {
  if (WARMUP_SECONDS > 0) await openLoop(url, headers, body, rate, WARMUP_SECONDS);
};

/**
 * warmedLoop through `service`, with the service's CPU time per call over the measured loop only
 * (the figure a loaded machine moves least), read between the warm-up and the loop.
 */
async function measured(service, url, headers, body, rate) {
  await warm(url, headers, body, rate);
  const before = cpuMicrosOf(service.pid);
  const threadsBefore = threadCpuOf(service.pid);
  const result = await openLoop(url, headers, body, rate, SECONDS);
  const threads = threadCpuPerRequest(threadsBefore, threadCpuOf(service.pid), result.sent);
  const serviceCpuMicrosPerCall = Math.round((cpuMicrosOf(service.pid) - before) / result.sent);
  return { ...result, serviceCpuMicrosPerCall, serviceThreadsMicrosPerCall: threads };
}

const round = (n) => Math.round(n * 1000) / 1000;
const overhead = (gateway, direct) => ({ p50: round(gateway.p50 - direct.p50), p99: round(gateway.p99 - direct.p99) });

async function main() {
  if (!fs.existsSync(path.join(ROOT, MAIN))) throw new Error(`${MAIN} is missing: run npm run build`);
  const service = await startBuiltService({ root: ROOT, main: MAIN, admin: ADMIN, label: 'gateway' });
  const agent = await startAgent();
  let floor;
  const host = { cpus: os.cpus().length, node: process.version, loadAverage: os.loadavg()[0] };
  const results = { at: new Date().toISOString(), host, rate: RATE, seconds: SECONDS, scenarios: {} };
  try {
    floor = await startFloor(agent.url);
    const { access_token: token } = await api(service.base, null, 'POST', '/v1/auth/jwt/login', ADMIN);
    const make = (name) =>
      api(service.base, token, 'POST', '/v1/agent-configurations/', {
        agent_name: name,
        model_name: 'bench',
        agent_url: agent.url,
        protocol: 'chat_completions',
        // Random, as real keys are (a run of zeros would match numbers in every answer).
        api_key: `sk-bench-${randomBytes(18).toString('base64url')}`,
        rate_limit_requests_per_minute: 10_000_000,
      });
    const plain = await make('Unguarded');
    const guarded = await make('Guarded');
    const config = await api(service.base, token, 'POST', '/v1/dome-configs', { agent_id: guarded.id });
    await api(service.base, token, 'POST', `/v1/dome-configs/${config.id}/apply`);

    const short = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: 'What are your opening hours?' }] });
    const sentence = 'Could you tell me when the shop on the corner opens, and whether it sells fresh bread on Sundays? ';
    const long = JSON.stringify({ model: 'bench', messages: [{ role: 'user', content: sentence.repeat(Math.ceil(2048 / sentence.length)).slice(0, 2048) }] });
    const auth = { authorization: `Bearer ${token}` };
    const direct = `${agent.url}/chat/completions`;
    const gateway = (id) => `${service.base}/v1/gateway/${id}/chat/completions`;

    log('warm-up');
    await openLoop(floor.url, {}, short, Math.min(RATE, 200), 2);
    await openLoop(gateway(plain.id), auth, short, Math.min(RATE, 200), 2);
    if (GUARDED_RATE > 0) await openLoop(gateway(guarded.id), auth, long, Math.min(GUARDED_RATE, 100), 2);

    log(`guards off: direct, through the floor proxy, then through the gateway, ${RATE} req/s for ${SECONDS} s each`);
    const d1 = await warmedLoop(direct, {}, short, RATE, SECONDS);
    const f1 = await measured({ pid: floor.pid }, floor.url, {}, short, RATE);
    const g1 = await measured(service, gateway(plain.id), auth, short, RATE);
    results.scenarios.guardsOff = { direct: d1, floor: f1, floorOverheadMs: overhead(f1, d1), gateway: g1, overheadMs: overhead(g1, d1) };

    if (GUARDED_RATE > 0) {
      log(`default configuration, 2 KB prompts: direct, then through the gateway, ${GUARDED_RATE} req/s for ${SECONDS} s each`);
      const d2 = await warmedLoop(direct, {}, long, GUARDED_RATE, SECONDS);
      const g2 = await measured(service, gateway(guarded.id), auth, long, GUARDED_RATE);
      results.scenarios.defaultConfig2kb = { direct: d2, gateway: g2, overheadMs: overhead(g2, d2) };
    }
    results.agentRequests = agent.stats.requests;
  } finally {
    keepAlive.destroy();
    await floor?.stop();
    await agent.close();
    await service.stop();
  }

  const table = Object.entries(results.scenarios).map(([name, s]) => ({
    scenario: name,
    'direct p50 ms': round(s.direct.p50),
    'gateway p50 ms': round(s.gateway.p50),
    'overhead p50 ms': s.overheadMs.p50,
    'overhead p99 ms': s.overheadMs.p99,
    'gateway req/s': Math.round(s.gateway.achievedRate),
    'service CPU µs/call': s.gateway.serviceCpuMicrosPerCall,
    'main user+sys · other': formatThreadSplit(s.gateway.serviceThreadsMicrosPerCall),
    'floor overhead p50 / p99 ms': s.floorOverheadMs ? `${s.floorOverheadMs.p50} / ${s.floorOverheadMs.p99}` : '',
    'floor CPU µs/call': s.floor ? `${s.floor.serviceCpuMicrosPerCall} (${formatThreadSplit(s.floor.serviceThreadsMicrosPerCall)})` : '',
    failed: s.gateway.failed + (s.floor?.failed ?? 0),
  }));
  console.table(table);
  if (firstFailure !== null) console.log(`first failure: ${firstFailure}`);
  console.log('targets (issue 29): guards off overhead p50 ≤ 1 ms and p99 ≤ 5 ms at 1,000 req/s; default configuration on 2 KB prompts p50 ≤ 2 ms');
  console.log('floor: a bare node:http + undici proxy in its own process (bench/tools/floor-proxy.mjs), same agent, same loop, same run');
  const out = path.join(ROOT, 'bench', 'results');
  fs.mkdirSync(out, { recursive: true });
  const json = JSON.stringify(results, null, 2);
  fs.writeFileSync(path.join(out, `gateway-${results.at.replace(/[:.]/g, '-')}.json`), json);
  fs.writeFileSync(path.join(out, 'gateway-latest.json'), json);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
