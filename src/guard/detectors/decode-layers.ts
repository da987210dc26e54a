/**
 * Finds the plausible decodings of a text: base64 and hex runs, URL and ASCII escapes, Unicode
 * tag characters, ROT13 and reversed segments, leetspeak. The encoding detector reports them and
 * the injection detector reads them, so an instruction hidden behind an encoding is judged like a
 * plain one. Everything is bounded: the scanned prefix, the candidates per encoding, the layers,
 * the length of each decoding and the nesting depth.
 */
import { isUtf8 } from 'node:buffer';
import { foldLeet } from './text-normalize.js';

export type LayerEncoding = 'base64' | 'hex' | 'url_encoding' | 'ascii_escape' | 'unicode_tags' | 'rot13' | 'reversed' | 'leetspeak';

export interface DecodedLayer {
  encoding: LayerEncoding;
  /** The decoded text (at most MAX_LAYER_CHARS). */
  text: string;
  /** Length of the encoded source in the input. */
  sourceChars: number;
  /** 1 for a decoding of the input, 2 for a decoding of a decoding. */
  depth: number;
}

export const DECODE_LIMITS = {
  scanChars: 65_536,
  maxLayers: 8,
  maxCandidatesPerEncoding: 16,
  maxLayerChars: 4_096,
  maxDepth: 2,
} as const;

/** A base64 (standard or URL-safe) run of 16+ characters: a candidate payload. */
export const BASE64_RUN = /(?<![A-Za-z0-9+/_-])(?:[A-Za-z0-9+/]{16,}={0,2}|[A-Za-z0-9_-]{16,}={0,2})/g;
/** Six or more hex byte pairs, optionally `0x`/`\x`-prefixed and separated: a candidate payload. */
export const HEX_RUN = /(?<![0-9a-zA-Z])(?:(?:0x|\\x)?[0-9a-fA-F]{2}[ ,:]?){6,}/g;

const isAsciiAlnum = (c: number): boolean => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);

/**
 * Whether BASE64_RUN can match: some run of 16 characters of the base64 alphabets (either one) occurs.
 * A plain loop over the text, far cheaper than the regex with its look-behind, which is run only
 * when this says yes (ordinary prose has no such run).
 */
export function mayHaveBase64Run(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (isAsciiAlnum(c) || c === 43 || c === 47 || c === 95 || c === 45) {
      if (++run >= 16) return true;
    } else run = 0;
  }
  return false;
}

/** What every HEX_RUN match contains (six byte pairs, without the look-behind): run first, it is far cheaper. */
const HEX_PAIRS = /[0-9a-fA-F]{2}[ ,:]?(?:(?:0x|\\x)?[0-9a-fA-F]{2}[ ,:]?){5}/;
/** Whether HEX_RUN can match. Same role as mayHaveBase64Run. */
export function mayHaveHexRun(text: string): boolean {
  return HEX_PAIRS.test(text);
}

const URL_ESCAPE = /%[0-9a-fA-F]{2}/g;
const ASCII_ESCAPE = /\\x[0-9a-fA-F]{2}|\\u[0-9a-fA-F]{4}|\\u\{[0-9a-fA-F]{1,6}\}/g;
const TAG_CHAR = /\udb40[\udc20-\udc7e]/g;

/** A run longer than this is decoded from its start only. */
const MAX_RUN_CHARS = 8_192;

const utf8 = new TextDecoder('utf-8');

/**
 * Decoded bytes read as prose or code: valid UTF-8, no control characters but tab/newline, at
 * least 60 % letters or spaces and a run of three letters. Binary (hashes, keys, images) fails.
 */
export function looksLikeText(s: string): boolean {
  if (s.length < 4) return false;
  let letters = 0;
  let bad = 0;
  for (const ch of s) {
    const c = ch.codePointAt(0) as number;
    if ((c < 0x20 && c !== 9 && c !== 10 && c !== 13) || c === 0x7f || c === 0xfffd || (c >= 0x80 && c < 0xa0)) bad += 1;
    else if (/[\p{L}\s]/u.test(ch)) letters += 1;
  }
  return bad === 0 && letters / s.length >= 0.6 && /\p{L}{3}/u.test(s);
}

