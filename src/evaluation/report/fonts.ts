/**
 * The PDF report's fonts: Noto Sans (Latin, Greek, Cyrillic, Vietnamese, Devanagari), Noto Sans
 * Arabic, Noto Sans Hebrew, Noto Sans Thai, Noto Sans JP (kana, CJK ideographs, full-width forms),
 * Noto Sans KR (hangul) and Noto Sans SC (the Simplified-Chinese ideographs Japanese lacks), read
 * from the @fontsource packages installed with Warden (docs/decisions.md, "Report fonts"):
 * nothing is fetched.
 *
 * Text in WinAnsi stays in the PDF's standard Helvetica (see STANDARD). Each package ships its
 * font cut into subsets by Unicode range (unicode.json says which). A text
 * is split into runs, each drawn with the first subset covering its characters; PDFKit embeds
 * only the glyphs used. A character no subset covers (emoji, Khmer…) is drawn as `[?]`, and the
 * report names it (replacedCharacters).
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

export type FontStyle = 'regular' | 'bold' | 'italic';

export interface FontFace {
  /** The name the face is registered under in a PDF document (a standard PDF font's own name). */
  name: string;
  /** null: one of the PDF's standard fonts, built into every reader (nothing embedded). */
  file: string | null;
  /** Inclusive code point ranges, sorted. */
  ranges: Array<[number, number]>;
  /** The font the face is a subset of (its package): an ideograph stays in the font of the text around it. */
  family: string;
}

/** The packages in the order they are tried; a package's subsets in the order they are listed here. */
const FAMILIES: ReadonlyArray<{ pkg: string; prefix: string; subsets: readonly string[] | 'numbered' }> = [
  {
    pkg: '@fontsource/noto-sans',
    prefix: 'noto-sans',
    subsets: ['latin', 'latin-ext', 'greek', 'greek-ext', 'cyrillic', 'cyrillic-ext', 'vietnamese', 'devanagari'],
  },
  { pkg: '@fontsource/noto-sans-arabic', prefix: 'noto-sans-arabic', subsets: ['arabic', 'symbols', 'math'] },
  { pkg: '@fontsource/noto-sans-hebrew', prefix: 'noto-sans-hebrew', subsets: ['hebrew'] },
  { pkg: '@fontsource/noto-sans-thai', prefix: 'noto-sans-thai', subsets: ['thai'] },
  // Japanese first (the CJK font reports had before), then hangul, then the ideographs only Chinese uses (们 这 说…).
  { pkg: '@fontsource/noto-sans-jp', prefix: 'noto-sans-jp', subsets: 'numbered' },
  { pkg: '@fontsource/noto-sans-kr', prefix: 'noto-sans-kr', subsets: 'numbered' },
  { pkg: '@fontsource/noto-sans-sc', prefix: 'noto-sans-sc', subsets: 'numbered' },
];

const WEIGHT: Record<FontStyle, string> = { regular: '400-normal', bold: '700-normal', italic: '400-italic' };

/**
 * Text in WinAnsi (Latin-1 and the Windows-1252 punctuation), nearly all of a report, is drawn in
 * the PDF's standard Helvetica: it needs no embedding and PDFKit measures it many times faster
 * than an embedded font (whose every word is shaped). Everything else goes to the Noto faces.
 */
const STANDARD: Record<FontStyle, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold', italic: 'Helvetica-Oblique' };
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';
const WIN_ANSI_RANGES: Array<[number, number]> = [
  [0x0a, 0x0a] as [number, number],
  [0x20, 0x7e] as [number, number],
  [0xa0, 0xff] as [number, number],
  ...Array.from(WIN_ANSI_EXTRA, (c) => [c.codePointAt(0) ?? 0, c.codePointAt(0) ?? 0] as [number, number]),
].sort((a, b) => a[0] - b[0]);

