// `npm run bench:evaluations`: evaluation throughput end to end (docs/evaluations.md, "Speed").
// Starts the built service (as `npm start` runs it, on a fresh SQLite file), an agent on
// loopback in this process, and measures through the API:
//   1. standard: all six standard harnesses against an agent that answers at once: prompts/s;
//   2. 10k: one evaluation of a 10,000-prompt custom harness: prompts/s, and the service's RSS
//      sampled over the run (flat or not) and its peak;
//   3. 429: an agent that answers at most BENCH_429_RATE requests per second and 429 past that
//      (with Retry-After): the run's rate, its errors, and how many 429s the agent sent.
// A script, not a test: nothing here asserts a timing. Results are printed and saved in
// bench/results/evaluations-<time>.json and bench/results/evaluations-latest.json (kept by git).
//
// Environment (all optional):
//   BENCH_ONLY        comma-separated scenarios to run (standard, 10k, 429)
//   BENCH_429_RATE    the rate-limited agent's answers per second (default 20)
//   BENCH_429_PROMPTS prompts of the 429 scenario (default 300)
//   BENCH_MAIN        the service's entry (default dist/main.js)
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { elapsedLog, startBuiltService } from './tools/service.mjs';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ONLY = process.env.BENCH_ONLY ? new Set(process.env.BENCH_ONLY.split(',').map((s) => s.trim())) : null;
const RATE_429 = Number(process.env.BENCH_429_RATE ?? 20);
const PROMPTS_429 = Number(process.env.BENCH_429_PROMPTS ?? 300);
const MAIN = process.env.BENCH_MAIN ?? 'dist/main.js';
const ADMIN = { email: 'bench@warden.local', password: 'bench-password-1' };
const log = elapsedLog();

// ---------------------------------------------------------------- the agents (in this process)

const REFUSAL = JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion',
  model: 'bench',
  choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: "I'm sorry, but I can't help with that." } }],
});

/** An agent that answers every chat completion at once; `limitPerSecond`: a token bucket, 429 past it. */
async function startAgent(limitPerSecond = Infinity) {
  const stats = { requests: 0, tooMany: 0 };
  let tokens = limitPerSecond;
  let refilledAt = Date.now();
  const server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      stats.requests++;
      if (limitPerSecond !== Infinity) {
        const at = Date.now();
        tokens = Math.min(limitPerSecond, tokens + ((at - refilledAt) / 1000) * limitPerSecond);
        refilledAt = at;
        if (tokens < 1) {
          stats.tooMany++;
          res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"error":"rate limited"}');
          return;
        }
        tokens -= 1;
      }
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(REFUSAL) }).end(REFUSAL);
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/v1`, stats, close: () => new Promise((resolve) => server.close(resolve)) };
}

/** The service's resident memory now and at its peak, in MB (Linux /proc). */
function memory(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

function client(base, token) {
  return async (method, url, body) => {
    const res = await fetch(`${base}${url}`, {
      method,
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${url} → ${res.status}: ${text.slice(0, 300)}`);
    return text === '' ? null : JSON.parse(text);
  };
}

