/**
 * `encoding-heuristics` (Vijil Dome's method id): encoded or obfuscated payloads. As in Dome, each
 * encoding measures the share of the text it covers and the text is flagged when a share reaches
 * that encoding's threshold (`threshold_map`). Unlike Dome, a base64/hex run only counts when it
 * decodes to text (so hashes and keys do not), look-alike letters only count inside disguised
 * words (so Russian or Greek prose does not), and a partial `threshold_map` is merged with the
 * defaults instead of replacing them (docs/guardrails.md).
 */
import { GuardConfigError, type DetectionResult, type DetectorDefinition } from '../types.js';
import {
  BASE64_RUN,
  decodeBase64Run,
  decodeHexRun,
  decodeLayers,
  englishWordShare,
  HEX_RUN,
  mayHaveBase64Run,
  mayHaveHexRun,
  type DecodedLayer,
} from './decode-layers.js';
import { CYRILLIC_HOMOGLYPHS, GREEK_HOMOGLYPHS, isDisguisedWord, isLeetToken, latinDominant, leetCore, leetRunBounds } from './text-normalize.js';
import { jwtSpans } from './secret-rules.js';

export { DECODE_LIMITS, decodeLayers, type DecodedLayer } from './decode-layers.js';

/** Dome's keys and defaults, then Warden's additions. */
export const DEFAULT_THRESHOLD_MAP = {
  base64: 0.7,
  rot13: 0.7,
  ascii_escape: 0.05,
  hex_encoding: 0.15,
  url_encoding: 0.15,
  cyrillic_homoglyphs: 0.05,
  mixed_scripts: 0.05,
  zero_width: 0.01,
  excessive_whitespace: 0.4,
  greek_homoglyphs: 0.05,
  unicode_tags: 0.001,
  bidi_override: 0.001,
  leetspeak: 0.15,
  styled_letters: 0.2,
} as const;

export type EncodingKind = keyof typeof DEFAULT_THRESHOLD_MAP;
export type ThresholdMap = Record<EncodingKind, number>;
export interface EncodingHeuristicsParams {
  threshold_map: ThresholdMap;
}

/** The longest text measured: its head and tail (a payload is usually at one end). */
export const ENCODING_SCAN_CHARS = 65_536;

const KINDS = Object.keys(DEFAULT_THRESHOLD_MAP) as EncodingKind[];

export function parseEncodingParams(raw: Record<string, unknown>): EncodingHeuristicsParams {
  const unknown = Object.keys(raw).filter((k) => k !== 'threshold_map');
  if (unknown.length > 0) throw new GuardConfigError([unknown[0] as string], `unknown parameter(s): ${unknown.join(', ')}`);
  const threshold_map: ThresholdMap = { ...DEFAULT_THRESHOLD_MAP };
  const given = raw.threshold_map;
  if (given === undefined || given === null) return { threshold_map };
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new GuardConfigError(['threshold_map'], 'threshold_map must be an object of encoding → threshold');
  }
  for (const [key, value] of Object.entries(given as Record<string, unknown>)) {
    if (!(KINDS as string[]).includes(key)) {
      throw new GuardConfigError(['threshold_map', key], `unknown encoding "${key}"; known: ${KINDS.join(', ')}`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0 || value > 1) {
      throw new GuardConfigError(['threshold_map', key], 'a threshold is a number between 0 and 1');
    }
    threshold_map[key as EncodingKind] = value;
  }
  return { threshold_map };
}

const ZERO_WIDTH = /[\u200b-\u200d\u2060-\u2064\ufeff\u180e\u00ad\u034f]/g;
const TAG_CHAR = /\udb40[\udc00-\udc7f]/g;
/** A subdivision flag (🏴 + tag letters + cancel tag) is the one legitimate use of tag characters. */
const FLAG_TAG_SEQUENCE = /\ud83c\udff4(?:\udb40[\udc61-\udc7a]){2,7}\udb40\udc7f/g;
const BIDI_OVERRIDE = /[\u202d\u202e]/g;
const ASCII_ESCAPE = /\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}/g;
const WORD = /[\p{L}\p{M}]+/gu;
const JOINER_CONTEXT = new RegExp(
  '[\\p{Extended_Pictographic}\\u{1f3fb}-\\u{1f3ff}\\p{Script=Arabic}\\p{Script=Hebrew}\\p{Script=Devanagari}\\p{Script=Bengali}' +
    '\\p{Script=Malayalam}\\p{Script=Tamil}\\p{Script=Telugu}\\p{Script=Kannada}\\p{Script=Sinhala}]',
  'u',
);

const URL_ESCAPE_RUN = /(?:%[0-9a-fA-F]{2}){1,1024}/g;

/**
 * Characters of `%NN` escapes, except a run that decodes to one non-ASCII character: that is how a URL carries a
 * letter or sign of another script ("caf%C3%A9", "%E2%82%AC"), and one character carries no instruction. A run of
 * several such characters, or escaped ASCII, counts.
 */