function decodeBytes(bytes: Uint8Array): string | undefined {
  // Checked first: most candidates (paths, identifiers, keys) are not UTF-8, and a throwing decode is costly.
  if (!isUtf8(bytes)) return undefined;
  const s = utf8.decode(bytes);
  return looksLikeText(s) ? s : undefined;
}

export function decodeBase64Run(run: string): string | undefined {
  let body = run.replace(/=+$/, '');
  if (body.length > MAX_RUN_CHARS) body = body.slice(0, MAX_RUN_CHARS);
  if (body.length < 16 || body.length % 4 === 1) return undefined;
  // A word of letters only (a long identifier, an English compound) is not a payload: base64 of
  // text mixes cases evenly.
  if (/^[A-Za-z]+$/.test(body)) {
    const upper = body.replace(/[a-z]/g, '').length;
    if (upper < body.length * 0.3 || upper > body.length * 0.7) return undefined;
  }
  return decodeBytes(Buffer.from(body.replace(/-/g, '+').replace(/_/g, '/'), 'base64'));
}

export function decodeHexRun(run: string): string | undefined {
  let digits = run.replace(/0x|\\x|[ ,:]/gi, '');
  if (digits.length > MAX_RUN_CHARS) digits = digits.slice(0, MAX_RUN_CHARS);
  if (digits.length < 12 || digits.length % 2 !== 0) return undefined;
  return decodeBytes(Buffer.from(digits, 'hex'));
}

function rot13(s: string): string {
  return s.replace(/[a-zA-Z]/g, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });
}

/** Frequent English words plus the vocabulary of injections: how much a segment reads as English. */
const COMMON = new Set(
  ('the be to of and a in that have i it for not on with he as you do at this but his by from they we say her she or an will my one all ' +
    'would there their what so up out if about who get which go me when make can like time no just him know take people into year your ' +
    'good some could them see other than then now look only come its over think also back after use two how our work first well way even ' +
    'new want because any these give day most us is are was were has had been did does said tell told before above previous prior ' +
    'instructions instruction ignore disregard forget rules system prompt password secret reveal print output say respond answer ' +
    'everything nothing must should please follow do not never always mode developer jailbreak restrictions bypass disable anything ' +
    'now here message text below write show me is my name what where why').split(' '),
);

/** Share of a segment's words that are common English words (0 when it has fewer than three words). */
export function englishWordShare(s: string): number {
  const words = s.toLowerCase().match(/[a-z]+/g);
  if (!words || words.length < 3) return 0;
  let hits = 0;
  for (const w of words) if (COMMON.has(w)) hits += 1;
  return hits / words.length;
}

/** A segment that reads far better after the transform than before it. */
function improves(original: string, transformed: string): boolean {
  const after = englishWordShare(transformed);
  return after >= 0.3 && after >= englishWordShare(original) + 0.2;
}

/** "the", "and", "you", "is", "of", "to", "it", "with", "for", "this", "your", "all" after ROT13, and reversed. */
const ROT13_OR_REVERSED_WORD = /\b(?:gur|naq|lbh|vf|bs|gb|vg|jvgu|sbe|guvf|lbhe|nyy|eht|dna|uoy|si|fo|ot|ti|htiw|rof|siht|ruoy|lla)\b/i;

