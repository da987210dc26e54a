/**
 * Text normalisation shared by the security detectors. Attackers hide instructions from keyword
 * rules with look-alike letters, invisible characters, leetspeak and spaced-out letters; the rules
 * and the classifier therefore see a folded form of the text, while the encoding detector measures
 * how much of the original needed folding.
 *
 * Every function here is linear in its input (no backtracking-prone regex is run over it).
 */

/**
 * Invisible format characters that carry no meaning in a prompt: zero-width space / joiners,
 * word joiner, invisible operators, BOM, soft hyphen, Mongolian vowel separator, combining
 * grapheme joiner, bidi embeddings/overrides/isolates and marks, variation selectors, and the
 * Unicode tag block (U+E0000–U+E007F) used for "ASCII smuggling".
 */
const INVISIBLE = new RegExp(
  '[\\u00ad\\u034f\\u061c\\u115f\\u1160\\u17b4\\u17b5\\u180e\\u200b-\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f' +
    '\\u3164\\ufe00-\\ufe0f\\ufeff\\uffa0]|\\udb40[\\udc00-\\udc7f]',
  'g',
);

export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '');
}

/** Cyrillic, Greek and a few other letters that render like a Latin letter (both cases). */
export const CYRILLIC_HOMOGLYPHS: Readonly<Record<string, string>> = {
  а: 'a', в: 'b', е: 'e', ё: 'e', к: 'k', м: 'm', н: 'h', о: 'o', р: 'p', с: 'c', т: 't', у: 'y', х: 'x',
  і: 'i', ї: 'i', ј: 'j', ѕ: 's', һ: 'h', ԁ: 'd', ԛ: 'q', ԝ: 'w', ү: 'y', ӏ: 'l', ɡ: 'g', п: 'n', г: 'r',
  А: 'a', В: 'b', Е: 'e', Ё: 'e', К: 'k', М: 'm', Н: 'h', О: 'o', Р: 'p', С: 'c', Т: 't', У: 'y', Х: 'x',
  І: 'i', Ї: 'i', Ј: 'j', Ѕ: 's', Һ: 'h', Ԁ: 'd', Ԛ: 'q', Ԝ: 'w', Ү: 'y', Ӏ: 'l',
};
export const GREEK_HOMOGLYPHS: Readonly<Record<string, string>> = {
  α: 'a', β: 'b', ε: 'e', η: 'n', ι: 'i', κ: 'k', ν: 'v', ο: 'o', ρ: 'p', τ: 't', υ: 'u', χ: 'x', γ: 'y', ω: 'w',
  Α: 'a', Β: 'b', Ε: 'e', Ζ: 'z', Η: 'h', Ι: 'i', Κ: 'k', Μ: 'm', Ν: 'n', Ο: 'o', Ρ: 'p', Τ: 't', Υ: 'y', Χ: 'x',
};
const OTHER_HOMOGLYPHS: Readonly<Record<string, string>> = { օ: 'o', ս: 'u', ɑ: 'a', ı: 'i', ȷ: 'j', ℓ: 'l' };
const HOMOGLYPHS: Readonly<Record<string, string>> = { ...CYRILLIC_HOMOGLYPHS, ...GREEK_HOMOGLYPHS, ...OTHER_HOMOGLYPHS };

const CYRILLIC = /\p{Script=Cyrillic}/u;
const GREEK = /\p{Script=Greek}/u;
const WORD = /[\p{L}\p{M}]+/gu;

/** Counts of Latin vs Cyrillic+Greek letters: decides whether an all-look-alike word is a disguise or a real word. */
export function latinDominant(text: string): boolean {
  let latin = 0;
  let other = 0;
  for (const m of text.matchAll(/[a-zA-Z]|[\u0370-\u03ff\u0400-\u04ff]/g)) {
    if (m[0] <= 'z') latin += 1;
    else other += 1;
  }
  return latin > other;
}

/**
 * Whether a word is a disguised Latin word: it mixes Latin with Cyrillic/Greek look-alikes, or
 * (in mostly-Latin text) consists only of look-alikes. Real Russian or Greek words in Russian or
 * Greek text are left alone.
 */
