/**
 * Features of the injection classifier, shared by inference (injection-classifier.ts) and training
 * (scripts/train-injection-classifier.mjs imports this file's build output, so both see exactly
 * the same features). Hashed binary features over the normalised text: word unigrams, word
 * bigrams, character 3/4/5-grams and a length bucket, FNV-1a hashed into 2^FEATURE_BITS buckets.
 */

export const FEATURE_BITS = 18;
const MASK = (1 << FEATURE_BITS) - 1;
/** The classifier reads at most this many characters at once (longer texts are windowed). */
export const FEATURE_MAX_CHARS = 6_000;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SEED_WORD = FNV_OFFSET ^ 0x5bd1e995;
const SEED_CHAR = FNV_OFFSET ^ 0x27d4eb2f;
const SEED_META = FNV_OFFSET ^ 0x165667b1;

function hashString(seed: number, s: string): number {
  let h = seed;
  for (let i = 0; i < s.length; i += 1) h = Math.imul(h ^ s.charCodeAt(i), FNV_PRIME);
  return h >>> 0;
}

function mix(a: number, b: number): number {
  let h = Math.imul(a ^ (b >>> 15), 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const MAX_TOKEN_CHARS = 24;

/**
 * Tokens are runs of letters and digits (`[\p{L}\p{N}]+`) and single other characters, whitespace
 * skipped. Character classes: 1 whitespace, 2 letter or digit, 3 other; 0 not yet known. ASCII and
 * the rest of the BMP are looked up in a table filled on first sight (one Unicode regex test per
 * distinct character, not one regex match per token).
 */
const SPACE = 1;
const WORD = 2;
const OTHER = 3;
const BMP_CLASS = new Uint8Array(0x10000);
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const SPACE_CHAR = /^\s$/u;
function classOf(cp: number): number {
  if (cp < 0x10000) {
    const known = BMP_CLASS[cp] as number;
    if (known !== 0) return known;
  }
  const ch = String.fromCodePoint(cp);
  const cls = WORD_CHAR.test(ch) ? WORD : SPACE_CHAR.test(ch) ? SPACE : OTHER;
  if (cp < 0x10000) BMP_CLASS[cp] = cls;
  return cls;
}

/** Generation-stamped scratch table: de-duplicates buckets without clearing per call. */
const stamp = new Uint32Array(1 << FEATURE_BITS);
let generation = 0;
/** Scratch buffers reused by every call (the features of one text at a time). */
let buckets = new Uint32Array(4096);
let compact = new Uint16Array(4096);

/**
 * The distinct feature buckets of a normalised text (at most FEATURE_MAX_CHARS of it are read), plus
 * one bucket per `context` tag (documentContext: what kind of document the text is a segment of).
 * Synchronous and single-threaded, so the shared scratch tables are safe.
 */
export function extractFeatures(normalized: string, context: readonly string[] = NO_CONTEXT): Uint32Array {
  const text = normalized.length > FEATURE_MAX_CHARS ? normalized.slice(0, FEATURE_MAX_CHARS) : normalized;
  const n = text.length;
  generation = (generation + 1) >>> 0;
  if (generation === 0) {
    stamp.fill(0);
    generation = 1;
  }
  const gen = generation;
  // At most one word, one bigram and three character n-grams per character, the length and the tags.
  const most = 5 * (2 * n + 2) + 1 + context.length;
  if (buckets.length < most) buckets = new Uint32Array(most);
  if (compact.length < 2 * n + 2) compact = new Uint16Array(2 * n + 2);
  const out = buckets;
  const c = compact;
  let count = 0;
  const add = (h: number): void => {
    const b = h & MASK;
    if (stamp[b] !== gen) {
      stamp[b] = gen;
      out[count++] = b;
    }
  };

  // Word unigrams and bigrams; the token stream (one space before each token and after the last) for the n-grams.
  let prev = SEED_WORD;
  let len = 0;
  c[len++] = 32;
  let i = 0;
  while (i < n) {
    const cp = text.codePointAt(i) as number;
    const width = cp > 0xffff ? 2 : 1;
    const cls = classOf(cp);
    if (cls === SPACE) {
      i += width;
      continue;
    }
    let end = i + width;
    if (cls === WORD) {
      while (end < n) {
        const next = text.codePointAt(end) as number;
        if (classOf(next) !== WORD) break;
        end += next > 0xffff ? 2 : 1;
      }
    }
    if (end - i > MAX_TOKEN_CHARS) {
      prev = SEED_WORD;
      i = end;
      continue;
    }
    let h = SEED_WORD;
    for (let j = i; j < end; j += 1) {
      const code = text.charCodeAt(j);
      h = Math.imul(h ^ code, FNV_PRIME);
      c[len++] = code;
    }
    c[len++] = 32;
    h >>>= 0;
    add(h);
    add(mix(prev, h));
    prev = h;
    i = end;
  }

  // Character 3/4/5-grams over the token stream (whitespace collapsed, punctuation kept).
  for (let k = 0; k + 3 <= len; k += 1) {
    let h = SEED_CHAR;
    h = Math.imul(h ^ (c[k] as number), FNV_PRIME);
    h = Math.imul(h ^ (c[k + 1] as number), FNV_PRIME);
    h = Math.imul(h ^ (c[k + 2] as number), FNV_PRIME);
    add(h >>> 0);
    if (k + 4 > len) continue;
    h = Math.imul(h ^ (c[k + 3] as number), FNV_PRIME);
    add(h >>> 0);
    if (k + 5 > len) continue;
    h = Math.imul(h ^ (c[k + 4] as number), FNV_PRIME);
    add(h >>> 0);
  }

  add(hashString(SEED_META, `len:${Math.min(14, Math.floor(Math.log2(text.length + 1)))}`));
  for (const tag of context) add(hashString(SEED_META, tag));
  return out.slice(0, count);
}

const NO_CONTEXT: readonly string[] = [];

/** A text up to this long is judged whole; a longer one is cut into segments of about SEGMENT_CHARS. */
export const SINGLE_SEGMENT_MAX = 1_000;
export const SEGMENT_CHARS = 700;
const MIN_BREAK = 300;

/**
 * Segment boundaries [start, end) of a normalised text: paragraph breaks first, then line breaks,
 * sentence ends and spaces, so a segment is a readable unit of the document. Covers every character.
 */
export function segmentBounds(text: string): Array<[number, number]> {
  if (text.length <= SINGLE_SEGMENT_MAX) return [[0, text.length]];
  const out: Array<[number, number]> = [];
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + SEGMENT_CHARS);
    if (text.length - end < MIN_BREAK) end = text.length;
    else {
      const slice = text.slice(start + MIN_BREAK, end);
      const cut = [slice.lastIndexOf('\n\n'), slice.lastIndexOf('\n'), slice.lastIndexOf('. '), slice.lastIndexOf(' ')].find((i) => i >= 0);
      if (cut !== undefined) end = start + MIN_BREAK + cut + 1;
    }
    out.push([start, end]);
    start = end;
  }
  return out;
}

