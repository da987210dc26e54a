/**
 * `jb-ngram-perplexity`: optimised adversarial suffixes (GCG-style strings of word pieces and
 * punctuation appended to a request) read as text no one writes. A character 4-gram language model
 * trained on benign text (prose, Markdown, tables and code: scripts/train-ngram-lm.mjs, shipped in
 * src/guard/models/ngram-lm.json, nothing downloaded) gives each character a cost in bits; the
 * method flags a text whose most unnatural span (a sliding window of WINDOW scored characters)
 * costs more than `threshold` bits per character on average, as Dome's perplexity filters do with
 * GPT-2. Only Latin-script text is scored: letters of other scripts (Japanese, Chinese, Arabic,
 * Cyrillic…) are neither scored nor counted, so a text in those languages is never flagged; URLs,
 * e-mail addresses and long unbroken tokens (base64, hashes, identifiers) are read as one space.
 * Linear in the text; short texts (fewer than WINDOW scored characters) are never flagged. Dome's
 * `jb-length-per-perplexity` and `jb-prefix-suffix-perplexity` are answered by this method.
 */
import model from '../models/ngram-lm.json' with { type: 'json' };
import { numberParam, paramParser, IGNORED, type SyncDetectorDefinition } from '../params.js';
import { clean } from '../types.js';

export const NGRAM_ID = 'jb-ngram-perplexity';

/** The model's alphabet: index 0 is the space (and everything read as one). */
export const ALPHABET = " abcdefghijklmnopqrstuvwxyz0.,;:!?'\"-()[]{}<>/\\_=+*&%$#@|~^`\n";
const SYMBOL = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) SYMBOL[ALPHABET.charCodeAt(i)] = i;
for (let c = 65; c <= 90; c++) SYMBOL[c] = SYMBOL[c + 32] as number;
for (let c = 48; c <= 57; c++) SYMBOL[c] = SYMBOL[48] as number;
SYMBOL[9] = 0;
SYMBOL[13] = 0;
export const V = ALPHABET.length;

export const T4_BITS = 18;
export const T3_BITS = 16;
/** Costs are stored in eighths of a bit, capped at 255 (31.9 bits); 0 means unseen. */
export const COST_SCALE = 8;

/** Folds a text into model symbols: what a character is, or -1 (not scored: another script, or part of a skipped token). */
const SKIPPED_TOKEN = /https?:\/\/\S+|www\.\S+|[\w.+-]+@[\w-]+\.[\w.-]+|[A-Za-z0-9+/=_-]{24,}/g;

/**
 * A line that reads as code, not prose: indented, ending like a statement or block, holding an
 * operator prose never has, starting with a keyword or comment marker, a table row, or a
 * `key: value` / `name = value` line.
 */