function measureUrlEscapes(text: string): number {
  if (!text.includes('%')) return 0;
  let n = 0;
  for (const m of text.matchAll(URL_ESCAPE_RUN)) {
    const run = m[0];
    if (run.length >= 6 && run.length <= 12) {
      let decoded: string | undefined;
      try {
        decoded = decodeURIComponent(run);
      } catch {
        decoded = undefined;
      }
      if (decoded !== undefined && [...decoded].length === 1 && decoded.charCodeAt(0) > 0x7f) continue;
    }
    n += run.length;
  }
  return n;
}

function sumLengths(text: string, re: RegExp): number {
  let n = 0;
  for (const m of text.matchAll(re)) n += m[0].length;
  return n;
}

/** Zero-width characters, except joiners inside emoji sequences and in scripts that need them. */
function countZeroWidth(text: string): number {
  let n = 0;
  for (const m of text.matchAll(ZERO_WIDTH)) {
    const i = m.index;
    const ch = m[0];
    if (ch === '\ufeff' && i === 0) continue;
    if (ch === '\u200c' || ch === '\u200d') {
      // Two code units either side: an emoji is a surrogate pair.
      if (JOINER_CONTEXT.test(text.slice(Math.max(0, i - 2), i)) || JOINER_CONTEXT.test(text.slice(i + 1, i + 3))) continue;
    }
    n += 1;
  }
  return n;
}

function measureScripts(text: string): { cyrillic: number; greek: number; mixed: number } {
  const out = { cyrillic: 0, greek: 0, mixed: 0 };
  if (!/[\u0370-\u03ff\u0400-\u052f]/.test(text)) return out;
  const latinText = latinDominant(text);
  for (const m of text.matchAll(WORD)) {
    const word = m[0];
    if (!isDisguisedWord(word, latinText)) continue;
    out.mixed += word.length;
    let cyr = 0;
    let gr = 0;
    for (const ch of word) {
      if (CYRILLIC_HOMOGLYPHS[ch] !== undefined) cyr += 1;
      else if (GREEK_HOMOGLYPHS[ch] !== undefined) gr += 1;
    }
    if (cyr > 0) out.cyrillic += word.length;
    if (gr > 0) out.greek += word.length;
  }
  return out;
}

const SPACED_RUN = /(?<![\p{L}\p{N}])[\p{L}\p{N}](?:[^\S\n]{1,3}[\p{L}\p{N}](?![\p{L}\p{N}])){3,}/gu;
const WIDE_GAP = /(?<=\S)[^\S\n]{4,}(?=\S)/g;
const NON_ASCII = /[^\x00-\x7f]/;
const isAsciiAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isAsciiBlank = (c: number): boolean => c === 32 || c === 9 || c === 11 || c === 12 || c === 13;

/**
 * On ASCII text, whether SPACED_RUN or WIDE_GAP can match (four one-character words 1–3 blanks apart;
 * four blanks in a row), by one pass over the character codes: ordinary text has neither, and the
 * Unicode regexes are run only when this says yes (or on text with other characters).
 */
function asciiSpacingCues(text: string): { spaced: boolean; gap: boolean } {
  let spaced = false;
  let gap = false;
  let blanks = 0;
  let singles = 0;
  for (let i = 0; i < text.length && !(spaced && gap); i += 1) {
    const c = text.charCodeAt(i);
    if (isAsciiBlank(c)) {
      if (++blanks >= 4) gap = true;
      continue;
    }
    if (isAsciiAlnum(c) && !isAsciiAlnum(text.charCodeAt(i - 1)) && !isAsciiAlnum(text.charCodeAt(i + 1))) {
      // A one-character word: it continues a run when 1–3 blanks separate it from the previous one.
      singles = singles > 0 && blanks >= 1 && blanks <= 3 ? singles + 1 : 1;
      if (singles >= 4) spaced = true;
    } else singles = 0;
    blanks = 0;
  }
  return { spaced, gap };
}

/** Characters in letter-spaced runs ("i g n o r e") plus whitespace runs of 4+ inside a line. */
function measureWhitespace(text: string): number {
  const cues = NON_ASCII.test(text) ? { spaced: true, gap: true } : asciiSpacingCues(text);
  let n = 0;
  if (cues.spaced) for (const m of text.matchAll(SPACED_RUN)) n += m[0].length;
  if (cues.gap) for (const m of text.matchAll(WIDE_GAP)) n += m[0].length;
  return n;
}

