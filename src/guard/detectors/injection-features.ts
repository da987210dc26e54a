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

const TOKEN = /[\p{L}\p{N}]+|[^\s\p{L}\p{N}]/gu;
const MAX_TOKEN_CHARS = 24;

/** Generation-stamped scratch table: de-duplicates buckets without clearing per call. */
const stamp = new Uint32Array(1 << FEATURE_BITS);
let generation = 0;

/**
 * The distinct feature buckets of a normalised text (at most FEATURE_MAX_CHARS of it are read), plus
 * one bucket per `context` tag (documentContext: what kind of document the text is a segment of).
 * Synchronous and single-threaded, so the shared scratch table is safe.
 */
export function extractFeatures(normalized: string, context: readonly string[] = NO_CONTEXT): Uint32Array {
  const text = normalized.length > FEATURE_MAX_CHARS ? normalized.slice(0, FEATURE_MAX_CHARS) : normalized;
  generation = (generation + 1) >>> 0;
  if (generation === 0) {
    stamp.fill(0);
    generation = 1;
  }
  const gen = generation;
  const out: number[] = [];
  const add = (h: number): void => {
    const b = h & MASK;
    if (stamp[b] !== gen) {
      stamp[b] = gen;
      out.push(b);
    }
  };

  let prev = SEED_WORD;
  let compact = ' ';
  for (const m of text.matchAll(TOKEN)) {
    const tok = m[0];
    if (tok.length > MAX_TOKEN_CHARS) {
      prev = SEED_WORD;
      continue;
    }
    const h = hashString(SEED_WORD, tok);
    add(h);
    add(mix(prev, h));
    prev = h;
    compact += `${tok} `;
  }

  // Character n-grams over the token stream (whitespace collapsed, punctuation kept).
  const c = compact;
  for (let i = 0; i + 3 <= c.length; i += 1) {
    let h = SEED_CHAR;
    h = Math.imul(h ^ c.charCodeAt(i), FNV_PRIME);
    h = Math.imul(h ^ c.charCodeAt(i + 1), FNV_PRIME);
    h = Math.imul(h ^ c.charCodeAt(i + 2), FNV_PRIME);
    add(h >>> 0);
    if (i + 4 > c.length) continue;
    h = Math.imul(h ^ c.charCodeAt(i + 3), FNV_PRIME);
    add(h >>> 0);
    if (i + 5 > c.length) continue;
    h = Math.imul(h ^ c.charCodeAt(i + 4), FNV_PRIME);
    add(h >>> 0);
  }

  add(hashString(SEED_META, `len:${Math.min(14, Math.floor(Math.log2(text.length + 1)))}`));
  for (const tag of context) add(hashString(SEED_META, tag));
  return Uint32Array.from(out);
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