export function isDisguisedWord(word: string, latinText: boolean): boolean {
  let latin = false;
  let lookalike = 0;
  let foreign = 0;
  for (const ch of word) {
    if (ch <= '\u024f' && /[a-zA-Z\u00c0-\u024f]/.test(ch)) latin = true;
    else if (CYRILLIC.test(ch) || GREEK.test(ch)) {
      foreign += 1;
      if (HOMOGLYPHS[ch] !== undefined) lookalike += 1;
    }
  }
  if (foreign === 0) return false;
  if (latin) return true;
  return latinText && lookalike === foreign && word.length >= 3;
}

export function foldHomoglyphs(text: string): string {
  if (!/[\u0370-\u03ff\u0400-\u052f\u0531-\u058f\u0251\u0131\u0237\u2113]/.test(text)) return text;
  const latinText = latinDominant(text);
  return text.replace(WORD, (word) => {
    if (!isDisguisedWord(word, latinText) && !/[\u0531-\u058f\u0251\u0131\u0237\u2113]/.test(word)) return word;
    let out = '';
    for (const ch of word) out += HOMOGLYPHS[ch] ?? ch;
    return out;
  });
}

const LEET: Readonly<Record<string, string>> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '8': 'b', '@': 'a', $: 's', '|': 'l', '!': 'i' };

/** A letter next to a digit or `@$|!`: every run leetRunBounds returns has one. */
const LEET_ADJACENT = /[a-z][0-9@$|!]|[0-9@$|!][a-z]/i;

/**
 * [start, end) of the maximal runs of ASCII letters, digits and `@$|!` that hold both a letter and one
 * of the others: only such a run can be leetspeak (a word of letters alone, a number, is not). One
 * pass over the character codes, no regex: this is called on every text scanned.
 */
export function leetRunBounds(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  if (!LEET_ADJACENT.test(text)) return out;
  let start = -1;
  let letter = false;
  let other = false;
  for (let i = 0; i <= text.length; i += 1) {
    const c = i < text.length ? text.charCodeAt(i) : 0;
    const lower = c | 32;
    const isLetter = lower >= 97 && lower <= 122;
    const isOther = (c >= 48 && c <= 57) || c === 64 || c === 36 || c === 124 || c === 33;
    if (isLetter || isOther) {
      if (start < 0) {
        start = i;
        letter = false;
        other = false;
      }
      if (isLetter) letter = true;
      else other = true;
    } else if (start >= 0) {
      if (letter && other) out.push([start, i]);
      start = -1;
    }
  }
  return out;
}

/** A run's word part and its trailing punctuation; the word is empty when it has no letter. */
export function leetCore(run: string): { word: string; tail: string } {
  let end = run.length;
  while (end > 0 && (run[end - 1] === '!' || run[end - 1] === '|')) end -= 1;
  const word = run.slice(0, end);
  return /[a-z]/i.test(word) ? { word, tail: run.slice(end) } : { word: '', tail: run };
}

const isAsciiLetter = (ch: string | undefined): boolean => {
  if (ch === undefined) return false;
  const lower = ch.charCodeAt(0) | 32;
  return lower >= 97 && lower <= 122;
};

/**
 * Whether a token is leetspeak: letters and substitutes only, at least two letters and no fewer
 * letters than substitutes, at most 20 characters, not a run of hex digits (hash fragments), and a
 * substitute between two letters or at least two substitutes. So `mp3`, `3d`, `web3`, `2024`,
 * `41d4` stay as they are while `1gn0r3` and `h4ck` fold. `lenient` (used for matching, where a
 * wrong fold costs nothing) also accepts one digit at a word's edge (`th3`, not `hello!`).
 */
export function isLeetToken(token: string, lenient = false): boolean {
  if (token.length < 3 || token.length > 20) return false;
  if (token.length >= 6 && /^[0-9a-f]+$/i.test(token)) return false;
  let subs = 0;
  let letters = 0;
  let inner = false;
  for (let i = 0; i < token.length; i += 1) {
    const ch = token[i] as string;
    if (LEET[ch] === undefined) {
      if (!isAsciiLetter(ch)) return false;
      letters += 1;
      continue;
    }
    subs += 1;
    if (isAsciiLetter(token[i - 1]) && isAsciiLetter(token[i + 1])) inner = true;
  }
  if (subs === 0 || letters < 2 || letters < subs) return false;
  return inner || subs >= 2 || (lenient && /[0-9]/.test(token));
}

