/**
 * Keeping an agent's key out of what the connector answers (docs/connector.md, "Secrets").
 * The key is only ever written into the Authorization header; these helpers clean what comes
 * back, because an agent (or a proxy in front of it) may echo the request in its answer.
 */

import { keyView } from './key-view.js';

const REDACTED = '[redacted]';
const INVISIBLE = /[\p{Cf}\p{Mn}\p{Me}]/u;
/** A key shorter than this is not hunted inside free text (it would blank ordinary words). */
const MIN_SECRET_LENGTH = 4;
/** An error excerpt's word sharing this many consecutive characters with the key is blanked. */
const FRAGMENT_LENGTH = 8;

/** A spelling shorter than this, from base64 cut to the characters the key alone decides, is left alone (it could blank ordinary text). */
const MIN_SHIFTED_BASE64 = 12;

/**
 * The characters of base64 that only `bytes` decide, when `bytes` start `shift` bytes into a
 * longer encoded text: base64 is read in groups of three bytes, so a key echoed inside a
 * larger base64 blob (a proxy echoing the whole request) is spelled one of three ways.
 */
function shiftedBase64(bytes: Buffer, shift: 0 | 1 | 2, url: boolean): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(url ? 'base64url' : 'base64').replace(/=+$/, '');
  const whole = (shift + bytes.length) % 3 === 0;
  return encoded.slice([0, 2, 3][shift], whole ? undefined : -1);
}

const rot13 = (text: string) =>
  text.replace(/[a-z]/gi, (c) => {
    const base = c <= 'Z' ? 65 : 97;
    return String.fromCharCode(((c.charCodeAt(0) - base + 13) % 26) + base);
  });

/** The view of the key and of its spellings, with the same folding as the text's (`keyView`). */
const compact = (text: string) => keyView(text, false).exact;

/** Parts of the key this long (letters and digits), or the whole key when it is shorter, are masked wherever they appear. */
export const MIN_KEY_PART = 8;

interface KeyPatterns {
  /** Matched in the case-kept view: base64 spellings. */
  exact: string[];
  /** Matched in the lower-case view: the key, reversed, ROT13, hexadecimal. */
  lower: string[];
  /** Every run of `partLength` characters of the key, reversed and ROT13 (lower case): halves and other parts. */
  parts: Set<string>;
  partLength: number;
}

/**
 * The spellings of `secret` an echo may use, folded as `keyView` folds text: the key (in any
 * case, with anything but its letters and digits dropped, so also JSON-escaped, URL-encoded,
 * HTML entities…), base64 (also of `Bearer …`, and inside a longer base64 text), hexadecimal,
 * reversed and ROT13 (the encodings an agent may be asked to answer in), and every part of
 * `MIN_KEY_PART` characters of the key, reversed or ROT13.
 */
function keyPatterns(secret: string): KeyPatterns | null {
  const key = keyView(secret, false).lower;
  if (key.length < MIN_SECRET_LENGTH) return null;
  const exact = new Set<string>();
  for (const plain of [secret, `Bearer ${secret}`]) {
    const b64 = Buffer.from(plain).toString('base64');
    exact.add(compact(b64));
    exact.add(compact(Buffer.from(plain).toString('base64url')));
  }
  const bytes = Buffer.from(secret);
  for (const shift of [0, 1, 2] as const) {
    for (const url of [false, true]) {
      const form = compact(shiftedBase64(bytes, shift, url));
      if (form.length >= MIN_SHIFTED_BASE64) exact.add(form);
    }
  }
  const reversed = [...key].reverse().join('');
  const lower = new Set<string>([key, reversed, rot13(key), bytes.toString('hex')]);
  const partLength = Math.min(MIN_KEY_PART, key.length);
  const parts = new Set<string>();
  for (const form of [key, reversed, rot13(key)]) {
    for (let i = 0; i + partLength <= form.length; i++) parts.add(form.slice(i, i + partLength));
  }
  return {
    exact: [...exact].filter((form) => form.length >= MIN_SECRET_LENGTH),
    lower: [...lower].filter((form) => form.length >= MIN_SECRET_LENGTH),
    parts,
    partLength,
  };
}

const POLY_BASE = 131;

/** A polynomial hash of `length` characters, wrapped to 32 bits (Math.imul): collisions only cost a string comparison. */
function polyHash(text: string, from: number, length: number): number {
  let hash = 0;
  for (let i = from; i < from + length; i++) hash = (Math.imul(hash, POLY_BASE) + text.charCodeAt(i)) | 0;
  return hash;
}

function partHashes(parts: Set<string>, length: number): Set<number> {
  const hashes = new Set<number>();
  for (const part of parts) hashes.add(polyHash(part, 0, length));
  return hashes;
}