/**
 * What a long text is, as context tags for its segments: every segment carries `ctx:segment` and the
 * kinds of document found (e-mail headers, table rows, code, markup), so the classifier can learn that
 * an imperative inside an e-mail footer or a table is ordinary while one addressed to an assistant is not.
 */
export function documentContext(text: string): string[] {
  const tags = ['ctx:segment'];
  const head = text.slice(0, 4_000);
  if (/^(from|to|subject|date|cc|reply-to): /m.test(head)) tags.push('ctx:email');
  const lines = head.split('\n');
  // A table row: cells between pipes or tabs, or comma-separated values that are not a sentence.
  const tabular = lines.filter((l) => /\|.*\|/.test(l) || /\t.*\t/.test(l) || ((l.match(/,/g)?.length ?? 0) >= 3 && l.length < 300 && !/[a-z]{2}[.!?] /.test(l))).length;
  if (lines.length >= 4 && tabular / lines.length > 0.5) tags.push('ctx:table');
  if ((head.match(/[{};]\s*$|^\s*(def|class|import|function|const|let|return|#include|public|private)\b/gm)?.length ?? 0) >= 4) tags.push('ctx:code');
  if ((head.match(/<\/?[a-z][a-z0-9]*[\s>]/g)?.length ?? 0) >= 6) tags.push('ctx:markup');
  return tags;
}