/** E-mail addresses and URLs: their `@`, digits and `$` are not letter substitutes. */
const ADDRESSES = /[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63}){1,8}|\bhttps?:\/\/[^\s<>"]{1,2048}/gi;

function measureLeet(text: string, jwts: ReadonlyArray<readonly [number, number]>): number {
  // Most texts have no run mixing letters with digits or `@$|!`: then there is nothing to measure.
  if (leetRunBounds(text).length === 0) return 0;
  let t = text;
  for (let k = jwts.length - 1; k >= 0; k -= 1) t = `${t.slice(0, jwts[k]![0])} ${t.slice(jwts[k]![1])}`;
  t = t.replace(ADDRESSES, ' ');
  let n = 0;
  for (const [start, end] of leetRunBounds(t)) {
    const { word } = leetCore(t.slice(start, end));
    if (isLeetToken(word)) n += word.length;
  }
  return n;
}

function measureStyled(text: string): number {
  let n = 0;
  // Fullwidth forms, mathematical alphanumerics, enclosed letters: NFKC turns them into ASCII.
  for (const m of text.matchAll(/[\uff01-\uff5e\u24b6-\u24e9]|\ud835[\udc00-\udfff]/g)) if (/^[a-z0-9]$/i.test(m[0].normalize('NFKC'))) n += 1;
  return n;
}

function measureRot13(text: string, layers: readonly DecodedLayer[]): number {
  let n = 0;
  for (const l of layers) if ((l.encoding === 'rot13' || l.encoding === 'reversed') && l.depth === 1) n += l.sourceChars;
  if (n === 0) return 0;
  return englishWordShare(text) >= 0.3 ? 0 : Math.min(n, text.length);
}

export interface EncodingMeasure {
  encoding: EncodingKind;
  count: number;
  fraction: number;
  threshold: number;
}

/** The covered share of each encoding in `text` (already capped by the caller). */
export function measureEncodings(text: string, layers: readonly DecodedLayer[], thresholds: ThresholdMap): EncodingMeasure[] {
  const total = Math.max(text.length, 1);
  let base64 = 0;
  // A JSON Web Token is base64 by its format, not to hide anything, nor leetspeak (its decoded parts are still
  // judged by the injection methods, through decodeLayers).
  const maybeBase64 = mayHaveBase64Run(text);
  const jwts = maybeBase64 ? jwtSpans(text) : [];
  const inJwt = (at: number) => jwts.some(([s, e]) => at >= s && at < e);
  for (const m of maybeBase64 ? text.matchAll(BASE64_RUN) : []) {
    if (!inJwt(m.index) && decodeBase64Run(m[0]) !== undefined) base64 += m[0].length;
  }
  let hex = 0;
  for (const m of mayHaveHexRun(text) ? text.matchAll(HEX_RUN) : []) if (decodeHexRun(m[0].trim()) !== undefined) hex += m[0].length;
  const tagText = text.replace(FLAG_TAG_SEQUENCE, '');
  const scripts = measureScripts(text);
  const counts: Record<EncodingKind, number> = {
    base64,
    rot13: measureRot13(text, layers),
    ascii_escape: sumLengths(text, ASCII_ESCAPE),
    hex_encoding: hex,
    url_encoding: measureUrlEscapes(text),
    cyrillic_homoglyphs: scripts.cyrillic,
    mixed_scripts: scripts.mixed,
    zero_width: countZeroWidth(text),
    excessive_whitespace: measureWhitespace(text),
    greek_homoglyphs: scripts.greek,
    unicode_tags: (tagText.match(TAG_CHAR)?.length ?? 0) * 2,
    bidi_override: text.match(BIDI_OVERRIDE)?.length ?? 0,
    leetspeak: measureLeet(text, jwts),
    styled_letters: measureStyled(text),
  };
  return KINDS.map((encoding) => ({ encoding, count: counts[encoding], fraction: counts[encoding] / total, threshold: thresholds[encoding] }));
}

function capText(text: string): string {
  if (text.length <= ENCODING_SCAN_CHARS) return text;
  const head = Math.floor(ENCODING_SCAN_CHARS * 0.75);
  return `${text.slice(0, head)}\n${text.slice(text.length - (ENCODING_SCAN_CHARS - head))}`;
}

const EXCERPT_CHARS = 200;

export function detectEncodings(text: string, params: EncodingHeuristicsParams): DetectionResult {
  const scanned = capText(text);
  const layers = decodeLayers(scanned);
  const measures = measureEncodings(scanned, layers, params.threshold_map);
  let score = 0;
  const detected: string[] = [];
  for (const m of measures) {
    if (m.count === 0) continue;
    const ratio = m.threshold === 0 ? 1 : m.fraction / m.threshold;
    score = Math.max(score, Math.min(1, ratio));
    if (ratio >= 1) detected.push(m.encoding);
  }
  const details: Record<string, unknown> = {
    detected_encodings: detected,
    measures: measures.filter((m) => m.count > 0).map((m) => ({ ...m, fraction: Number(m.fraction.toFixed(4)) })),
    decoded: layers.filter((l) => l.encoding !== 'leetspeak').map((l) => ({ encoding: l.encoding, depth: l.depth, excerpt: l.text.slice(0, EXCERPT_CHARS) })),
    scanned_chars: scanned.length,
    truncated: scanned.length < text.length,
  };
  const hit = detected.length > 0;
  return { hit, score: Number(score.toFixed(4)), label: hit ? 'flagged' : 'clean', details };
}

export const encodingHeuristics: DetectorDefinition<EncodingHeuristicsParams> = {
  id: 'encoding-heuristics',
  type: 'security',
  description:
    'Encoded or obfuscated payloads: base64, hex, ROT13, URL/ASCII escapes, leetspeak, invisible and tag characters, look-alike letters, spaced-out text',
  parseParams: parseEncodingParams,
  detect: (text, params) => detectEncodings(text, params),
};
