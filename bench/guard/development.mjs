// Quality of the default guard configuration on the development sets (datasets/guard/dev/*.jsonl,
// built by scripts/build-guard-sets.mjs from public data and real documents; datasets/README.md), beside
// two offline npm peers run on the same items: @andersmyrmel/vard (moderate preset) and llm_guardrail
// (checkInjection). Prints per set the share flagged of attacks (recall) and of benign items (false
// positives) and the balanced accuracy; the pooled figures; the reliability table of the
// prompt-injection-warden score; the threshold curve; and the time of a default scan of a 2 KB prompt.
//
//   npm run bench:guard            (builds, then runs this file, security.mjs and engine.mjs)
//
// Measures and prints; asserts nothing. The development sets were never used to train the classifier.
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const { compileDomeConfig, DEFAULT_DOME_CONFIG } = await import(path.join(repoRoot, 'dist/guard/engine.js'));
const { promptInjectionWarden } = await import(path.join(repoRoot, 'dist/guard/detectors/prompt-injection.js'));
const { reliabilityTable, expectedCalibrationError } = await import(path.join(repoRoot, 'dist/guard/detectors/injection-calibration.js'));

const readJsonl = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const devDir = path.join(repoRoot, 'datasets', 'guard', 'dev');
const sets = readdirSync(devDir).filter((f) => f.endsWith('.jsonl')).sort()
  .map((f) => ({ name: f.replace(/\.jsonl$/, ''), rows: readJsonl(path.join(devDir, f)) }));
sets.push({ name: 'warden-held-out', rows: readJsonl(path.join(repoRoot, 'bench', 'guard', 'labelled-security.jsonl')) });

// Peers: optional dev dependencies; a missing one is reported, not fatal.
const peers = [];
try {
  const vard = (await import('@andersmyrmel/vard')).default;
  const v = vard.moderate();
  peers.push({ name: 'vard', flag: async (t) => !v.safeParse(t).safe });
} catch (e) {
  console.log(`@andersmyrmel/vard not installed (${e.code ?? e.message}); its column is empty`);
}
try {
  const { checkInjection } = await import('llm_guardrail');
  peers.push({ name: 'llm_guardrail', flag: async (t) => (await checkInjection(t)).detected });
} catch (e) {
  console.log(`llm_guardrail not installed (${e.code ?? e.message}); its column is empty`);
}

const config = compileDomeConfig(DEFAULT_DOME_CONFIG, { llmAvailable: false });
const params = promptInjectionWarden.parseParams({});
const pct = (x) => (Number.isNaN(x) ? '   -  ' : `${(100 * x).toFixed(1).padStart(5)}%`);

/** Per system: flags per row; for Warden also the detector's score (for the curves). */
const results = { warden: [], ...Object.fromEntries(peers.map((p) => [p.name, []])) };
const scores = [];
const labels = [];
const encodingFlag = [];
for (const set of sets) {
  for (const row of set.rows) {
    const scan = await config.scan('input', row.text, {});
    results.warden.push(scan.flagged);
    const det = promptInjectionWarden.detect(row.text, params, {});
    scores.push(det.score);
    labels.push(row.label === 'attack' ? 1 : 0);
    encodingFlag.push(scan.flagged && !det.hit);
    for (const p of peers) {
      let flagged;
      try { flagged = await p.flag(row.text); } catch { flagged = true; }
      results[p.name].push(flagged);
    }
  }
}

function figures(flags, rows) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  rows.forEach((row, i) => {
    const hit = flags[i];
    if (row.label === 'attack') { if (hit) tp += 1; else fn += 1; } else if (hit) fp += 1; else tn += 1;
  });
  const recall = tp + fn ? tp / (tp + fn) : NaN;
  const fpr = fp + tn ? fp / (fp + tn) : NaN;
  const ba = Number.isNaN(recall) || Number.isNaN(fpr) ? NaN : (recall + 1 - fpr) / 2;
  return { items: rows.length, attacks: tp + fn, recall, false_positive_rate: fpr, balanced_accuracy: ba };
}