/** `U+0000-00FF,U+0131` → [[0, 255], [305, 305]]. */
export function parseUnicodeRange(text: string): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const part of text.split(',')) {
    const match = /^\s*U\+([0-9a-f]+)(?:-([0-9a-f]+))?\s*$/i.exec(part);
    if (match === null) continue;
    const low = Number.parseInt(match[1] ?? '', 16);
    out.push([low, match[2] === undefined ? low : Number.parseInt(match[2], 16)]);
  }
  return out.sort((a, b) => a[0] - b[0]);
}

const require = createRequire(import.meta.url);
const cache = new Map<FontStyle, FontFace[]>();

/** The faces of a style, in the order they are tried (an italic falls back to the regular faces beyond Latin). */
export function fontFaces(style: FontStyle): FontFace[] {
  const cached = cache.get(style);
  if (cached !== undefined) return cached;
  const faces: FontFace[] = [{ name: STANDARD[style], file: null, ranges: WIN_ANSI_RANGES, family: 'standard' }];
  for (const family of FAMILIES) {
    const dir = dirname(require.resolve(`${family.pkg}/unicode.json`));
    const ranges = JSON.parse(readFileSync(join(dir, 'unicode.json'), 'utf8')) as Record<string, string>;
    const subsets = family.subsets === 'numbered' ? Object.keys(ranges).filter((k) => /^\[\d+\]$/.test(k)) : family.subsets;
    for (const subset of subsets) {
      const range = ranges[subset];
      if (range === undefined) continue;
      const key = subset.replace(/^\[(\d+)\]$/, '$1');
      const italic = join(dir, 'files', `${family.prefix}-${key}-${WEIGHT[style]}.woff`);
      const file = style === 'italic' && !existsSync(italic) ? join(dir, 'files', `${family.prefix}-${key}-${WEIGHT.regular}.woff`) : italic;
      faces.push({ name: `${style}:${family.prefix}:${key}`, file, ranges: parseUnicodeRange(range), family: family.prefix });
    }
  }
  cache.set(style, faces);
  return faces;
}

function covers(face: FontFace, codePoint: number): boolean {
  let lo = 0;
  let hi = face.ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [low, high] = face.ranges[mid] as [number, number];
    if (codePoint < low) hi = mid - 1;
    else if (codePoint > high) lo = mid + 1;
    else return true;
  }
  return false;
}

/** What of a font file the report asks: fontkit, the font reader PDFKit embeds with. */
interface FontFile {
  hasGlyphForCodePoint(codePoint: number): boolean;
}
const fontkit = require('fontkit') as { openSync(path: string): FontFile };
/** Font files read so far (null: unreadable), by path: a face's glyphs are checked once it is the candidate for a character. */
const files = new Map<string, FontFile | null>();

/**
 * Whether a face draws a code point: in its unicode-range and in the font's own character map.
 * A package's unicode.json claims more than its files hold (Noto Sans SC's ranges list emoji and
 * unassigned code points; one of its subsets has no character map): a character the file lacks
 * would print as an empty box, so the file decides.
 */
function draws(face: FontFace, codePoint: number): boolean {
  if (!covers(face, codePoint)) return false;
  if (face.file === null) return true;
  let file = files.get(face.file);
  if (file === undefined) {
    try {
      file = fontkit.openSync(face.file);
      file.hasGlyphForCodePoint(0x20);
    } catch {
      file = null;
    }
    files.set(face.file, file);
  }
  return file !== null && file.hasGlyphForCodePoint(codePoint);
}

/** The first face drawing a code point; of `family` when one of its faces does. */
export function faceFor(faces: readonly FontFace[], codePoint: number, family?: string): FontFace | undefined {
  if (family !== undefined) {
    const same = faces.find((face) => face.family === family && draws(face, codePoint));
    if (same !== undefined) return same;
  }
  return faces.find((face) => draws(face, codePoint));
}

/** Ideographs, kana and hangul: held by several CJK fonts, each drawing them in its own style. */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}]/u;

