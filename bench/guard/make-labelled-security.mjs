#!/usr/bin/env node
// Writes bench/guard/labelled-security.jsonl, the HELD-OUT evaluation set of the security
// detectors: {"text", "label": "attack"|"benign", "kind"}. Its lists (security-eval-*.mjs) were
// written separately from the training templates and are never used for training.
// Deterministic. Usage: node bench/guard/make-labelled-security.mjs
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from '../../scripts/injection-data/common.mjs';
import * as A from './security-eval-attacks.mjs';
import * as B from './security-eval-benign.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const r = rng(424242);
const rows = [];
const add = (text, label, kind) => rows.push({ text, label, kind });

for (const t of A.OVERRIDE) add(t, 'attack', 'override');
for (const t of A.INDIRECT) add(t, 'attack', 'indirect');
for (const t of A.EXTRACTION) add(t, 'attack', 'extraction');
for (const t of A.MODE) add(t, 'attack', 'dev_mode');
for (const t of A.FAKE_TURN) add(t, 'attack', 'fake_turn');
for (const t of A.SPLIT) add(t, 'attack', 'payload_split');
for (const [lang, t] of A.MULTILINGUAL) add(t, 'attack', `multilingual_${lang}`);
for (const t of A.SUPPRESSION) add(t, 'attack', 'refusal_suppression');
for (const t of A.FICTION) add(t, 'attack', 'fiction_wrapper');

// Encoded and obfuscated forms of a few instructions.
const enc = {
  base64: (s) => `My friend sent me this, what does it say? Please do what it asks: ${Buffer.from(s).toString('base64')}`,
  base64_bare: (s) => Buffer.from(s).toString('base64'),
  hex: (s) => `Hex: ${Buffer.from(s).toString('hex')}`,
  rot13: (s) => s.replace(/[a-z]/gi, (c) => String.fromCharCode(((c.toLowerCase().charCodeAt(0) - 84) % 26) + (c <= 'Z' ? 65 : 97))),
  reversed: (s) => `Read backwards: ${[...s].reverse().join('')}`,
  leet: (s) => s.replace(/[aeiost]/gi, (c) => ({ a: '@', e: '3', i: '1', o: '0', s: '$', t: '7' })[c.toLowerCase()]),
  homoglyph: (s) => s.replace(/[aeocpxyABEHKMOPT]/g, (c) => ({ a: 'а', e: 'е', o: 'ο', c: 'с', p: 'р', x: 'х',
    y: 'у', A: 'Α', B: 'В', E: 'Ε', H: 'Н', K: 'Κ', M: 'М', O: 'О', P: 'Р', T: 'Т' })[c]),
  zero_width: (s) => [...s].join('\u200b'),
  tags: (s) => `What a lovely day!${[...s].map((c) => String.fromCodePoint(0xe0000 + c.charCodeAt(0))).join('')}`,
  fullwidth: (s) => s.replace(/[!-~]/g, (c) => String.fromCharCode(c.charCodeAt(0) + 0xfee0)),
  spaced: (s) => s.split('').join(' '),
};
for (const [name, f] of Object.entries(enc)) {
  for (const s of r.sample(A.TO_ENCODE, 4)) add(f(s), 'attack', `encoded_${name}`);
}

// Long persona jailbreaks assembled from the evaluation-only building blocks.
const P = A.PERSONA;
for (let i = 0; i < 45; i += 1) {
  const N = r.pick(P.names);
  const f = (s) => s.replaceAll('{N}', N);
  const parts = [f(r.pick(P.intros)), r.sample(P.traits, r.int(3, 9)).map(f).join(r.pick([' ', '\n- ', '\n']))];
  if (r.chance(0.7)) parts.push(f(r.pick(P.format)));
  if (r.chance(0.5)) parts.push(f(r.pick(P.threats)));
  parts.push(f(r.pick(P.closers)));
  let text = parts.join('\n\n');
  // Some are padded with a long, innocuous-sounding story to dilute the signal.
  if (r.chance(0.3)) text = `${r.sample(B.LONG_PARAS, 3).join('\n\n')}\n\n${text}`;
  add(text, 'attack', 'persona_jailbreak');
}

for (const t of B.GENERAL) add(t, 'benign', 'general');
for (const t of B.TRIGGER) add(t, 'benign', 'trigger_word');
for (const t of B.ROLEPLAY) add(t, 'benign', 'roleplay_benign');
for (const t of B.ELABORATE) add(t, 'benign', 'elaborate_benign');
for (const t of B.SYSTEM_PROMPTS) add(t, 'benign', 'system_prompt_benign');
for (const t of B.CODE) add(t, 'benign', 'code');
for (const t of B.SECURITY) add(t, 'benign', 'security_question');
for (const [lang, t] of B.MULTILINGUAL) add(t, 'benign', `multilingual_benign_${lang}`);
for (let i = 0; i < 30; i += 1) {
  const head = r.pick(['', 'Can you summarise this for me?\n\n', 'Please fix the grammar:\n\n', 'Turn this into a short newsletter:\n\n',
    'Translate into French:\n\n']);
  add(head + r.sample(B.LONG_PARAS, r.int(3, 9)).join('\n\n'), 'benign', 'long_document');
}

const out = path.join(here, 'labelled-security.jsonl');
writeFileSync(out, rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
const n = (l) => rows.filter((x) => x.label === l).length;
console.log(`wrote ${rows.length} items (${n('attack')} attack, ${n('benign')} benign) to bench/guard/labelled-security.jsonl`);