const CODE_LINE =
  /^(?:[ \t]{2,}\S|\s*(?:import|export|const|let|var|function|def|class|return|if|elif|else|for|while|switch|case|try|catch|public|private|static|async|await|select|insert|update|delete|create|alter|from|where|#include|#!|\/\/|\/\*|\*|#|--|<\/?[a-z]|\||[\]})]|[\w.$-]+\s*(?::|=|\+=|:=)\s))|(?:[;{,(\[]|=>|\)|\*\/)\s*$|=>|===|!==|::|\);|\)\s*\{|&&|\|\|/i;

/**
 * Start offsets of the lines of `text` that read as code, when at least two do (a snippet, a
 * file, a table); a single odd line, such as a prompt with a suffix glued to it, is prose.
 */
function codeLines(text: string): Set<number> {
  const starts = new Set<number>();
  let start = 0;
  while (start < text.length) {
    const nl = text.indexOf('\n', start);
    const end = nl < 0 ? text.length : nl;
    if (end - start <= 2000 && CODE_LINE.test(text.slice(start, end))) starts.add(start);
    start = end + 1;
  }
  return starts.size >= 2 ? starts : new Set();
}

/**
 * The symbols of `text` (one per UTF-16 unit): Latin letters, digits, ASCII punctuation and space
 * as the model knows them; accented Latin letters as their base letter; other scripts and skipped
 * tokens as -1 (a separator that is not scored).
 */
export function toSymbols(text: string, skipCode = true): Int16Array {
  const out = new Int16Array(text.length).fill(-1);
  const code = skipCode ? codeLines(text) : new Set<number>();
  let i = 0;
  SKIPPED_TOKEN.lastIndex = 0;
  let next = SKIPPED_TOKEN.exec(text);
  while (i < text.length) {
    if (next !== null && next.index === i && !code.has(i)) {
      // A URL, address or long token: one space, then nothing scored until its end.
      out[i] = 0;
      i = next.index + next[0].length;
      next = SKIPPED_TOKEN.exec(text);
      continue;
    }
    if (next !== null && next.index < i) {
      next = SKIPPED_TOKEN.exec(text);
      continue;
    }
    if (code.has(i)) {
      // A line of code, a table row or a key: value line: not prose, not scored.
      const end = text.indexOf('\n', i);
      i = end < 0 ? text.length : end;
      continue;
    }
    const unit = text.charCodeAt(i);
    if (unit < 128) out[i] = SYMBOL[unit] as number;
    else if ((unit >= 0xc0 && unit <= 0x24f) || (unit >= 0x1e00 && unit <= 0x1eff)) {
      const base = text[i]?.normalize('NFD').charCodeAt(0) ?? 0;
      out[i] = base < 128 ? (SYMBOL[base] as number) : -1;
    } else {
      const folded = TYPOGRAPHIC[unit];
      if (folded !== undefined) out[i] = folded;
    }
    i++;
  }
  return out;
}

/** Typographic spaces, quotes and dashes, read as their ASCII forms. */
const TYPOGRAPHIC: Record<number, number> = {
  0xa0: 0,
  0x2018: SYMBOL[39] as number,
  0x2019: SYMBOL[39] as number,
  0x201c: SYMBOL[34] as number,
  0x201d: SYMBOL[34] as number,
  0x2013: SYMBOL[45] as number,
  0x2014: SYMBOL[45] as number,
};

export const hash4 = (a: number, b: number, c: number, d: number) => ((((a * V + b) * V + c) * V + d) * 2654435761) >>> (32 - T4_BITS);
export const hash3 = (a: number, b: number, c: number) => (((a * V + b) * V + c) * 2246822519) >>> (32 - T3_BITS);

export interface NgramModel {
  format: 'warden-char4-lm-v1';
  alphabet: string;
  t4: string;
  t3: string;
  bigram: string;
  trainedOn: { file: string; chars: number; sha256: string };
}

export interface LoadedNgram {
  t4: Uint8Array;
  t3: Uint8Array;
  bigram: Uint8Array;
  meta: NgramModel['trainedOn'];
}

export function loadNgram(m: NgramModel): LoadedNgram {
  if (m.format !== 'warden-char4-lm-v1' || m.alphabet !== ALPHABET) throw new Error('ngram model: unknown format or alphabet');
  const t4 = new Uint8Array(Buffer.from(m.t4, 'base64'));
  const t3 = new Uint8Array(Buffer.from(m.t3, 'base64'));
  const bigram = new Uint8Array(Buffer.from(m.bigram, 'base64'));
  if (t4.length !== 1 << T4_BITS || t3.length !== 1 << T3_BITS || bigram.length !== V * V) throw new Error('ngram model: tables have the wrong size');
  return { t4, t3, bigram, meta: m.trainedOn };
}

let shipped: LoadedNgram | undefined;
export function shippedNgram(): LoadedNgram {
  shipped ??= loadNgram(model as NgramModel);
  return shipped;
}

/** Scored characters per window. */
export const WINDOW = 40;

export interface SpanScore {
  /** Mean cost of the costliest window, in bits per character (0 when the text has fewer than WINDOW scored characters). */
  bitsPerChar: number;
  /** Its position in the text (UTF-16 offsets). */
  start: number;
  end: number;
  scored: number;
}

/**
 * Calls `visit(a, b, c, d, index)` for each scored character `d` of `text` (its symbol, the three
 * before it as context, its offset): runs of space count once, and another script or a skipped
 * token restarts the context. Training (scripts/train-ngram-lm.mjs) and scoring share it; training
 * reads code lines too (`skipCode` false: the model knows code's character sequences), scoring
 * leaves a text's code lines out.
 */
export function forEachScored(text: string, visit: (a: number, b: number, c: number, d: number, index: number) => void, skipCode = true): void {
  const symbols = toSymbols(text, skipCode);
  let a = 0;
  let b = 0;
  let c = 0;
  let previousWasSpace = true;
  for (let i = 0; i < symbols.length; i++) {
    const d = symbols[i] as number;
    if (d < 0) {
      a = 0;
      b = 0;
      c = 0;
      previousWasSpace = true;
      continue;
    }
    if (d === 0 && previousWasSpace) continue;
    previousWasSpace = d === 0;
    visit(a, b, c, d, i);
    a = b;
    b = c;
    c = d;
  }
}

/** The cost in bits of `d` after `a b c`. */
export function symbolCost(lm: LoadedNgram, a: number, b: number, c: number, d: number): number {
  const seen = lm.t4[hash4(a, b, c, d)] as number;
  if (seen > 0) return seen / COST_SCALE;
  const escape = lm.t3[hash3(a, b, c)] as number;
  return (escape > 0 ? escape / COST_SCALE : 0) + (lm.bigram[c * V + d] as number) / COST_SCALE;
}

/** The costliest window of `text` under the model; linear in the text. */
export function costliestSpan(text: string, lm: LoadedNgram = shippedNgram()): SpanScore {
  const costs = new Float32Array(WINDOW);
  const positions = new Int32Array(WINDOW);
  let n = 0;
  let sum = 0;
  let best = { bitsPerChar: 0, start: 0, end: 0 };
  forEachScored(text, (a, b, c, d, i) => {
    const cost = symbolCost(lm, a, b, c, d);
    const slot = n % WINDOW;
    if (n >= WINDOW) sum -= costs[slot] as number;
    costs[slot] = cost;
    positions[slot] = i;
    sum += cost;
    n++;
    if (n >= WINDOW && sum / WINDOW > best.bitsPerChar) {
      best = { bitsPerChar: sum / WINDOW, start: positions[(n - WINDOW) % WINDOW] as number, end: i + 1 };
    }
  });
  return { ...best, bitsPerChar: Number(best.bitsPerChar.toFixed(3)), scored: n };
}

/** Tuned on benign prose, code and tables against generated suffixes (docs/guardrails.md, "Measured quality"). */
export const DEFAULT_NGRAM_THRESHOLD = 6;

const parseParams = paramParser({
  /** Bits per character of the costliest window at or above which the text is flagged. */
  threshold: numberParam(DEFAULT_NGRAM_THRESHOLD, { min: 1, max: 32 }),
  // Dome's perplexity settings (GPT-2 model, batches, strides, perplexity thresholds on another scale).
  model_id: IGNORED,
  batch_size: IGNORED,
  stride_length: IGNORED,
  prefix_threshold: IGNORED,
  suffix_threshold: IGNORED,
  prefix_length: IGNORED,
  suffix_length: IGNORED,
});
export type NgramParams = ReturnType<typeof parseParams>;

const EXCERPT = 80;

export const jbNgramPerplexity: SyncDetectorDefinition<NgramParams> = {
  id: NGRAM_ID,
  type: 'security',
  description:
    'Optimised adversarial suffixes and other unnatural spans: the costliest 40-character window under a character 4-gram model of benign text (Latin script only)',
  parseParams: (raw) => {
    // Dome's `threshold` of jb-length-per-perplexity is a perplexity ratio (e.g. 89.79): ignored, as the model settings are.
    const own = { ...raw };
    if (typeof own.threshold === 'number' && (own.threshold < 1 || own.threshold > 32)) delete own.threshold;
    return parseParams(own);
  },
  detect(text, params) {
    const span = costliestSpan(text);
    const details = {
      bits_per_char: span.bitsPerChar,
      threshold: params.threshold,
      scored_chars: span.scored,
      ...(span.bitsPerChar > 0
        ? { span: { start: span.start, end: span.end }, excerpt: text.slice(span.start, Math.min(span.end, span.start + EXCERPT)) }
        : {}),
    };
    if (span.bitsPerChar < params.threshold) return clean(details);
    const score = Number(Math.min(1, 0.5 + (span.bitsPerChar - params.threshold) / 4).toFixed(4));
    return { hit: true, score, label: 'flagged', details };
  },
};
