#!/usr/bin/env node
// Writes datasets/guard/injection-train.jsonl, the training set of the injection classifier
// (docs/guardrails.md). Deterministic: the same seed writes the same file. All texts come from the
// templates in scripts/injection-data/ (written for Warden); nothing is taken from the shared
// evaluation data. Usage: node scripts/generate-injection-train.mjs [--seed N]
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './injection-data/common.mjs';
import * as A from './injection-data/train-attacks.mjs';
import * as B from './injection-data/train-benign.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seedArg = process.argv.indexOf('--seed');
const r = rng(seedArg > 0 ? Number(process.argv[seedArg + 1]) : 20261125);

/** [generator, how many to draw, label]; duplicates are dropped afterwards. */
const PLAN = [
  [A.overrideShort, 900, 'attack'], [A.multilingual, 700, 'attack'], [A.extraction, 300, 'attack'], [A.personaJailbreak, 1100, 'attack'],
  [A.devMode, 350, 'attack'], [A.fakeTurn, 350, 'attack'], [A.indirect, 350, 'attack'], [A.payloadSplit, 150, 'attack'], [A.encoded, 350, 'attack'],
  [A.fictionWrapper, 200, 'attack'], [A.refusalSuppression, 150, 'attack'], [A.longMixed, 300, 'attack'], [A.genre, 500, 'attack'],
  [B.general, 1800, 'benign'], [B.trigger, 600, 'benign'], [B.roleplay, 700, 'benign'], [B.systemPrompt, 400, 'benign'], [B.gameSetup, 300, 'benign'],
  [B.longDoc, 700, 'benign'], [B.code, 150, 'benign'], [B.intlBenign, 300, 'benign'], [B.sensitive, 150, 'benign'],
    [B.elaborate, 900, 'benign'], [B.intlTemplated, 600, 'benign'], [B.vocab, 1500, 'benign'], [B.aiSecurity, 500,
    'benign'], [B.personaOk, 500, 'benign'], [B.everyday, 1500, 'benign'], [B.botAndCode, 400, 'benign'],
];

/**
 * The plan's counts as written. (Halving them, and their weight in training, when the public data came in cost
 * recall on persona jailbreaks and false positives on Warden's labelled look-alikes: docs/guardrails.md.)
 */
const SCALE = 1;
const seen = new Set();
const rows = [];
for (const [gen, n, label] of PLAN) {
  for (let i = 0; i < Math.round(n * SCALE); i += 1) {
    const { text, kind } = gen(r);
    if (seen.has(text)) continue;
    seen.add(text);
    rows.push({ text, label, kind });
  }
}
const out = path.join(root, 'datasets', 'guard', 'injection-train.jsonl');
mkdirSync(path.dirname(out), { recursive: true });
writeFileSync(out, rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
const count = (l) => rows.filter((x) => x.label === l).length;
console.log(`wrote ${rows.length} items (${count('attack')} attack, ${count('benign')} benign) to ${path.relative(root, out)}`);
