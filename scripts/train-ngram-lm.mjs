#!/usr/bin/env node
// Trains the character 4-gram language model of `jb-ngram-perplexity` and writes
// src/guard/models/ngram-lm.json (docs/guardrails.md, "jb-ngram-perplexity").
//
//   npm run build && node scripts/train-ngram-lm.mjs [--build-corpus]
//   npm run build && node scripts/train-ngram-lm.mjs --check    (exit 1 unless the shipped model is what it produces
//                                                                and src/guard/models/checksums.json records it)
//
// The model is trained on datasets/guard/ngram-benign.txt, benign text written for Warden:
// --build-corpus (re)writes it from the repository's own documentation (docs/*.md, README.md:
// prose, Markdown tables, JSON and shell examples), its guard source code (src/guard, tests
// excluded) and the benign prompts of datasets/guard/injection-train.jsonl. Nothing else is read.
// Counts are taken with the same folding as inference (forEachScored, from the build output; code
// lines are read in training, left out in scoring);
// a seen 4-gram costs -log2 of its Witten-Bell probability, an unseen one the context's escape
// cost plus the smoothed bigram cost. Costs are stored in eighths of a bit. Deterministic.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readChecksums, recordModel, sha256 } from './model-checksums.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const lm = await import(path.join(root, 'dist/guard/detectors/ngram-perplexity.js'));
const corpusFile = 'datasets/guard/ngram-benign.txt';

if (process.argv.includes('--build-corpus') && !process.argv.includes('--check')) {
  const parts = [];
  const files = (dir, keep) =>
    readdirSync(path.join(root, dir))
      .sort()
      .flatMap((name) => {
        const rel = path.join(dir, name);
        return statSync(path.join(root, rel)).isDirectory() ? files(rel, keep) : keep(rel) ? [rel] : [];
      });
  for (const file of ['README.md', ...files('docs', (f) => f.endsWith('.md')), ...files('src/guard', (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))]) {
    parts.push(readFileSync(path.join(root, file), 'utf8'));
  }
  const rows = readFileSync(path.join(root, 'datasets/guard/injection-train.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  for (const row of rows) if (row.label === 'benign') parts.push(row.text);
  writeFileSync(path.join(root, corpusFile), `${parts.join('\n\n')}\n`);
}

const corpus = readFileSync(path.join(root, corpusFile), 'utf8');
const { V, T4_BITS, T3_BITS, COST_SCALE, hash4, hash3 } = lm;
const n4 = new Map();
const n3 = new Map();
const u3 = new Map();
const n2 = new Float64Array(V * V);
const n1 = new Float64Array(V);
let chars = 0;
lm.forEachScored(corpus, (a, b, c, d) => {
  const k4 = ((a * V + b) * V + c) * V + d;
  const k3 = (a * V + b) * V + c;
  const seen = n4.get(k4) ?? 0;
  if (seen === 0) u3.set(k3, (u3.get(k3) ?? 0) + 1);
  n4.set(k4, seen + 1);
  n3.set(k3, (n3.get(k3) ?? 0) + 1);
  n2[c * V + d] += 1;
  n1[c] += 1;
  chars += 1;
}, false);

const quantise = (bits) => Math.max(1, Math.min(255, Math.round(bits * COST_SCALE)));
const t4 = new Uint8Array(1 << T4_BITS);
const t3 = new Uint8Array(1 << T3_BITS);
const bigram = new Uint8Array(V * V);
for (let c = 0; c < V; c++) for (let d = 0; d < V; d++) bigram[c * V + d] = quantise(-Math.log2((n2[c * V + d] + 0.5) / (n1[c] + 0.5 * V)));
for (const [k3, count] of n3) {
  const a = Math.floor(k3 / (V * V));
  const b = Math.floor(k3 / V) % V;
  const c = k3 % V;
  const distinct = u3.get(k3) ?? 1;
  const h = hash3(a, b, c);
  // On a collision the costlier escape is kept (an unseen continuation is never made cheaper).
  t3[h] = Math.max(t3[h], quantise(-Math.log2(distinct / (count + distinct))));
}
for (const [k4, count] of n4) {
  const k3 = Math.floor(k4 / V);
  const a = Math.floor(k3 / (V * V));
  const b = Math.floor(k3 / V) % V;
  const c = k3 % V;
  const d = k4 % V;
  const p = count / ((n3.get(k3) ?? 0) + (u3.get(k3) ?? 1));
  const h = hash4(a, b, c, d);
  const q = quantise(-Math.log2(p));
  t4[h] = t4[h] === 0 ? q : Math.max(t4[h], q);
}

const model = {
  format: 'warden-char4-lm-v1',
  alphabet: lm.ALPHABET,
  t4: Buffer.from(t4).toString('base64'),
  t3: Buffer.from(t3).toString('base64'),
  bigram: Buffer.from(bigram).toString('base64'),
  trainedOn: { file: corpusFile, chars, sha256: createHash('sha256').update(corpus).digest('hex') },
};
const target = path.join(root, 'src/guard/models/ngram-lm.json');
const bytes = `${JSON.stringify(model)}\n`;
if (process.argv.includes('--check')) {
  const same = readFileSync(target, 'utf8') === bytes;
  const recorded = readChecksums(root)[path.basename(target)];
  const inRecord = recorded?.sha256 === sha256(bytes) && recorded?.trainedOn?.sha256 === model.trainedOn.sha256;
  console.log(same ? 'src/guard/models/ngram-lm.json is what the training produces' : 'src/guard/models/ngram-lm.json differs from what the training produces');
  if (!inRecord) console.log('src/guard/models/checksums.json does not record it (run the training without --check)');
  process.exit(same && inRecord ? 0 : 1);
}
writeFileSync(target, bytes);
recordModel(root, target, bytes, { file: corpusFile, sha256: model.trainedOn.sha256 });
console.log(`trained on ${chars} characters, ${n4.size} distinct 4-grams; wrote src/guard/models/ngram-lm.json`);