/** Ranges [from, to) of `view` that are one of `parts` (all of `length` characters, hashed in `hashes`): a rolling hash, linear in the view. */
function partRanges(view: string, parts: Set<string>, hashes: Set<number>, length: number, out: Array<[number, number]>) {
  if (view.length < length) return;
  let top = 1;
  for (let i = 1; i < length; i++) top = Math.imul(top, POLY_BASE);
  let hash = polyHash(view, 0, length);
  for (let i = 0; ; i++) {
    if (hashes.has(hash) && parts.has(view.slice(i, i + length))) out.push([i, i + length]);
    if (i + length >= view.length) break;
    hash = (Math.imul((hash - Math.imul(view.charCodeAt(i), top)) | 0, POLY_BASE) + view.charCodeAt(i + length)) | 0;
  }
}

function formRanges(view: string, forms: string[], out: Array<[number, number]>) {
  for (const form of forms) {
    for (let at = view.indexOf(form); at !== -1; at = view.indexOf(form, at + 1)) out.push([at, at + form.length]);
  }
}

/**
 * `text` with every spelling of `secret` replaced by "[redacted]" (docs/connector.md, "Secrets"):
 * matched in the text's letters and digits (`keyView`), each match then masks the original
 * characters from its first to its last, so the separators, invisible characters and entities
 * between them go with it and nothing around it does. Linear in the text.
 */
export function redactSecret(text: string, secret: string | null | undefined): string {
  return secretRedactor(secret)(text);
}

/**
 * `redactSecret` for one key and many texts (every string of an answer): the key's spellings
 * are worked out once per key and kept for the last `REDACTORS_KEPT` keys used (each gateway
 * call would otherwise spend a tenth of its time on them). They live only in this process's
 * memory, as the key itself does while its calls run.
 */
export function secretRedactor(secret: string | null | undefined): (text: string) => string {
  if (!secret || secret.length < MIN_SECRET_LENGTH) return (text) => text;
  let redactor = redactors.get(secret);
  if (redactor !== undefined) {
    // Most recently used last: the first entry is the one to drop.
    redactors.delete(secret);
    redactors.set(secret, redactor);
    return redactor;
  }
  const patterns = keyPatterns(secret);
  // A key of (almost) no letters or digits: only its literal spellings are hunted.
  if (patterns === null) redactor = (text) => literalRedact(text, secret);
  else {
    const hashes = partHashes(patterns.parts, patterns.partLength);
    redactor = (text) => (text === '' ? text : redactWith(text, secret, patterns, hashes));
  }
  redactors.set(secret, redactor);
  if (redactors.size > REDACTORS_KEPT) redactors.delete(redactors.keys().next().value!);
  return redactor;
}

const REDACTORS_KEPT = 256;
const redactors = new Map<string, (text: string) => string>();

function redactWith(text: string, secret: string, patterns: KeyPatterns, hashes: Set<number>): string {
  const view = keyView(text);
  const ranges: Array<[number, number]> = [];
  formRanges(view.exact, patterns.exact, ranges);
  const base64Ends = new Set(ranges.map((range) => range[1]));
  formRanges(view.lower, patterns.lower, ranges);
  partRanges(view.lower, patterns.parts, hashes, patterns.partLength, ranges);
  if (ranges.length === 0) return literalRedact(text, secret);
  ranges.sort((a, b) => a[0] - b[0]);
  let out = '';
  let copied = 0;
  for (let r = 0; r < ranges.length; ) {
    const from = view.start[ranges[r]![0]]!;
    let last = ranges[r]![1];
    // Ranges that overlap or meet in the view (only separators between them in the text) are one mask.
    for (r++; r < ranges.length && ranges[r]![0] <= last; r++) last = Math.max(last, ranges[r]![1]);
    let to = view.end[last - 1]!;
    // A base64 spelling takes its padding with it.
    if (base64Ends.has(last)) for (let pad = 0; pad < 2 && text[to] === '='; pad++) to += 1;
    // Invisible characters right after the last one (a bidi control closing the key) go with it.
    while (to < text.length && INVISIBLE.test(text[to]!)) to += 1;
    if (from < copied) {
      copied = Math.max(copied, to);
      continue;
    }
    out += text.slice(copied, from) + REDACTED;
    copied = to;
  }
  return literalRedact(out + text.slice(copied), secret);
}

/** The key as it is (for keys whose letters and digits are too few to hunt in the view). */
function literalRedact(text: string, secret: string): string {
  return text.split(secret).join(REDACTED);
}

function sharesFragment(word: string, secret: string): boolean {
  const size = Math.min(FRAGMENT_LENGTH, secret.length);
  if (word.length < size) return false;
  for (let i = 0; i + size <= secret.length; i++) {
    if (word.includes(secret.slice(i, i + size))) return true;
  }
  return false;
}

/**
 * A short, one-line excerpt of an agent's error body for a person: control characters and
 * runs of space collapsed, cut at `max` characters, the key redacted, and any word that shares
 * a run of 8 characters with the key blanked too (a partly masked echo such as `sk-abc…wxyz`).
 */
export function bodyExcerpt(body: string, secret: string | null | undefined, max = 160): string {
  let text = redactSecret(body, secret)
    .replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (secret && secret.length >= MIN_SECRET_LENGTH) {
    text = text
      .split(/([\s"'`,;:=()[\]{}<>]+)/)
      .map((word) => (sharesFragment(word, secret) ? REDACTED : word))
      .join('');
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