const systems = Object.keys(results);
const report = { date: new Date().toISOString(), sets: {}, pooled: {} };
console.log(`\n== Development sets: share of attacks flagged (recall), of benign items flagged (FP), balanced accuracy (BA)\n`);
console.log(`${'set'.padEnd(24)}${'items'.padStart(6)}${'att.'.padStart(6)}   ` + systems.map((s) => `${s.padEnd(13)}recall     FP      BA   `).join(''));
let offset = 0;
for (const set of sets) {
  const line = [];
  report.sets[set.name] = {};
  for (const s of systems) {
    const f = figures(results[s].slice(offset, offset + set.rows.length), set.rows);
    report.sets[set.name][s] = f;
    line.push(`${''.padEnd(13)}${pct(f.recall)} ${pct(f.false_positive_rate)} ${pct(f.balanced_accuracy)}  `);
  }
  const f0 = report.sets[set.name].warden;
  console.log(`${set.name.padEnd(24)}${String(f0.items).padStart(6)}${String(f0.attacks).padStart(6)}   ${line.join('')}`);
  offset += set.rows.length;
}
const allRows = sets.flatMap((s) => s.rows);
const pooledLine = [];
for (const s of systems) {
  const f = figures(results[s], allRows);
  report.pooled[s] = f;
  pooledLine.push(`${''.padEnd(13)}${pct(f.recall)} ${pct(f.false_positive_rate)} ${pct(f.balanced_accuracy)}  `);
}
console.log(`${'pooled'.padEnd(24)}${String(allRows.length).padStart(6)}${String(report.pooled.warden.attacks).padStart(6)}   ${pooledLine.join('')}`);
// Balanced accuracy with every set weighing the same (attack sets' recall and benign sets' FP averaged).
for (const s of systems) {
  const rec = [], tnr = [];
  for (const set of sets) {
    const f = report.sets[set.name][s];
    if (!Number.isNaN(f.recall)) rec.push(f.recall);
    if (!Number.isNaN(f.false_positive_rate)) tnr.push(1 - f.false_positive_rate);
  }
  const mean = (a) => a.reduce((x, y) => x + y, 0) / a.length;
  report.pooled[s].balanced_accuracy_per_set = (mean(rec) + mean(tnr)) / 2;
}
const perSet = systems.map((s) => `${''.padEnd(27)}${pct(report.pooled[s].balanced_accuracy_per_set)}  `);
console.log(`${'per-set mean BA'.padEnd(36)}   ${perSet.join('')}`);

// Reliability of the prompt-injection-warden score (the detection_score of the method) on all sets.
const table = reliabilityTable(scores, labels, 10);
report.reliability = table;
report.expected_calibration_error = expectedCalibrationError(table);
console.log(`\n== Reliability of the prompt-injection-warden score on the development sets (share of attacks per score bin)\n`);
console.log('score bin     items   mean score   attacks among them');
for (const b of table) {
  if (!b.items) continue;
  console.log(`${b.from.toFixed(1)}–${b.to.toFixed(1)}     ${String(b.items).padStart(6)}   ${b.meanPredicted.toFixed(3).padStart(10)}   ${pct(b.observed)}`);
}
console.log(`expected calibration error: ${report.expected_calibration_error.toFixed(3)}`);

// Threshold curve: the default configuration with prompt-injection-warden's threshold moved.
console.log(`\n== Threshold curve (score_threshold of prompt-injection-warden; encoding-heuristics unchanged)\n`);
console.log('threshold   recall      FP    precision    BA');
report.curve = [];
for (const t of [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9]) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  scores.forEach((sc, i) => {
    const hit = sc >= t || encodingFlag[i];
    if (labels[i]) { if (hit) tp += 1; else fn += 1; } else if (hit) fp += 1; else tn += 1;
  });
  const point = { threshold: t, recall: tp / (tp + fn), false_positive_rate: fp / (fp + tn), precision: tp / Math.max(1, tp + fp) };
  point.balanced_accuracy = (point.recall + 1 - point.false_positive_rate) / 2;
  report.curve.push(point);
  const mark = Math.abs(t - params.score_threshold) < 1e-9 ? '  <- default' : '';
  const cells = [pct(point.recall), pct(point.false_positive_rate), pct(point.precision), pct(point.balanced_accuracy)];
  console.log(`${t.toFixed(2).padStart(9)}   ${cells.join('  ')}${mark}`);
}

// Speed: a full default scan of 2 KB prompts (the development texts cut or repeated to 2,048 characters).
const to2k = (t) => { let s = t; while (s.length < 2048) s += `\n${t}`; return s.slice(0, 2048); };
const texts = allRows.filter((_, i) => i % 3 === 0).map((r) => to2k(r.text));
for (const t of texts.slice(0, 100)) await config.scan('input', t, {});
// Wall-clock time, and the CPU time of the same runs: on a shared machine a wall p99 far above the CPU
// p99 is the process waiting for a core.
const times = [];
const cpu = [];
for (const t of texts) {
  let best = Infinity;
  let bestCpu = Infinity;
  for (let k = 0; k < 3; k += 1) {
    const c0 = process.cpuUsage();
    const start = process.hrtime.bigint();
    await config.scan('input', t, {});
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    const c = process.cpuUsage(c0);
    bestCpu = Math.min(bestCpu, (c.user + c.system) / 1000);
  }
  times.push(best);
  cpu.push(bestCpu);
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
const q = (list, p) => list[Math.floor(p * list.length)];
report.default_scan_2kb = { items: times.length, p50_ms: q(times, 0.5), p99_ms: q(times, 0.99), cpu_p50_ms: q(cpu, 0.5), cpu_p99_ms: q(cpu, 0.99) };
const { p50_ms: p50, p99_ms: p99, cpu_p50_ms: cpu50, cpu_p99_ms: cpu99 } = report.default_scan_2kb;
console.log(`\ndefault configuration, input scan of a 2 KB prompt: wall p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms; ` +
  `CPU p50 ${cpu50.toFixed(3)} ms, p99 ${cpu99.toFixed(3)} ms (${times.length} texts, best of 3)`);

const outDir = path.join(repoRoot, 'bench', 'results');
if (!existsSync(outDir)) mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, `${report.date.replace(/[:.]/g, '-')}-guard-development.json`);
writeFileSync(outFile, JSON.stringify(report, null, 2) + '\n');
console.log(`results: ${path.relative(repoRoot, outFile)}\n`);
