// `npm run bench`: seeds the benchmark dataset, starts the built service on SQLite, drives
// load from a second process (wrk) over loopback, and prints and saves a table of req/s,
// latency and the service's peak RSS, each scenario beside a bare node:http "ceiling" that
// answers the same bytes. A script, not a test: nothing here asserts a timing.
//
// Environment (all optional):
//   BENCH_DURATION   seconds measured per scenario (default 10)
//   BENCH_WARMUP     seconds of warm-up before each (default 3)
//   BENCH_CONNECTIONS concurrent connections (default 10; the `*-32c` write scenarios use 32)
//   BENCH_NEAR_CEILING seconds of the short ceiling run before each scenario (default 3)
//   BENCH_ONLY       comma-separated scenario names to run (the ceiling always runs)
//   BENCH_RESEED=1   seed again even when a seeded file for this schema exists
//   BENCH_LABEL      a word saved with the results (e.g. "before-cache")
//   BENCH_MAIN       another build of the service to measure (default dist/main.js), for before/after runs
//   BENCH_NODE_ARGS  node flags for the service (default: those of `npm start`, read from
//                    package.json; e.g. "--cpu-prof --cpu-prof-dir=bench/.data/prof")
//   BENCH_PIN        "1" (default with taskset and 2+ cores): the service and the ceiling on
//                    core 0, wrk on core 1; "0": unpinned (the runs before 2026-11-27)
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import SqliteDatabase from 'better-sqlite3';
import { DATASET, SEED_VERSION, seed } from './seed.mjs';
import { cpuMicrosOf, formatThreadSplit, freePort, threadCpuOf, threadCpuPerRequest } from './tools/service.mjs';

const BENCH = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.resolve(BENCH, '..');
const DATA = path.join(BENCH, '.data');
const RESULTS = path.join(BENCH, 'results');
const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Connections of the write-capacity scenarios (`*-32c`). */
const WRITE_CAPACITY_CONNECTIONS = 32;
/** Seconds of the short ceiling run before each scenario. */
const NEAR_CEILING_SECONDS = Number(process.env.BENCH_NEAR_CEILING ?? 3);
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
/**
 * The service runs as `npm start` runs it, with the node flags of package.json's `start`
 * script, so that its peak RSS is the deployed one's (until 2026-11-24 the bench capped the
 * heap at 160 MB, which `npm start` did not; bench/README.md, "Memory").
 */
function startFlags() {
  const start = String(JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')).scripts?.start ?? '');
  const match = /^(?:exec\s+)?node((?:\s+--\S+)*)\s+dist\/main\.js$/.exec(start.trim());
  if (!match) throw new Error(`cannot read the node flags of "npm start" ("${start}"): set BENCH_NODE_ARGS`);
  return (match[1] ?? '').trim();
}
const NODE_ARGS = process.env.BENCH_NODE_ARGS ?? startFlags();
/**
 * The service (and the ceiling, measured the same way) on core 0, the load generator on core 1:
 * the service's whole process, its threads included, has one core, and wrk never takes it from
 * it. Without pinning the two share both cores and the numbers move with the scheduler.
 */
const PIN = process.env.BENCH_PIN !== '0' && os.cpus().length >= 2 && spawnSync('taskset', ['-V']).error === undefined;
const pinned = (core, command, args) => (PIN ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]);
const ADMIN = { email: 'bench@warden.local', password: 'bench-password' };
const started = Date.now();
const log = (message) => console.log(`[${((Date.now() - started) / 1000).toFixed(0).padStart(3)} s] ${message}`);

// ---------------------------------------------------------------- prerequisites

function ensureWrk() {
  if (spawnSync('wrk', ['--version']).error === undefined) return;
  if (process.getuid?.() === 0 && spawnSync('apt-get', ['--version']).error === undefined) {
    log('wrk is missing: installing it with apt-get (Debian package "wrk")');
    execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
    execFileSync('apt-get', ['install', '-y', '-qq', 'wrk'], { stdio: 'inherit' });
    return;
  }
  console.error('bench: wrk is needed (Debian/Ubuntu: sudo apt-get install wrk; macOS: brew install wrk)');
  process.exit(2);
}

