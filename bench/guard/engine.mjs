// The guard engine's bench (npm run bench:guard-engine): precision and recall of the privacy, secrets and
// moderation methods on bench/guard/labelled-privacy.jsonl, the latency of each heuristic method on a 2 KB
// text, and of a full scan with DEFAULT_DOME_CONFIG. Reads the build output (npm run build). Measures and
// prints; asserts nothing. Targets: PII and secret recall >= 98 %, a heuristic method <= 1 ms p50 on 2 KB,
// a full default scan <= 2 ms p50.
import { existsSync, readFileSync } from 'node:fs';
import { listMethods, getMethod } from '../../dist/guard/catalogue.js';
import { compileDomeConfig, DEFAULT_DOME_CONFIG } from '../../dist/guard/engine.js';

const items = readFileSync(new URL('./labelled-privacy.jsonl', import.meta.url), 'utf8')
  .split('\n')
  .filter((line) => line.trim() !== '')
  .map((line) => JSON.parse(line));

const pct = (n, d) => (d === 0 ? '  n/a' : `${((100 * n) / d).toFixed(1).padStart(5)}%`);

console.log(`\n== accuracy on ${items.length} labelled items (default parameters)\n`);
const byMethod = new Map();
for (const item of items) {
  const method = getMethod(item.method);
  const result = await method.definition.detect(item.text, method.parseParams({}), {});
  const stats = byMethod.get(item.method) ?? { tp: 0, fp: 0, fn: 0, tn: 0, kinds: new Map(), misses: [], falseAlarms: [] };
  byMethod.set(item.method, stats);
  if (item.label) {
    const kind = stats.kinds.get(item.kind) ?? { n: 0, found: 0 };
    stats.kinds.set(item.kind, kind);
    kind.n++;
    if (result.hit) {
      stats.tp++;
      kind.found++;
    } else {
      stats.fn++;
      stats.misses.push(item.id);
    }
  } else if (result.hit) {
    stats.fp++;
    stats.falseAlarms.push(`${item.id} (${item.note ?? ''})`);
  } else stats.tn++;
}
console.log('method                  n    precision  recall   tp  fp  fn  tn');
for (const [method, s] of byMethod) {
  console.log(
    `${method.padEnd(22)} ${String(s.tp + s.fp + s.fn + s.tn).padStart(3)}   ${pct(s.tp, s.tp + s.fp)}    ${pct(s.tp, s.tp + s.fn)}  ` +
      `${String(s.tp).padStart(3)} ${String(s.fp).padStart(3)} ${String(s.fn).padStart(3)} ${String(s.tn).padStart(3)}`,
  );
}
for (const [method, s] of byMethod) {
  console.log(`\n${method}: recall per kind`);
  for (const [kind, k] of [...s.kinds].sort()) console.log(`  ${kind.padEnd(26)} ${k.found}/${k.n}`);
  if (s.misses.length) console.log(`  missed: ${s.misses.join(', ')}`);
  if (s.falseAlarms.length) console.log(`  false alarms: ${s.falseAlarms.join(', ')}`);
}

// ------------------------------------------------------------------ public evaluation data, when present
// ../shared/eval beside the repository (WARDEN_EVAL_DIR overrides): measured here, never copied into the repository.
const evalDir = process.env.WARDEN_EVAL_DIR ?? new URL('../../../shared/eval/', import.meta.url).pathname;
const evalFile = `${evalDir.replace(/\/$/, '')}/prompt-attacks.jsonl`;
if (existsSync(evalFile)) {
  const rows = readFileSync(evalFile, 'utf8').split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l));
  const sets = [...new Set(rows.map((r) => r.set))];
  console.log(`\n== share flagged on the public prompt sets (${evalFile})\n`);
  console.log(`method                  ${sets.map((set) => set.padStart(24)).join('')}`);
  for (const id of ['privacy-presidio', 'detect-secrets', 'moderation-flashtext']) {
    const method = getMethod(id);
    const params = method.parseParams({});
    const cells = sets.map((set) => {
      const inSet = rows.filter((r) => r.set === set);
      const flagged = inSet.filter((r) => method.definition.detect(r.text, params, {}).hit).length;
      return `${flagged}/${inSet.length} ${pct(flagged, inSet.length)}`.padStart(24);
    });
    console.log(`${id.padEnd(22)}  ${cells.join('')}`);
  }
  const defaults = compileDomeConfig(DEFAULT_DOME_CONFIG, { llmAvailable: false });
  const cells = [];
  for (const set of sets) {
    const inSet = rows.filter((r) => r.set === set);
    let flagged = 0;
    for (const r of inSet) if ((await defaults.scan('input', r.text, {})).flagged) flagged++;
    cells.push(`${flagged}/${inSet.length} ${pct(flagged, inSet.length)}`.padStart(24));
  }
  console.log(`${'default config, input'.padEnd(22)}  ${cells.join('')}`);
} else {
  console.log(`\n(public evaluation data not found at ${evalFile}: that part skipped)`);
}

