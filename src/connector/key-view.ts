/**
 * The text an agent answered, seen the way a person reads it: the letters and digits alone,
 * with HTML/XML entities, URL-encoding and `\u`/`\x` escapes decoded, compatibility forms
 * folded (NFKD: full-width letters, ligatures), and everything else dropped — invisible
 * characters (zero-width, bidi controls, soft hyphen, tags, combining marks), spaces, line
 * breaks and punctuation (dashes, dots, underscores…). Each character of the view remembers
 * the span of the original text it came from, so a match in the view masks exactly the
 * original characters that spelled it (docs/connector.md, "Secrets"). Linear in the text.
 */
export interface KeyView {
  /** The letters and digits, case kept (base64 is case-sensitive). */
  exact: string;
  /** The same, lower-cased character by character (same length as `exact`). */
  lower: string;
  /** Where each character of the view comes from in the original text: [start[i], end[i]). */
  start: Int32Array;
  end: Int32Array;
}

/** Named entities of the characters a key is made of (ASCII); letters and digits have none in HTML. */
const NAMED_ENTITIES: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', sol: '/', bsol: '\\', period: '.', lowbar: '_', UnderBar: '_',
  hyphen: '-', dash: '-', minus: '-', plus: '+', equals: '=', colon: ':', semi: ';', comma: ',', excl: '!', quest: '?',
  num: '#', dollar: '$', percnt: '%', ast: '*', midast: '*', lpar: '(', rpar: ')', lsqb: '[', rsqb: ']', lbrack: '[',
  rbrack: ']', lcub: '{', rcub: '}', lbrace: '{', rbrace: '}', verbar: '|', vert: '|', VerticalLine: '|', grave: '`',
  Hat: '^', commat: '@', tilde: '~', shy: '\u00ad', zwj: '\u200d', zwnj: '\u200c', lrm: '\u200e', rlm: '\u200f',
  NewLine: '\n', Tab: '\t',
};

const ENTITY = /&(?:#([0-9]{1,7})|#[xX]([0-9a-fA-F]{1,6})|([A-Za-z]{2,31}));?/y;
const ESCAPE = /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|x([0-9a-fA-F]{2}))/y;
const PERCENT = /%([0-9a-fA-F]{2})/y;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

const isAsciiAlnum = (code: number) => (code >= 48 && code <= 57) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);

/** A code point decoded from `text` at `at` (an entity, an escape, a %-sequence), with its length; null when none starts there. */
function decodedAt(text: string, at: number): { value: string; length: number } | null {
  const head = text.charCodeAt(at);
  if (head === 38 /* & */) {
    ENTITY.lastIndex = at;
    const m = ENTITY.exec(text);
    if (m === null) return null;
    if (m[3] !== undefined) {
      const named = NAMED_ENTITIES[m[3]];
      // A named entity needs its semicolon (HTML reads "&ampx" loosely, but "&copy" in prose is not a key).
      return named !== undefined && m[0].endsWith(';') ? { value: named, length: m[0].length } : null;
    }
    const code = m[1] !== undefined ? Number.parseInt(m[1], 10) : Number.parseInt(m[2]!, 16);
    return code > 0x10ffff ? null : { value: String.fromCodePoint(code), length: m[0].length };
  }
  if (head === 92 /* \ */) {
    ESCAPE.lastIndex = at;
    const m = ESCAPE.exec(text);
    if (m === null) return null;
    const code = Number.parseInt(m[1] ?? m[2] ?? m[3]!, 16);
    return code > 0x10ffff ? null : { value: String.fromCodePoint(code), length: m[0].length };
  }
  if (head === 37 /* % */) {
    // One UTF-8 sequence of %XX bytes (its lead byte says how many).
    const bytes: number[] = [];
    let cursor = at;
    for (let want = 1; bytes.length < want; ) {
      PERCENT.lastIndex = cursor;
      const m = PERCENT.exec(text);
      if (m === null) return null;
      const byte = Number.parseInt(m[1]!, 16);
      if (bytes.length === 0) want = byte < 0x80 ? 1 : byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 0;
      if (want === 0) return null;
      bytes.push(byte);
      cursor += 3;
    }
    try {
      const value = new TextDecoder('utf-8', { fatal: true }).decode(Uint8Array.from(bytes));
      return { value, length: cursor - at };
    } catch {
      return null;
    }
  }
  return null;
}