if (!fs.existsSync(path.join(ROOT, 'dist/main.js'))) {
  console.error('bench: dist/main.js is missing: run "npm run build" (npm run bench does)');
  process.exit(2);
}

// ---------------------------------------------------------------- the dataset

/** The seeded file is reused while the schema and the seed script are unchanged (seeding takes ~25 s). */
function seedKey() {
  const hash = createHash('sha256').update(SEED_VERSION).update(fs.readFileSync(path.join(BENCH, 'seed.mjs')));
  const migrations = path.join(ROOT, 'dist/db/migrations');
  for (const file of fs.readdirSync(migrations).filter((f) => f.endsWith('.js')).sort()) hash.update(fs.readFileSync(path.join(migrations, file)));
  return hash.digest('hex').slice(0, 12);
}

async function prepareDatabase() {
  fs.mkdirSync(DATA, { recursive: true });
  const seeded = path.join(DATA, `seed-${seedKey()}.db`);
  const idsFile = `${seeded}.agents.txt`;
  if (process.env.BENCH_RESEED === '1' || !fs.existsSync(seeded) || !fs.existsSync(idsFile)) {
    for (const old of fs.readdirSync(DATA).filter((f) => f.startsWith('seed-'))) fs.rmSync(path.join(DATA, old), { force: true });
    log(
      `seeding ${DATASET.rules.toLocaleString('en')} rules and ${DATASET.agents.toLocaleString('en')} agents across ${DATASET.teams} teams into ${path.relative(ROOT, seeded)}`,
    );
    const { hashPassword } = await import(path.join(ROOT, 'dist/crypto/passwords.js'));
    const tmp = `${seeded}.tmp`;
    const result = await seed(tmp, { adminEmail: ADMIN.email, adminPasswordHash: await hashPassword(ADMIN.password, 14), log });
    fs.writeFileSync(idsFile, result.agentIds.join('\n') + '\n');
    fs.renameSync(tmp, seeded);
    log(`seeded in ${result.seconds.toFixed(1)} s`);
  } else {
    log(`reusing the seeded dataset ${path.relative(ROOT, seeded)} (BENCH_RESEED=1 to seed again)`);
  }
  // Every run starts from the same seeded state: the write scenarios change the copy only.
  const file = path.join(DATA, 'run.db');
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
  fs.copyFileSync(seeded, file);
  return { file, idsFile };
}

// ---------------------------------------------------------------- processes

/** Peak resident memory of a process: sampled VmRSS while a scenario runs, and VmHWM. */
function memoryOf(pid) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
  } catch {
    return { rss: NaN, hwm: NaN };
  }
}