// ------------------------------------------------------------------ latency
const PARAGRAPH =
  'Thanks for reaching out about the quarterly planning workshop. The agenda covers the migration of the billing service, ' +
  'the on-call rotation for December, and the budget for the new analytics cluster (version 2.4.1 of the client is required). ' +
  'Please bring the notes from the last retrospective; Maria will share the slides from the shared drive before Tuesday. ' +
  'If you have questions, write to planning@example.com or call the office at (415) 555-0132 during business hours. ';
let text2k = '';
while (text2k.length < 2048) text2k += PARAGRAPH;
text2k = text2k.slice(0, 2048);

/**
 * Wall-clock p50/p99, and the p99 of the CPU time the process spent in the same iterations: on a
 * machine shared with other jobs, a wall p99 far above the CPU p99 is the process waiting for a core.
 */
function summarise(wall, cpu) {
  wall.sort();
  cpu.sort();
  const at = (a, q) => a[Math.floor(a.length * q)];
  return { p50: at(wall, 0.5), p99: at(wall, 0.99), cpu99: at(cpu, 0.99) };
}
function measure(run, iterations = 3000) {
  for (let i = 0; i < 300; i++) run();
  const wall = new Float64Array(iterations);
  const cpu = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    run();
    wall[i] = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpuStart);
    cpu[i] = (used.user + used.system) / 1000;
  }
  return summarise(wall, cpu);
}
async function measureAsync(run, iterations = 3000) {
  for (let i = 0; i < 300; i++) await run();
  const wall = new Float64Array(iterations);
  const cpu = new Float64Array(iterations);
  for (let i = 0; i < iterations; i++) {
    const cpuStart = process.cpuUsage();
    const start = process.hrtime.bigint();
    await run();
    wall[i] = Number(process.hrtime.bigint() - start) / 1e6;
    const used = process.cpuUsage(cpuStart);
    cpu[i] = (used.user + used.system) / 1000;
  }
  return summarise(wall, cpu);
}
const ms = (value) => `${value.toFixed(3).padStart(7)} ms`;

console.log(`\n== latency on a 2 KB text (${text2k.length} characters), ${process.version}\n`);
console.log(`load average ${(await import('node:os')).loadavg()[0].toFixed(1)} on ${(await import('node:os')).cpus().length} cores`);
console.log('method                      p50         p99     cpu p99    target p50 <= 1 ms');
for (const listing of listMethods()) {
  if (listing.aliasOf !== null || listing.needsLlm) continue;
  const method = getMethod(listing.id);
  let params;
  try {
    params = method.parseParams({});
  } catch {
    params = method.parseParams({ keywords: ['nightjar', 'acme corp', 'project falcon'] });
  }
  const { p50, p99, cpu99 } = measure(() => method.definition.detect(text2k, params, {}));
  console.log(`${listing.id.padEnd(24)} ${ms(p50)} ${ms(p99)} ${ms(cpu99)}   ${p50 <= 1 ? 'ok' : 'OVER'}`);
}

const config = compileDomeConfig(DEFAULT_DOME_CONFIG, { llmAvailable: false });
console.log('\nfull scan, DEFAULT_DOME_CONFIG  p50         p99     cpu p99    target p50 <= 2 ms');
for (const direction of ['input', 'output']) {
  const { p50, p99, cpu99 } = await measureAsync(() => config.scan(direction, text2k, {}));
  console.log(`${direction.padEnd(28)} ${ms(p50)} ${ms(p99)} ${ms(cpu99)}   ${p50 <= 2 ? 'ok' : 'OVER'}`);
}
console.log('\n(prompt-injection-warden and encoding-heuristics are measured as built on this branch: the guard-security');
console.log(' branch replaces them at merge, so the input scan numbers change then.)');