export interface TextRun {
  /** The face to draw it with; null: no face covers it (drawn as `[?]`). */
  face: FontFace | null;
  text: string;
}

/** Controls and invisible format characters a report never draws (a newline is kept). */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Emoji_Modifier}]/u;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A text made safe to draw: lone surrogates, controls and format characters (zero-width, bidi overrides) dropped, tabs as spaces. */
export function drawable(text: string): string {
  let out = '';
  for (const char of text.replace(LONE_SURROGATE, '').replace(/\r\n?/g, '\n').replace(/\t/g, '    ').normalize('NFC')) {
    if (char !== '\n' && INVISIBLE.test(char)) continue;
    out += char;
  }
  return out;
}

/**
 * `text` cut into runs of one face each. A space, a digit or punctuation (which every face
 * holds) and a combining mark stay in the run they are in, so a sentence of one script is one run.
 */
export function splitRuns(text: string, faces: readonly FontFace[]): TextRun[] {
  const runs: TextRun[] = [];
  let current: TextRun | undefined;
  for (const char of drawable(text)) {
    const code = char.codePointAt(0) ?? 0;
    const shared = char === '\n' || /[\p{M}\p{Zs}]/u.test(char) || (code < 0x80 && !/[A-Za-z]/.test(char));
    if (current !== undefined && current.face !== null && shared && (char === '\n' || /\p{M}/u.test(char) || draws(current.face, code))) {
      current.text += char;
      continue;
    }
    // A Chinese sentence that needed the Chinese font for one ideograph goes on in it, rather than in Japanese forms.
    const family = current !== undefined && current.face !== null && current.face.family !== 'standard' && CJK.test(char) ? current.face.family : undefined;
    const face = faceFor(faces, code, family) ?? null;
    if (current !== undefined && current.face === face) current.text += char;
    else {
      current = { face, text: char };
      runs.push(current);
    }
  }
  return runs;
}

/** The text of a run PDFKit draws: an uncovered run becomes `[?]` or `[?×n]`. */
export function runText(run: TextRun): string {
  if (run.face !== null) return run.text;
  const n = Array.from(run.text.replace(/\s/g, '')).length;
  return n === 0 ? run.text : n === 1 ? '[?]' : `[?×${n}]`;
}

/** Characters of `runs` no face covers. */
export const uncovered = (runs: readonly TextRun[]) =>
  runs.reduce((sum, run) => sum + (run.face === null ? Array.from(run.text.replace(/\s/g, '')).length : 0), 0);

/** The distinct characters of `runs` no face covers, in the order they appear. */
export function uncoveredCharacters(runs: readonly TextRun[]): string[] {
  const out = new Set<string>();
  for (const run of runs) if (run.face === null) for (const char of run.text) if (!/\s/.test(char)) out.add(char);
  return [...out];
}

/** Scripts a replaced character is named by (the rest are named by code point alone). */
const SCRIPTS = [
  'Armenian', 'Bengali', 'Cherokee', 'Ethiopic', 'Georgian', 'Gujarati', 'Gurmukhi', 'Kannada', 'Khmer', 'Lao', 'Malayalam', 'Mongolian',
  'Myanmar', 'Oriya', 'Sinhala', 'Syriac', 'Tamil', 'Telugu', 'Thaana', 'Tibetan', 'Han', 'Hangul', 'Hebrew', 'Thai', 'Arabic',
] as const;
const SCRIPT_TESTS = SCRIPTS.map((name) => ({ name, test: new RegExp(`\\p{Script=${name}}`, 'u') }));

/** How the report names a character it could not draw: `U+1F600 (emoji)`, `U+1780 (Khmer)`, `U+E000`. */
export function describeCharacter(char: string): string {
  const code = char.codePointAt(0) ?? 0;
  const hex = `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
  const script = /\p{Extended_Pictographic}/u.test(char) ? 'emoji' : SCRIPT_TESTS.find((s) => s.test.test(char))?.name;
  return script === undefined ? hex : `${hex} (${script})`;
}