/** Leetspeak words folded to letters (`1gn0r3` → `ignore`); everything else left as it is. */
export function foldLeet(text: string): string {
  let out = '';
  let last = 0;
  for (const [start, end] of leetRunBounds(text)) {
    const { word, tail } = leetCore(text.slice(start, end));
    if (!isLeetToken(word, true)) continue;
    let folded = '';
    for (const ch of word) folded += LEET[ch] ?? ch;
    out += text.slice(last, start) + folded + tail;
    last = end;
  }
  return last === 0 ? text : out + text.slice(last);
}

/** "i g n o r e" / "i.g.n.o.r.e" / "i-g-n-o-r-e" → "ignore" (runs of at least five single letters). */
const SPACED = /(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*·]\p{L}(?![\p{L}\p{N}])){4,}/gu;
/** In ASCII text, what every SPACED run contains (a plain regex, run first: most texts have none). */
const ASCII_SPACED = /[a-z][ .\-_*][a-z][ .\-_*][a-z][ .\-_*][a-z][ .\-_*][a-z]/i;
const NON_ASCII = /[^\x00-\x7f]/;
export function collapseSpacedLetters(text: string): string {
  if (!NON_ASCII.test(text) && !ASCII_SPACED.test(text)) return text;
  return text.replace(SPACED, (run) => run.replace(/[ .\-_*·]/g, ''));
}

/** Removes accents from Latin letters only (Cyrillic й, Japanese voiced kana keep theirs). */
export function stripLatinDiacritics(text: string): string {
  if (!/[\u00c0-\u024f\u0300-\u036f\u1e00-\u1eff]/.test(text)) return text;
  return text.normalize('NFD').replace(/([a-zA-Z])[\u0300-\u036f]+/g, '$1').normalize('NFC');
}

/**
 * The form the rules and the classifier read: invisible characters removed, NFKC (fullwidth and
 * mathematical letters become ASCII), look-alikes folded, lower case, Latin accents removed,
 * leetspeak and spaced-out letters folded, horizontal whitespace collapsed (line breaks kept, as
 * the fake-turn rules look at line starts).
 */
export function normalizeForMatching(text: string): string {
  let t = stripInvisible(text).normalize('NFKC');
  t = foldHomoglyphs(t).toLowerCase();
  t = stripLatinDiacritics(t);
  t = foldLeet(t);
  t = collapseSpacedLetters(t);
  // Runs of horizontal whitespace become one space (a lone space, the common case, is left in place).
  return t.replace(/ [^\S\n]+|[^\S\n ][^\S\n]*/g, ' ').replace(/ ?\n[\s]*/g, '\n');
}

export interface TextWindows {
  windows: string[];
  /** Characters of the input covered by the windows (≤ the input's length). */
  scannedChars: number;
  truncated: boolean;
}

/**
 * Splits a long text into overlapping windows, keeping at most `maxWindows`: the head (where a
 * jailbreak usually sets its frame), the tail (where an appended injection sits) and evenly spaced
 * windows between. Time is therefore bounded by `maxWindows × size` whatever the input.
 */
export function textWindows(text: string, size: number, overlap: number, maxWindows: number): TextWindows {
  if (text.length <= size) return { windows: [text], scannedChars: text.length, truncated: false };
  const step = size - overlap;
  const starts: number[] = [];
  for (let s = 0; s < text.length - overlap; s += step) starts.push(Math.min(s, text.length - size));
  let chosen = starts;
  if (starts.length > maxWindows) {
    const head = Math.ceil(maxWindows / 2);
    const tail = 1;
    const middle = maxWindows - head - tail;
    chosen = starts.slice(0, head);
    const rest = starts.slice(head, starts.length - tail);
    for (let i = 1; i <= middle; i += 1) chosen.push(rest[Math.floor((i * rest.length) / (middle + 1))] as number);
    chosen.push(starts[starts.length - 1] as number);
  }
  const windows = chosen.map((s) => text.slice(s, s + size));
  const truncated = chosen.length < starts.length;
  const scannedChars = truncated ? Math.min(text.length, chosen.length * step + overlap) : text.length;
  return { windows, scannedChars, truncated };
}
