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
 * The distinct feature buckets of a normalised text (at most FEATURE_MAX_CHARS of it are read).
 * Synchronous and single-threaded, so the shared scratch table is safe.
 */
export function extractFeatures(normalized: string): Uint32Array {
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
  return Uint32Array.from(out);
}