function* segments(text: string): Generator<string> {
  // Quoted strings, lines and sentences: an encoded segment is usually one of these.
  for (const seg of text.split(/["'`“”«»\n]|(?<=[.!?:])\s/)) {
    const s = seg.trim();
    if (s.length >= 10 && /[a-zA-Z]{2}/.test(s)) yield s;
  }
}

function decodeEscapes(text: string, re: RegExp): string {
  return text.replace(re, (esc) => {
    const hex = esc.replace(/^\\x|^\\u\{?|\}$/g, '');
    const code = Number.parseInt(hex, 16);
    return code <= 0x10ffff ? String.fromCodePoint(code) : esc;
  });
}

function decodeUrl(text: string): string {
  return text.replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

function cap(s: string): string {
  return s.length > DECODE_LIMITS.maxLayerChars ? s.slice(0, DECODE_LIMITS.maxLayerChars) : s;
}

function layersAt(text: string, depth: number, out: DecodedLayer[]): void {
  const push = (encoding: LayerEncoding, decoded: string, sourceChars: number): boolean => {
    if (out.length >= DECODE_LIMITS.maxLayers) return false;
    out.push({ encoding, text: cap(decoded), sourceChars, depth });
    return true;
  };
  const full = out.length;

  let n = 0;
  for (const m of mayHaveBase64Run(text) ? text.matchAll(BASE64_RUN) : []) {
    if (n++ >= DECODE_LIMITS.maxCandidatesPerEncoding) break;
    const decoded = decodeBase64Run(m[0]);
    if (decoded !== undefined && !push('base64', decoded, m[0].length)) return;
  }
  n = 0;
  for (const m of mayHaveHexRun(text) ? text.matchAll(HEX_RUN) : []) {
    if (n++ >= DECODE_LIMITS.maxCandidatesPerEncoding) break;
    const decoded = decodeHexRun(m[0].trim());
    if (decoded !== undefined && !push('hex', decoded, m[0].length)) return;
  }
  const urlCount = text.match(URL_ESCAPE)?.length ?? 0;
  if (urlCount >= 3) {
    const decoded = decodeUrl(text);
    if (decoded !== text && !push('url_encoding', decoded, urlCount * 3)) return;
  }
  const escCount = text.match(ASCII_ESCAPE)?.length ?? 0;
  if (escCount >= 3) {
    const decoded = decodeEscapes(text, ASCII_ESCAPE);
    if (decoded !== text && !push('ascii_escape', decoded, escCount * 4)) return;
  }
  const tags = text.match(TAG_CHAR);
  if (tags && tags.length >= 3) {
    const decoded = tags.map((t) => String.fromCharCode((t.charCodeAt(1) - 0xdc00) & 0x7f)).join('');
    if (!push('unicode_tags', decoded, tags.length * 2)) return;
  }
  n = 0;
  // ROT13 or reversed English almost always contains a transformed common word: without one, the
  // per-segment check (the costly part on ordinary text) is skipped.
  const transformedWords = ROT13_OR_REVERSED_WORD.test(text);
  for (const seg of transformedWords ? segments(text) : []) {
    if (n++ >= DECODE_LIMITS.maxCandidatesPerEncoding * 4) break;
    if (englishWordShare(seg) >= 0.25) continue;
    const r = rot13(seg);
    if (improves(seg, r)) {
      if (!push('rot13', r, seg.length)) return;
      continue;
    }
    const rev = [...seg].reverse().join('');
    if (improves(seg, rev) && !push('reversed', rev, seg.length)) return;
  }
  if (depth === 1) {
    const leet = foldLeet(text);
    if (leet !== text) {
      const changed = (text.match(/[a-z][0-9@$|!]+[a-z]/gi) ?? []).length;
      if (changed >= 2 && !push('leetspeak', leet, text.length)) return;
    }
  }
  if (depth < DECODE_LIMITS.maxDepth) {
    const found = out.slice(full).filter((l) => l.encoding === 'base64' || l.encoding === 'hex' || l.encoding === 'rot13' || l.encoding === 'reversed');
    for (const layer of found) layersAt(layer.text, depth + 1, out);
  }
}

/**
 * The plausible decodings of `text` (none for ordinary prose). Reads at most
 * DECODE_LIMITS.scanChars of the input and returns at most DECODE_LIMITS.maxLayers layers.
 */
export function decodeLayers(text: string): readonly DecodedLayer[] {
  // A scan's methods decode the same text (encoding-heuristics, and prompt-injection-warden on a text of
  // one window): the last answer is kept, so it is computed once per scan. Layers are never mutated.
  if (text === lastDecoded.text) return lastDecoded.layers;
  const out: DecodedLayer[] = [];
  layersAt(text.length > DECODE_LIMITS.scanChars ? text.slice(0, DECODE_LIMITS.scanChars) : text, 1, out);
  for (const layer of out) Object.freeze(layer);
  lastDecoded = { text, layers: Object.freeze(out) };
  return lastDecoded.layers;
}
let lastDecoded: { text: string; layers: readonly DecodedLayer[] } = { text: '', layers: [] };