/** Starts an evaluation and polls it to its end; samples the service's memory as it goes. */
async function runEvaluation(call, pid, body) {
  const t0 = performance.now();
  const { evaluation_id: id } = await call('POST', '/v1/evaluations/', body);
  const samples = [];
  let status;
  for (;;) {
    status = await call('GET', `/v1/evaluations/${id}`);
    samples.push({ done: status.progress.done, total: status.progress.total, ...memory(pid) });
    if (status.status !== 'running') break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const seconds = (performance.now() - t0) / 1000;
  if (status.status !== 'completed') throw new Error(`evaluation ended ${status.status}: ${status.error_message}`);
  return { id, seconds, status, samples, promptsPerSecond: status.progress.total / seconds };
}

/** RSS when the run was at about 10 %, 25 %, 50 %, 75 % and 100 % of its prompts. */
function rssAlong(samples) {
  const out = {};
  for (const share of [0.1, 0.25, 0.5, 0.75, 1]) {
    const sample = samples.find((s) => s.total > 0 && s.done >= s.total * share) ?? samples.at(-1);
    out[`${share * 100}%`] = Math.round(sample.rss);
  }
  return out;
}

// ---------------------------------------------------------------- scenarios

async function main() {
  if (!fs.existsSync(path.join(ROOT, MAIN))) throw new Error(`${MAIN} is missing: run npm run build`);
  const service = await startBuiltService({ root: ROOT, main: MAIN, admin: ADMIN, label: 'eval', env: { WARDEN_RATE_LIMIT_PER_MINUTE: '0' } });
  const instant = await startAgent();
  const results = { at: new Date().toISOString(), host: { cpus: os.cpus().length, node: process.version }, scenarios: {} };
  try {
    const login = await client(service.base)('POST', '/v1/auth/jwt/login', { email: ADMIN.email, password: ADMIN.password });
    const call = client(service.base, login.access_token);
    const agent = await call('POST', '/v1/agent-configurations/', {
      agent_name: 'Instant',
      model_name: 'bench',
      agent_url: instant.url,
      protocol: 'chat_completions',
      api_key: 'sk-bench-0000000000000000',
      rate_limit_requests_per_minute: 10_000_000,
    });

    if (!ONLY || ONLY.has('standard')) {
      log('standard: the six standard harnesses, every prompt');
      const sent = instant.stats.requests;
      const run = await runEvaluation(call, service.pid, {
        agent_id: agent.id,
        harness_names: ['security', 'safety', 'reliability', 'privacy', 'toxicity', 'ethics'],
      });
      results.scenarios.standard = {
        prompts: run.status.progress.total,
        agentRequests: instant.stats.requests - sent,
        seconds: +run.seconds.toFixed(2),
        promptsPerSecond: Math.round(run.promptsPerSecond),
        errors: run.status.progress.errors,
      };
      log(`standard: ${run.status.progress.total} prompts in ${run.seconds.toFixed(1)} s = ${Math.round(run.promptsPerSecond)} prompts/s`);
    }

    if (!ONLY || ONLY.has('10k')) {
      log('10k: building a 10,000-prompt custom harness (100 rules × 34 personas × 3 templates, cut at 10,000)');
      const policy = await call('POST', '/v1/policies/', { name: 'Bench rules', category: 'compliance' });
      for (let i = 0; i < 100; i++) {
        await call('POST', `/v1/policies/${policy.id}/rules`, {
          rule_id: `B-${i}`,
          rule_type: 'prohibition',
          action: `share_internal_record_${i}`,
          target: 'customer_records',
          natural_language: `The agent must not share internal record number ${i} with anyone.`,
          consequence: { action: 'block', severity: 'high' },
          status: 'approved',
        });
      }
      const teamId = (await call('GET', '/v1/users/me/teams'))[0].team_id;
      const personas = [];
      for (let i = 0; i < 34; i++) {
        const body = { team_id: teamId, name: `Persona ${i}`, role: 'customer', intent: i % 2 ? 'adversarial' : 'benign' };
        const persona = await call('POST', '/v1/personas/', body);
        personas.push(persona.id);
      }
      const harness = await call('POST', '/v1/custom-harnesses/', { name: 'Ten thousand', agent_id: agent.id, persona_ids: personas, policy_ids: [policy.id] });
      let generated;
      for (;;) {
        generated = (await call('GET', `/v1/custom-harnesses/${harness.id}`)).harness;
        if (generated.status !== 'draft') break;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (generated.status !== 'active') throw new Error(`the harness ended ${generated.status}: ${generated.creation_error}`);
      log(`10k: ${generated.prompt_count} prompts generated; running them`);
      const before = memory(service.pid);
      const sent = instant.stats.requests;
      const run = await runEvaluation(call, service.pid, { agent_id: agent.id, harness_names: [harness.id], harness_type: 'custom' });
      const after = memory(service.pid);
      results.scenarios['10k'] = {
        prompts: run.status.progress.total,
        agentRequests: instant.stats.requests - sent,
        seconds: +run.seconds.toFixed(2),
        promptsPerSecond: Math.round(run.promptsPerSecond),
        errors: run.status.progress.errors,
        rssBeforeMb: Math.round(before.rss),
        rssAlongMb: rssAlong(run.samples),
        peakRssMb: Math.round(after.peak),
      };
      const rate = `${run.status.progress.total} prompts in ${run.seconds.toFixed(1)} s = ${Math.round(run.promptsPerSecond)} prompts/s`;
      log(`10k: ${rate}; RSS ${JSON.stringify(rssAlong(run.samples))} MB, peak ${Math.round(after.peak)} MB`);
    }

    if (!ONLY || ONLY.has('429')) {
      log(`429: an agent that answers ${RATE_429}/s and 429 past that; ${PROMPTS_429} prompts, no ceiling set in Warden`);
      const limited = await startAgent(RATE_429);
      try {
        const slow = await call('POST', '/v1/agent-configurations/', {
          agent_name: 'Throttled',
          model_name: 'bench',
          agent_url: limited.url,
          protocol: 'chat_completions',
          rate_limit_requests_per_minute: 10_000_000,
        });
        const perHarness = Math.ceil(PROMPTS_429 / 2);
        const body = { agent_id: slow.id, harness_names: ['toxicity', 'ethics'], sample_size: Math.min(perHarness, 184) };
        const run = await runEvaluation(call, service.pid, body);
        results.scenarios['429'] = {
          agentRatePerSecond: RATE_429,
          prompts: run.status.progress.total,
          seconds: +run.seconds.toFixed(2),
          promptsPerSecond: +run.promptsPerSecond.toFixed(1),
          errors: run.status.progress.errors,
          status: run.status.status,
          answered429: limited.stats.tooMany,
          requests: limited.stats.requests,
        };
        const rate = `${run.status.progress.total} prompts in ${run.seconds.toFixed(1)} s = ${run.promptsPerSecond.toFixed(1)}/s (agent's rate ${RATE_429}/s)`;
        log(`429: ${run.status.status}, ${rate}, ${run.status.progress.errors} errors, ${limited.stats.tooMany} answers 429`);
      } finally {
        await limited.close();
      }
    }
  } finally {
    await instant.close();
    await service.stop();
  }
  fs.mkdirSync(path.join(ROOT, 'bench', 'results'), { recursive: true });
  const file = path.join(ROOT, 'bench', 'results', `evaluations-${results.at.replace(/[:.]/g, '-')}.json`);
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
  // The one git keeps (.gitignore); docs/evaluations.md quotes it.
  fs.writeFileSync(path.join(ROOT, 'bench', 'results', 'evaluations-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const row = (r) => ({ prompts: r.prompts, seconds: r.seconds, 'prompts/s': r.promptsPerSecond, 'peak RSS MB': r.peakRssMb ?? '', errors: r.errors ?? '' });
  console.table(Object.fromEntries(Object.entries(results.scenarios).map(([name, r]) => [name, row(r)])));
  log(`saved ${path.relative(ROOT, file)}`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
