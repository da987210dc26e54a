#!/usr/bin/env node
// Trains the injection classifier of `prompt-injection-warden` and writes
// src/guard/models/injection-classifier.json (docs/guardrails.md, "Retraining").
//
//   npm run build && node scripts/train-injection-classifier.mjs [--data datasets/guard/injection-train.jsonl] [--check]
//
// Logistic regression over the hashed features of src/guard/detectors/injection-features.ts
// (imported from the build output, so training and inference share one implementation), fitted
// with AdaGrad and L2, classes weighted to balance. Deterministic: a seeded shuffle and no other
// randomness, so the same data gives byte-identical weights. --check reports a 90/10 split
// (a sanity check on the training distribution, not the held-out evaluation in bench/guard/).
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './injection-data/common.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { normalizeForMatching } = await import(path.join(root, 'dist/guard/detectors/text-normalize.js'));
const { extractFeatures, FEATURE_BITS } = await import(path.join(root, 'dist/guard/detectors/injection-features.js'));

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const dataFile = arg('--data', 'datasets/guard/injection-train.jsonl');
const EPOCHS = 14;
const LEARNING_RATE = 0.4;
const L2 = 2e-6;
const SEED = 7;

const raw = readFileSync(path.join(root, dataFile), 'utf8');
const rows = raw.split('\n').filter(Boolean).map((l) => JSON.parse(l));
const examples = rows.map((row) => {
  const f = Array.from(extractFeatures(normalizeForMatching(row.text)));
  return { f, v: f.length > 0 ? 1 / Math.sqrt(f.length) : 0, y: row.label === 'attack' ? 1 : 0 };
});

function train(items) {
  const size = 1 << FEATURE_BITS;
  const w = new Float64Array(size);
  const g2 = new Float64Array(size).fill(1e-8);
  let bias = 0;
  let biasG2 = 1e-8;
  const pos = items.filter((e) => e.y === 1).length;
  const neg = items.length - pos;
  const cw = [items.length / (2 * neg), items.length / (2 * pos)];
  const r = rng(SEED);
  for (let epoch = 0; epoch < EPOCHS; epoch += 1) {
    for (const e of r.shuffle(items)) {
      let z = bias;
      for (const f of e.f) z += w[f] * e.v;
      const p = 1 / (1 + Math.exp(-z));
      const g = (p - e.y) * cw[e.y];
      for (const f of e.f) {
        const grad = g * e.v + L2 * w[f];
        g2[f] += grad * grad;
        w[f] -= (LEARNING_RATE * grad) / Math.sqrt(g2[f]);
      }
      biasG2 += g * g;
      bias -= (LEARNING_RATE * g) / Math.sqrt(biasG2);
    }
  }
  return { w, bias };
}

function quantize({ w, bias }) {
  let max = 0;
  for (const x of w) max = Math.max(max, Math.abs(x));
  const scale = max / 127 || 1;
  const q = new Int8Array(w.length);
  for (let i = 0; i < w.length; i += 1) q[i] = Math.max(-127, Math.min(127, Math.round(w[i] / scale)));
  return { bias, scale, q };
}

function predict(model, e) {
  let z = 0;
  for (const f of e.f) z += model.q[f] * model.scale;
  return 1 / (1 + Math.exp(-(model.bias + z * e.v)));
}

if (process.argv.includes('--check')) {
  const r = rng(99);
  const order = r.shuffle(examples.map((_, i) => i));
  const cut = Math.floor(order.length * 0.9);
  const trainSet = order.slice(0, cut).map((i) => examples[i]);
  const testSet = order.slice(cut).map((i) => examples[i]);
  const m = quantize(train(trainSet));
  let tp = 0, fp = 0, fn = 0, tn = 0;
  for (const e of testSet) {
    const hit = predict(m, e) >= 0.5;
    if (hit && e.y) tp += 1; else if (hit) fp += 1; else if (e.y) fn += 1; else tn += 1;
  }
  console.log(`split check: recall ${(tp / (tp + fn)).toFixed(3)}, false positives ${(fp / (fp + tn)).toFixed(3)} (${testSet.length} items)`);
}

const model = quantize(train(examples));
const out = {
  format: 'warden-hashed-logreg-v1',
  featureBits: FEATURE_BITS,
  bias: Number(model.bias.toFixed(6)),
  scale: model.scale,
  weights: Buffer.from(model.q.buffer).toString('base64'),
  trainedOn: { file: dataFile, items: rows.length, sha256: createHash('sha256').update(raw).digest('hex') },
};
const target = path.join(root, 'src/guard/models/injection-classifier.json');
writeFileSync(target, JSON.stringify(out) + '\n');
const nonzero = model.q.reduce((n, x) => n + (x !== 0 ? 1 : 0), 0);
console.log(`wrote ${path.relative(root, target)}: ${rows.length} items, ${nonzero} non-zero weights, bias ${out.bias.toFixed(3)}`);
