#!/usr/bin/env node
// Quality and speed of the security detectors (docs/guardrails.md, "Measured quality").
//
//   npm run bench:guard-security            (builds, then runs this file)
//
// 1. Warden's held-out labelled set (bench/guard/labelled-security.jsonl): precision, recall, F1,
//    false-positive rate, per kind.
// 2. When the shared public evaluation data is present (../shared/eval beside the repository, or
//    WARDEN_EVAL_DIR): the share of `in-the-wild-jailbreaks` and of `wildguard-benign` flagged,
//    beside the published figures of its README. The data is read here only; nothing of it is
//    written anywhere (the results file holds aggregate numbers).
// 3. Time per item and per 2 KB text, p50/p99. Each item is timed three times and the fastest run
//    kept, so the figure is the detector's CPU cost rather than the noise of a shared machine.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const dist = path.join(repoRoot, 'dist', 'guard', 'detectors');
const { promptInjectionWarden } = await import(path.join(dist, 'prompt-injection.js'));
const { encodingHeuristics } = await import(path.join(dist, 'encoding-heuristics.js'));

const METHODS = [promptInjectionWarden, encodingHeuristics];
const params = new Map(METHODS.map((m) => [m.id, m.parseParams({})]));
const run = (m, text) => m.detect(text, params.get(m.id), {});
const readJsonl = (file) => readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
const pct = (x) => `${(100 * x).toFixed(1)} %`;

function confusion(method, rows) {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  const kinds = {};
  for (const row of rows) {
    const hit = run(method, row.text).hit;
    const attack = row.label === 'attack';
    if (hit && attack) tp += 1; else if (hit) fp += 1; else if (attack) fn += 1; else tn += 1;
    const k = (kinds[row.kind] ??= { label: row.label, items: 0, flagged: 0 });
    k.items += 1;
    if (hit) k.flagged += 1;
  }
  const precision = tp + fp === 0 ? 0 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 0 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { items: rows.length, tp, fp, fn, tn, precision, recall, f1, false_positive_rate: fp + tn === 0 ? 0 : fp / (fp + tn), kinds };
}

function timings(method, texts) {
  for (const t of texts.slice(0, 200)) run(method, t); // warm-up: regex tier-up and JIT
  const times = texts.map((t) => {
    let best = Infinity;
    for (let i = 0; i < 3; i += 1) {
      const start = process.hrtime.bigint();
      run(method, t);
      best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e6);
    }
    return best;
  });
  times.sort((a, b) => a - b);
  const q = (p) => Number(times[Math.min(times.length - 1, Math.floor(p * times.length))].toFixed(3));
  return { items: times.length, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: Number(times.at(-1).toFixed(3)) };
}

/** Texts of exactly 2 KB: each text repeated or cut to 2,048 characters. */
const to2k = (t) => {
  let s = t;
  while (s.length < 2048) s += `\n${t}`;
  return s.slice(0, 2048);
};

const results = { date: new Date().toISOString(), node: process.version, methods: {} };
const heldOut = readJsonl(path.join(repoRoot, 'bench', 'guard', 'labelled-security.jsonl'));
console.log(`Held-out set: ${heldOut.length} items (${heldOut.filter((r) => r.label === 'attack').length} attack)\n`);

for (const m of METHODS) {
  const c = confusion(m, heldOut);
  results.methods[m.id] = { held_out: c };
  console.log(`${m.id} (defaults)  precision ${pct(c.precision)}  recall ${pct(c.recall)}  F1 ${pct(c.f1)}  false positives ${pct(c.false_positive_rate)}`);
  // encoding-heuristics looks for encodings, not for injections: only its own kinds are listed.
  const relevant = (kind) => m !== encodingHeuristics || kind.startsWith('encoded_') || heldOut.some((r) => r.kind === kind && r.label === 'benign');
  const missed = Object.entries(c.kinds).filter(([kind, k]) => relevant(kind) && (k.label === 'attack' ? k.flagged < k.items : k.flagged > 0));
  for (const [kind, k] of missed) console.log(`    ${kind.padEnd(28)} ${k.flagged}/${k.items} flagged`);
}
const encodedRows = heldOut.filter((r) => r.kind.startsWith('encoded_') || r.label === 'benign');
const e = confusion(encodingHeuristics, encodedRows);
results.methods[encodingHeuristics.id].held_out_encoded_only = e;
console.log(`encoding-heuristics on the encoded attacks + all benign items: recall ${pct(e.recall)}  false positives ${pct(e.false_positive_rate)}\n`);