/** Builds the view: character codes and spans in typed arrays (grown when NFKD expands a character). */
class ViewBuilder {
  exact: Uint16Array;
  lower: Uint16Array;
  start: Int32Array;
  end: Int32Array;
  length = 0;

  constructor(capacity: number) {
    const size = Math.max(16, capacity);
    this.exact = new Uint16Array(size);
    this.lower = new Uint16Array(size);
    this.start = new Int32Array(size);
    this.end = new Int32Array(size);
  }

  private grow(capacity: number) {
    const copy = <T extends Uint16Array | Int32Array>(from: T, make: (n: number) => T) => {
      const to = make(capacity);
      to.set(from.subarray(0, this.length));
      return to;
    };
    this.exact = copy(this.exact, (n) => new Uint16Array(n));
    this.lower = copy(this.lower, (n) => new Uint16Array(n));
    this.start = copy(this.start, (n) => new Int32Array(n));
    this.end = copy(this.end, (n) => new Int32Array(n));
  }

  push(exact: number, lower: number, from: number, to: number) {
    if (this.length === this.exact.length) this.grow(this.length * 2);
    this.exact[this.length] = exact;
    this.lower[this.length] = lower;
    this.start[this.length] = from;
    this.end[this.length] = to;
    this.length += 1;
  }

  view(): KeyView {
    // The code units read as UTF-16 in one native decode (on a little-endian machine; else through a spread).
    const text = (codes: Uint16Array) =>
      LITTLE_ENDIAN ? Buffer.from(codes.buffer, codes.byteOffset, this.length * 2).toString('utf16le') : spread(codes, this.length);
    return { exact: text(this.exact), lower: text(this.lower), start: this.start.subarray(0, this.length), end: this.end.subarray(0, this.length) };
  }
}

const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function spread(codes: Uint16Array, length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 8192) out += String.fromCharCode(...codes.subarray(i, Math.min(i + 8192, length)));
  return out;
}

const lowerAscii = (code: number) => (code >= 65 && code <= 90 ? code + 32 : code);

/** `decode: false` reads entities and escapes as the characters they are written with (for the key itself). */
export function keyView(text: string, decode = true): KeyView {
  const out = new ViewBuilder(text.length);

  const emit = (value: string, from: number, to: number) => {
    for (const char of value) {
      const code = char.charCodeAt(0);
      if (code < 128) {
        if (isAsciiAlnum(code)) out.push(code, lowerAscii(code), from, to);
        continue;
      }
      // NFKD folds full-width letters and ligatures and splits accents off; what is not a letter or digit then goes.
      for (const part of char.normalize('NFKD')) {
        if (!LETTER_OR_DIGIT.test(part)) continue;
        const folded = part.toLowerCase();
        const kept = folded.length === part.length ? folded : part;
        for (let k = 0; k < part.length; k++) out.push(part.charCodeAt(k), kept.charCodeAt(k), from, to);
      }
    }
  };

  for (let i = 0; i < text.length; ) {
    const code = text.charCodeAt(i);
    if (code < 128 && isAsciiAlnum(code)) {
      out.push(code, lowerAscii(code), i, i + 1);
      i += 1;
      continue;
    }
    if (decode && (code === 38 || code === 92 || code === 37)) {
      const decoded = decodedAt(text, i);
      if (decoded !== null) {
        emit(decoded.value, i, i + decoded.length);
        i += decoded.length;
        continue;
      }
    }
    const width = code >= 0xd800 && code <= 0xdbff && i + 1 < text.length ? 2 : 1;
    if (code >= 128) emit(text.slice(i, i + width), i, i + width);
    i += width;
  }
  return out.view();
}