async function startService(dbFile) {
  const port = await freePort();
  const env = {
    PATH: process.env.PATH ?? '',
    HOST: '127.0.0.1',
    PORT: String(port),
    WARDEN_DATABASE_URL: `sqlite://${dbFile}`,
    WARDEN_DATA_DIR: path.join(DATA, 'service'),
    WARDEN_SECRET_KEY: 'b'.repeat(64),
    // Production's logging level would log every request; the bench measures the service, not pino.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    // One credential drives the whole load: a limit far above it keeps the limiter's cost in
    // the measurement without ever answering 429.
    WARDEN_RATE_LIMIT_PER_MINUTE: '10000000',
    ...(process.env.BENCH_SERVICE_ENV ? JSON.parse(process.env.BENCH_SERVICE_ENV) : {}),
  };
  const nodeArgs = NODE_ARGS.split(' ').filter((a) => a.length > 0);
  const main = process.env.BENCH_MAIN ? path.resolve(process.env.BENCH_MAIN) : path.join(ROOT, 'dist/main.js');
  const child = spawn(...pinned(0, process.execPath, [...nodeArgs, main]), { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output = [];
  for (const stream of [child.stdout, child.stderr]) createInterface({ input: stream }).on('line', (line) => output.length < 200 && output.push(line));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the service exited with ${child.exitCode}:\n${output.join('\n')}`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`the service did not start:\n${output.join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, child, output, stop: () => stopProcess(child) };
}

function stopProcess(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

async function startCeiling(bodyFile, contentType, headersFile) {
  const child = spawn(...pinned(0, process.execPath, [path.join(BENCH, 'ceiling.mjs'), bodyFile, contentType, headersFile]), {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const port = await new Promise((resolve, reject) => {
    createInterface({ input: child.stdout }).on('line', (line) => {
      const match = /^CEILING_PORT (\d+)$/.exec(line);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the ceiling server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, child, stop: () => stopProcess(child) };
}

// ---------------------------------------------------------------- load

function runWrk(url, seconds, env, connections = CONNECTIONS) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      ...pinned(1, 'wrk', ['-t1', `-c${connections}`, `-d${seconds}s`, '--timeout', '10s', '-s', path.join(BENCH, 'wrk/scenario.lua'), url]),
      { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      const line = out.split('\n').find((l) => l.startsWith('BENCH_RESULT '));
      if (code !== 0 || line === undefined) return reject(new Error(`wrk failed (${code}):\n${out}`));
      resolve(JSON.parse(line.slice('BENCH_RESULT '.length)));
    });
  });
}

async function measure(target, scenario, env, { warmup = WARMUP, duration = DURATION, connections = scenario.connections ?? CONNECTIONS } = {}) {
  const wrkEnv = {
    BENCH_KIND: scenario.kind,
    BENCH_PATH: scenario.path,
    BENCH_OFFSET: String(scenario.offset ?? 0),
    BENCH_OFFSET_SPAN: String(scenario.span ?? 1),
    ...env,
  };
  // The measured run starts its counter far from the warm-up's: for the "offset" kind, pages the
  // warm-up asked for are not asked again (a second ask stores an answer).
  // A scenario with a flood measures its requests while a second wrk writes as fast as the
  // service acknowledges (from the start of the warm-up to past the end of the measured run).
  const flood = scenario.flood
    ? runWrk(
        target.url,
        warmup + duration + 1,
        { ...wrkEnv, BENCH_KIND: scenario.flood.kind, BENCH_PATH: scenario.flood.path, BENCH_COUNTER_START: '500000' },
        scenario.flood.connections ?? CONNECTIONS,
      )
    : undefined;
  if (warmup > 0) await runWrk(target.url, warmup, { ...wrkEnv, BENCH_COUNTER_START: '0' }, connections);
  let peakRss = 0;
  const pid = target.child.pid;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, memoryOf(pid).rss || 0)), 100);
  const cpuBefore = cpuMicrosOf(pid);
  const threadsBefore = threadCpuOf(pid);
  const result = await runWrk(target.url, duration, { ...wrkEnv, BENCH_COUNTER_START: String(MEASURED_COUNTER_START) }, connections);
  const cpuMicros = cpuMicrosOf(pid) - cpuBefore;
  const threads = threadCpuPerRequest(threadsBefore, threadCpuOf(pid), result.requests);
  clearInterval(sampler);
  peakRss = Math.max(peakRss, memoryOf(pid).rss || 0);
  const seconds = result.duration_us / 1e6;
  const failedOf = (r) => r.errors.status + r.errors.timeout + r.errors.read + r.errors.connect + r.errors.write;
  const failed = failedOf(result);
  let floodRow;
  if (flood) {
    const f = await flood;
    const floodFailed = failedOf(f);
    const rps = (f.requests - floodFailed) / (f.duration_us / 1e6);
    floodRow = { path: scenario.flood.path, requests: f.requests, failed: floodFailed, rps, p99_ms: f.latency_us.p99 / 1000 };
  }
  return {
    name: scenario.name,
    description: scenario.description,
    method: scenario.kind === 'get' || scenario.kind === 'offset' ? 'GET' : 'PUT',
    path: scenario.path,
    connections,
    seconds,
    requests: result.requests,
    failed,
    errors: result.errors,
    rps: (result.requests - failed) / seconds,
    p50_ms: result.latency_us.p50 / 1000,
    p90_ms: result.latency_us.p90 / 1000,
    p99_ms: result.latency_us.p99 / 1000,
    max_ms: result.latency_us.max / 1000,
    mean_ms: result.latency_us.mean / 1000,
    bytes_per_response: result.requests > 0 ? Math.round(result.bytes / result.requests) : 0,
    peak_rss_mb: peakRss / 2 ** 20,
    cpu_us_per_request: result.requests > 0 ? cpuMicros / result.requests : NaN,
    // Of which: the event loop's thread (user and system time) and the process's other threads.
    cpu_threads_us_per_request: threads,
    ...(floodRow ? { flood: floodRow } : {}),
  };
}

/**
 * The disk's fsync time where the bench's files live: 4 KiB appended and `fdatasync`ed, 200
 * times (what one durable commit waits for at least).
 */
function fsyncTime(dir) {
  const file = path.join(dir, 'fsync-probe');
  const fd = fs.openSync(file, 'w');
  const block = Buffer.alloc(4096, 1);
  const times = [];
  try {
    for (let i = 0; i < 200; i++) {
      fs.writeSync(fd, block);
      const t0 = process.hrtime.bigint();
      fs.fdatasyncSync(fd);
      times.push(Number(process.hrtime.bigint() - t0) / 1e6);
    }
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
  times.sort((a, b) => a - b);
  const at = (q) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
  return { samples: times.length, p50_ms: at(0.5), p90_ms: at(0.9), p99_ms: at(0.99), max_ms: times[times.length - 1] };
}

// ---------------------------------------------------------------- the run

/**
 * New deep pages: `offset + (n × 7919 mod DEEP_SPAN)` (bench/wrk/scenario.lua), n counting from 0
 * in the warm-up and from MEASURED_COUNTER_START in the measured run. No page is asked twice
 * while the warm-up asks fewer than 10,000 and the measured run fewer than 49,900 (a new deep
 * page costs about a millisecond: some 3,000 and 10,000 at the default durations).
 */
const DEEP_SPAN = 59_900;
const MEASURED_COUNTER_START = 10_000;

const SCENARIOS = [
  // Where the gap to the ceiling comes from: the framework alone (no credential, tiny answer),
  // then the framework and authentication (a tiny answer behind the same bearer token).
  { name: 'floor-healthz', kind: 'get', path: '/healthz', description: 'GET /healthz (Fastify + plugins, no auth)' },
  { name: 'floor-auth', kind: 'get', path: '/v1/users/me', description: 'GET /v1/users/me (plus authentication)' },
  { name: 'rules-first-page', kind: 'get', path: '/v1/rules/?limit=100', description: 'GET /v1/rules/?limit=100' },
  { name: 'rules-status', kind: 'get', path: '/v1/rules/?limit=100&status=approved', description: 'GET /v1/rules/ status=approved' },
  { name: 'rules-category', kind: 'get', path: '/v1/rules/?limit=100&category=privacy', description: 'GET /v1/rules/ category=privacy' },
  {
    name: 'rules-status-category',
    kind: 'get',
    path: '/v1/rules/?limit=100&status=approved&category=privacy',
    description: 'GET /v1/rules/ status+category',
  },
  { name: 'rules-deep-offset', kind: 'get', path: '/v1/rules/?limit=100&offset=900000', description: 'GET /v1/rules/ offset=900000' },
  {
    // A page no one asked for before on every request, anywhere from offset 850,000 to 909,899
    // (each a full page of the 910,000 rules the caller sees): 59,900 pages, more than a run asks.
    name: 'rules-deep-offset-uncached',
    kind: 'offset',
    path: '/v1/rules/?limit=100',
    offset: 850_000,
    span: DEEP_SPAN,
    description: 'GET /v1/rules/ offset=850000..909899 (a new page each request)',
  },
  {
    // The same, one request at a time: the time of a new deep page itself, not of the queue
    // behind nine others (pages from 790,000 to 849,899: none of them asked before in this run).
    name: 'rules-deep-offset-uncached-1c',
    kind: 'offset',
    path: '/v1/rules/?limit=100',
    offset: 790_000,
    span: DEEP_SPAN,
    connections: 1,
    description: 'GET /v1/rules/ offset=790000..849899, a new page each request, 1 connection',
  },
  {
    name: 'agents-list-scores',
    kind: 'get',
    path: '/v1/agent-configurations/?include_scores=true',
    description: 'GET /v1/agent-configurations/?include_scores=true',
  },
  {
    // The first page again, while a second wrk floods the writer with lifecycle PUTs: reads must
    // not wait for the writes (compare its p99 with rules-first-page's).
    name: 'rules-under-writes',
    kind: 'get',
    path: '/v1/rules/?limit=100',
    flood: { kind: 'lifecycle', path: '/v1/agent-configurations/{id}/lifecycle' },
    description: 'GET /v1/rules/?limit=100 during a flood of lifecycle PUTs (10 more connections)',
  },
  { name: 'agent-lifecycle', kind: 'lifecycle', path: '/v1/agent-configurations/{id}/lifecycle', description: 'PUT …/{id}/lifecycle (many agents)' },
  { name: 'agent-update', kind: 'update', path: '/v1/agent-configurations/{id}', description: 'PUT …/{id} (many agents)' },
  // The same writes with enough clients in flight to fill each group commit: the writer's
  // capacity in durable writes a second. With 10 clients each waiting for its own fsync, the
  // rate is bounded by 10 / (one fsync + ten requests' CPU), whatever the service costs
  // (bench/README.md, "Durable writes: one call per request").
  {
    name: 'agent-lifecycle-32c',
    kind: 'lifecycle',
    path: '/v1/agent-configurations/{id}/lifecycle',
    connections: WRITE_CAPACITY_CONNECTIONS,
    description: `PUT …/{id}/lifecycle (many agents), ${WRITE_CAPACITY_CONNECTIONS} connections`,
  },
  {
    name: 'agent-update-32c',
    kind: 'update',
    path: '/v1/agent-configurations/{id}',
    connections: WRITE_CAPACITY_CONNECTIONS,
    description: `PUT …/{id} (many agents), ${WRITE_CAPACITY_CONNECTIONS} connections`,
  },
];

function formatTable(rows, ceiling) {
  const head = [
    'scenario', 'req/s', 'p50 ms', 'p99 ms', 'vs ceiling', 'vs ceiling just before', 'CPU µs/req', 'main user+sys · other', 'CPU vs ceiling', 'peak RSS MB', 'failed',
  ];
  const body = rows.map((r) => [
    r.name,
    r.rps.toFixed(0),
    r.p50_ms.toFixed(2),
    r.p99_ms.toFixed(2),
    r.name === 'ceiling' ? '100%' : `${((r.rps / ceiling.rps) * 100).toFixed(1)}%`,
    r.ceiling_nearby ? `${((r.rps / r.ceiling_nearby.rps) * 100).toFixed(1)}% of ${r.ceiling_nearby.rps.toFixed(0)}` : '-',
    r.cpu_us_per_request.toFixed(0),
    formatThreadSplit(r.cpu_threads_us_per_request),
    r.name === 'ceiling' ? '100%' : `${((ceiling.cpu_us_per_request / r.cpu_us_per_request) * 100).toFixed(1)}%`,
    r.name.startsWith('ceiling') ? '-' : r.peak_rss_mb.toFixed(0),
    r.flood ? `${r.failed} (+ flood ${r.flood.rps.toFixed(0)}/s, ${r.flood.failed} failed)` : String(r.failed),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...body.map((row) => row[i].length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...body.map(line)].join('\n');
}

async function main() {
  ensureWrk();
  const loadBefore = os.loadavg()[0];
  if (loadBefore > 0.5) log(`warning: the machine is busy (load average ${loadBefore.toFixed(2)}): numbers will be lower and noisier`);
  const { file, idsFile } = await prepareDatabase();
  const fsync = fsyncTime(DATA);
  log(
    `disk: fdatasync of 4 KiB p50 ${fsync.p50_ms.toFixed(2)} ms, p99 ${fsync.p99_ms.toFixed(2)} ms; ${PIN ? 'service and ceiling on core 0, wrk on core 1 (taskset)' : 'not pinned'}`,
  );
  const service = await startService(file);
  let ceilingServer;
  try {
    log(`service started (pid ${service.child.pid}) at ${service.url}`);
    const login = await fetch(`${service.url}/v1/auth/jwt/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    if (!login.ok) throw new Error(`login failed: ${login.status} ${await login.text()}`);
    const token = (await login.json()).access_token;
    const env = { BENCH_TOKEN: token, BENCH_IDS: idsFile };

    // The ceiling answers the service's own rule-list bytes (the agent list if rules are missing).
    let reference = await fetch(`${service.url}/v1/rules/?limit=100`, { headers: { authorization: `Bearer ${token}` } });
    const haveRules = reference.status === 200;
    if (!haveRules) {
      log(`GET /v1/rules/ answered ${reference.status}: the rule scenarios are skipped; the ceiling answers the agent list instead`);
      reference = await fetch(`${service.url}/v1/agent-configurations/?include_scores=true`, { headers: { authorization: `Bearer ${token}` } });
    }
    const referenceBody = Buffer.from(await reference.arrayBuffer());
    const bodyFile = path.join(DATA, 'ceiling-body.json');
    fs.writeFileSync(bodyFile, referenceBody);
    // Its header fields too (security headers, rate-limit headers, ETag, …): the same bytes.
    const referenceHeaders = [...reference.headers.entries()];
    const headersFile = path.join(DATA, 'ceiling-headers.json');
    fs.writeFileSync(headersFile, JSON.stringify(referenceHeaders));
    ceilingServer = await startCeiling(bodyFile, reference.headers.get('content-type') ?? 'application/json', headersFile);

    const rows = [];
    log(
      `ceiling: node:http answering the same ${referenceBody.length.toLocaleString('en')} bytes and ${referenceHeaders.length} header fields (${WARMUP} s warm-up, ${DURATION} s measured)`,
    );
    const ceilingScenario = { name: 'ceiling', kind: 'get', path: '/v1/rules/?limit=100', description: 'node:http, same bytes' };
    rows.push(await measure(ceilingServer, ceilingScenario, env));
    // The ceiling as measured until 2026-11-24 (the body with its Content-Type alone), for reference.
    const bodyOnly = { name: 'ceiling-body-only', kind: 'get', path: '/body-only', description: 'node:http, same body, Content-Type only' };
    log(`${bodyOnly.name}: ${bodyOnly.description}`);
    rows.push(await measure(ceilingServer, bodyOnly, env));

    const db = new SqliteDatabase(file, { readonly: true });
    const eventsBefore = db.prepare('select count(*) as n from agent_lifecycle_events').get().n;
    db.close();
    for (const scenario of SCENARIOS) {
      if (ONLY && !ONLY.has(scenario.name)) continue;
      if (!haveRules && scenario.name.startsWith('rules-')) continue;
      if (ONLY === null && process.env.BENCH_FLOORS === '0' && scenario.name.startsWith('floor-')) continue;
      log(`${scenario.name}: ${scenario.description}`);
      // The machine's speed drifts within minutes: the ceiling is measured again, briefly, right
      // before each scenario (the ceiling process stays up, idle, between its runs).
      const near = await measure(ceilingServer, ceilingScenario, env, { warmup: 0, duration: NEAR_CEILING_SECONDS, connections: scenario.connections });
      const row = {
        ...(await measure(service, scenario, env)),
        ceiling_nearby: { rps: near.rps, cpu_us_per_request: near.cpu_us_per_request, connections: near.connections, seconds: near.seconds },
      };
      rows.push(row);
      // A new-page scenario must ask for full pages: a page past the end of the list is cheap.
      if (scenario.kind === 'offset' && row.bytes_per_response < referenceBody.length / 2)
        log(`  warning: ${row.bytes_per_response} bytes per answer: pages past the end of the list?`);
      log(
        `  ${row.rps.toFixed(0)} req/s, p50 ${row.p50_ms.toFixed(2)} ms, p99 ${row.p99_ms.toFixed(2)} ms, ${row.failed} failed (ceiling just before: ${near.rps.toFixed(0)} req/s)`,
      );
    }
    await ceilingServer.stop();
    ceilingServer = undefined;
    const hwm = memoryOf(service.child.pid).hwm;
    await service.stop();
    // What the service logged (warnings and errors at the default level): why a request failed.
    if (rows.some((r) => r.failed > 0) && service.output.length > 0) console.log(`service output:\n${service.output.slice(0, 40).join('\n')}`);

    // Every acknowledged lifecycle PUT must be on disk: count the history rows they appended
    // (the scenario's, and the flood's under the rule list).
    const lifecycleRows = rows.filter((r) => r.name.startsWith('agent-lifecycle'));
    const floodRows = rows.filter((r) => r.flood?.path.endsWith('/lifecycle'));
    let durability;
    if (lifecycleRows.length > 0 || floodRows.length > 0) {
      const check = new SqliteDatabase(file, { readonly: true });
      const added = check.prepare('select count(*) as n from agent_lifecycle_events').get().n - eventsBefore;
      check.close();
      // wrk counts the warm-up separately: the history also holds the warm-up's writes.
      const acknowledged =
        lifecycleRows.reduce((n, r) => n + r.requests - r.failed, 0) + floodRows.reduce((n, r) => n + r.flood.requests - r.flood.failed, 0);
      durability = { lifecycle_events_written: added, lifecycle_acknowledged_in_measured_window: acknowledged, ok: added >= acknowledged };
    }

    const ceiling = rows[0];
    const table = formatTable(rows, ceiling);
    const result = {
      label: process.env.BENCH_LABEL ?? null,
      date: new Date().toISOString(),
      machine: {
        load_average_at_start: loadBefore,
        load_average_at_end: os.loadavg()[0],
        cpus: os.cpus().length,
        cpu_model: os.cpus()[0]?.model,
        memory_gb: Math.round(os.totalmem() / 2 ** 30),
        node: process.version,
        platform: `${os.platform()} ${os.release()}`,
        fsync,
      },
      settings: {
        service_node_args: NODE_ARGS,
        duration_s: DURATION,
        warmup_s: WARMUP,
        connections: CONNECTIONS,
        wrk_threads: 1,
        pinned: PIN ? { service: 0, ceiling: 0, wrk: 1 } : null,
        dataset: DATASET,
        ceiling_body_bytes: referenceBody.length,
        ceiling_header_fields: referenceHeaders.map(([name]) => name),
        ceiling_answers: haveRules ? 'rule list' : 'agent list',
      },
      service_peak_rss_mb: hwm / 2 ** 20,
      durability,
      results: rows.map((r) => ({
        ...r,
        ratio_to_ceiling: r.rps / ceiling.rps,
        ...(r.ceiling_nearby ? { ratio_to_ceiling_nearby: r.rps / r.ceiling_nearby.rps } : {}),
      })),
      total_seconds: (Date.now() - started) / 1000,
    };
    fs.mkdirSync(RESULTS, { recursive: true });
    const stamp = result.date.replace(/[:.]/g, '-');
    const out = path.join(RESULTS, `${stamp}${result.label ? `-${result.label}` : ''}.json`);
    fs.writeFileSync(out, JSON.stringify(result, null, 2) + '\n');
    fs.writeFileSync(path.join(RESULTS, 'latest.json'), JSON.stringify(result, null, 2) + '\n');
    console.log(`\n${table}\n`);
    console.log(
      `service peak RSS (VmHWM): ${(hwm / 2 ** 20).toFixed(0)} MB (node ${NODE_ARGS || 'without flags'}); ${CONNECTIONS} connections, ${DURATION} s per scenario after ${WARMUP} s of warm-up; load average ${loadBefore.toFixed(2)} at start`,
    );
    if (durability)
      console.log(
        `durability: ${durability.lifecycle_events_written} lifecycle changes on disk for ${durability.lifecycle_acknowledged_in_measured_window} acknowledged in the measured window (plus warm-up): ${durability.ok ? 'ok' : 'MISSING WRITES'}`,
      );
    const bare = rows.find((r) => r.name === 'rules-first-page');
    const flooded = rows.find((r) => r.name === 'rules-under-writes');
    if (bare && flooded)
      console.log(
        `reads under writes: rules first page p99 ${flooded.p99_ms.toFixed(2)} ms during ${flooded.flood.rps.toFixed(0)} lifecycle PUTs/s, ${bare.p99_ms.toFixed(2)} ms without (${(flooded.p99_ms / bare.p99_ms).toFixed(2)}×)`,
      );
    console.log(`disk fsync (4 KiB fdatasync): p50 ${fsync.p50_ms.toFixed(2)} ms, p99 ${fsync.p99_ms.toFixed(2)} ms`);
    console.log(`saved ${path.relative(ROOT, out)} (total ${result.total_seconds.toFixed(0)} s)`);
  } finally {
    if (ceilingServer) await ceilingServer.stop();
    await service.stop();
  }
}

main().catch((error) => {
  console.error('bench failed:', error);
  process.exit(1);
});