/**
 * The shared set may be measured against, never copied: every window of COPY_WINDOW characters of
 * its texts (case and whitespace folded) is looked up in the repository's tracked text files, the
 * training data and its generator templates included. Returns the passages found, one per place.
 */
const COPY_WINDOW = 50;
function copiedPassages(shared) {
  const fold = (s) => s.toLowerCase().replace(/\s+/g, ' ');
  const windows = new Set();
  for (const row of shared) {
    const text = fold(row.text);
    for (let i = 0; i + COPY_WINDOW <= text.length; i += 1) windows.add(text.slice(i, i + COPY_WINDOW));
  }
  const wordy = (s) => /[a-z]{3,}[^a-z]+[a-z]{3,}[^a-z]+[a-z]{3,}/.test(s); // not a run of dashes or digits
  const files = execFileSync('git', ['ls-files'], { cwd: repoRoot, encoding: 'utf8' }).split('\n')
    .filter((f) => f && f !== 'package-lock.json' && !/\.(png|pdf|ico|woff2?)$/.test(f));
  const found = [];
  for (const file of files) {
    let text;
    try { text = fold(readFileSync(path.join(repoRoot, file), 'utf8')); } catch { continue; }
    for (let i = 0; i + COPY_WINDOW <= text.length; i += 1) {
      const w = text.slice(i, i + COPY_WINDOW);
      if (windows.has(w) && wordy(w)) { found.push({ file, text: w }); i += COPY_WINDOW - 1; }
    }
  }
  return found;
}

const evalDir = process.env.WARDEN_EVAL_DIR ?? path.resolve(repoRoot, '..', 'shared', 'eval');
const sharedFile = path.join(evalDir, 'prompt-attacks.jsonl');
let timingTexts = heldOut.map((r) => r.text);
if (existsSync(sharedFile)) {
  const shared = readJsonl(sharedFile);
  timingTexts = shared.map((r) => r.text);
  console.log(`Shared set (${sharedFile}): ${shared.length} items`);
  console.log('detector                              in-the-wild jailbreaks flagged   wildguard-benign flagged');
  console.log('@andersmyrmel/vard (published)        62.5 %                           24.5 %');
  console.log('llm_guardrail (published)             91.0 %                           36.8 %');
  for (const m of METHODS) {
    const share = (set) => {
      const rows = shared.filter((r) => r.set === set);
      return rows.filter((r) => run(m, r.text).hit).length / rows.length;
    };
    const jb = share('in-the-wild-jailbreaks');
    const benign = share('wildguard-benign');
    results.methods[m.id].shared = { in_the_wild_jailbreaks_flagged: jb, wildguard_benign_flagged: benign };
    console.log(`${m.id.padEnd(38)}${pct(jb).padEnd(33)}${pct(benign)}`);
  }
  results.copied_from_shared_set = copiedPassages(shared);
  const copied = results.copied_from_shared_set;
  console.log(`\nPassages of the shared set found in the repository (${COPY_WINDOW} characters or more): ${copied.length}` +
    (copied.length ? ` (the shared set is for measuring only: rewrite them)\n${copied.map((c) => `  ${c.file}: "${c.text}"`).join('\n')}` : ''));
  console.log('');
} else {
  console.log(`Shared set not found (${sharedFile}); set WARDEN_EVAL_DIR to measure on it.\n`);
}

for (const m of METHODS) {
  const perItem = timings(m, timingTexts);
  const per2k = timings(m, timingTexts.map(to2k));
  results.methods[m.id].time_per_item = perItem;
  results.methods[m.id].time_per_2kb = per2k;
  console.log(`${m.id.padEnd(26)} per item p50 ${perItem.p50_ms} ms, p99 ${perItem.p99_ms} ms   per 2 KB p50 ${per2k.p50_ms} ms, p99 ${per2k.p99_ms} ms`);
}
const huge = 'The quick brown fox jumps over the lazy dog. '.repeat(23_302);
for (const m of METHODS) {
  const start = process.hrtime.bigint();
  run(m, huge);
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  results.methods[m.id].time_1mb_ms = Number(ms.toFixed(1));
  console.log(`${m.id.padEnd(26)} one 1 MB text: ${ms.toFixed(1)} ms`);
}

const outDir = path.join(repoRoot, 'bench', 'results');
mkdirSync(outDir, { recursive: true });
const outFile = path.join(outDir, `${results.date.replace(/[:.]/g, '-')}-guard-security.json`);
writeFileSync(outFile, JSON.stringify(results, null, 2) + '\n');
console.log(`\nresults: ${path.relative(repoRoot, outFile)}`);
