/**
 * Text in the PDF report: every string is cut into runs of one embedded font each (fonts.ts), so
 * Latin, Greek, Cyrillic, Arabic, Hebrew, Thai, Devanagari, Chinese, Japanese and Korean all print as written.
 */
import { fontFaces, runText, splitRuns, uncoveredCharacters, type FontStyle } from './fonts.js';

const STYLES: readonly FontStyle[] = ['regular', 'bold', 'italic'];

export interface PdfRun {
  /** A registered font name. */
  font: string;
  text: string;
}

/** Registers every face with the document (PDFKit reads a font file only once a run uses it). */
export function registerFonts(doc: PDFKit.PDFDocument): void {
  for (const style of STYLES) for (const face of fontFaces(style)) if (face.file !== null) doc.registerFont(face.name, face.file);
}

/** `text` as runs of registered fonts, and the characters no font covers (drawn as `[?]`). */
export function pdfRuns(text: string, style: FontStyle): { runs: PdfRun[]; uncovered: string[] } {
  const faces = fontFaces(style);
  const fallback = faces[0]?.name ?? 'Helvetica';
  const runs = splitRuns(text, faces);
  return {
    runs: runs.map((run) => ({ font: run.face?.name ?? fallback, text: runText(run) })).filter((run) => run.text !== ''),
    uncovered: uncoveredCharacters(runs),
  };
}

export function widthOfRuns(doc: PDFKit.PDFDocument, runs: readonly PdfRun[], size: number): number {
  let width = 0;
  for (const run of runs) width += doc.font(run.font).fontSize(size).widthOfString(run.text);
  return width;
}

/** One piece of a laid-out line: a word, a space or a CJK character, in one font. */
interface Piece {
  font: string;
  text: string;
  width: number;
}

export interface LaidOutLine {
  pieces: Piece[];
  width: number;
  /** The tallest of its fonts' line heights, plus the line gap. */
  height: number;
  /** From the line's top to its baseline: the tallest of its fonts' ascents, so that every font on it sits on one baseline. */
  ascent: number;
}

/** A font's ascent at `size` (PDFKit keeps the current font's metrics in `_font`; units per 1,000). */
function ascentOf(doc: PDFKit.PDFDocument, font: string, size: number): number {
  doc.font(font).fontSize(size);
  return ((doc as unknown as { _font: { ascender: number } })._font.ascender / 1000) * size;
}

const SPACE_FONT = 'Helvetica';

/** Characters a line may break before or after (CJK ideographs, kana, hangul, full-width forms): each is a piece of its own. */
const BREAK_EACH = /[\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]/u;
const TOKEN = /\n|[ \t]+|[\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]|[^ \t\n\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]+/gu;

/** Letters of the right-to-left scripts (Unicode bidirectional classes R and AL). */
const RTL = /[\p{Script=Hebrew}\p{Script=Arabic}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;

/**
 * A line's pieces in the order they are drawn, left to right: the report's lines run left to
 * right, and a sequence of right-to-left words (Hebrew, Arabic), with the spaces between them, is
 * drawn reversed, so that its first word is on the right (the rules of the Unicode bidirectional
 * algorithm for right-to-left runs inside a left-to-right paragraph; each word's own letters are
 * put right to left by the font's shaping). pdftotext and screen readers then read it in order.
 */
export function visualOrder<T extends { text: string }>(pieces: readonly T[]): T[] {
  const out: T[] = [];
  let i = 0;
  while (i < pieces.length) {
    if (!RTL.test(pieces[i]?.text ?? '')) {
      out.push(pieces[i] as T);
      i++;
      continue;
    }
    // The sequence: right-to-left pieces, and the spaces between two of them.
    let end = i + 1;
    let last = i;
    while (end < pieces.length) {
      const text = pieces[end]?.text ?? '';
      if (RTL.test(text)) last = end;
      else if (text.trim() !== '') break;
      end++;
    }
    out.push(...pieces.slice(i, last + 1).reverse());
    i = last + 1;
  }
  return out;
}

/**
 * Lays runs out in lines of at most `width` points: breaks at spaces and between CJK characters,
 * and inside a word only when it is wider than a line. Done here rather than by PDFKit's own
 * wrapping, which cannot change font inside a line without adding spaces to its text, and so that
 * a paragraph's measured height is exactly the height it is drawn in.
 */
export function layoutRuns(
  doc: PDFKit.PDFDocument,
  runs: readonly PdfRun[],
  size: number,
  width: number,
  lineGap: number,
): { lines: LaidOutLine[]; height: number } {
  const heights = new Map<string, number>();
  const ascents = new Map<string, number>();
  const ascentOfFont = (font: string) => {
    let a = ascents.get(font);
    if (a === undefined) {
      a = ascentOf(doc, font, size);
      ascents.set(font, a);
    }
    return a;
  };
  const lineHeightOf = (font: string) => {
    let h = heights.get(font);
    if (h === undefined) {
      h = doc.font(font).fontSize(size).currentLineHeight(true);
      heights.set(font, h);
    }
    return h;
  };
  const measure = (font: string, text: string) => doc.font(font).fontSize(size).widthOfString(text);
  const lines: LaidOutLine[] = [];
  let line: Piece[] = [];
  let x = 0;
  const fallbackFont = runs[0]?.font ?? 'Helvetica';
  /** At the start of a line of the text itself: the first line, or after a newline. */
  let hardStart = true;
  const push = () => {
    const last = line[line.length - 1];
    if (last !== undefined && last.font === SPACE_FONT && / +$/.test(last.text)) {
      const trimmed = last.text.replace(/ +$/, '');
      x -= last.width;
      if (trimmed === '') line.pop();
      else {
        last.text = trimmed;
        last.width = measure(SPACE_FONT, trimmed);
        x += last.width;
      }
    }
    const fonts = line.length === 0 ? [fallbackFont] : [...new Set(line.map((p) => p.font))];
    lines.push({ pieces: visualOrder(line), width: x, height: Math.max(...fonts.map(lineHeightOf)) + lineGap, ascent: Math.max(...fonts.map(ascentOfFont)) });
    line = [];
    x = 0;
  };
  const add = (font: string, text: string, w: number) => {
    const last = line[line.length - 1];
    if (last !== undefined && last.font === font) {
      // Measured whole: a font's kerning and proportional forms make a string narrower than its characters one by one.
      const before = last.width;
      last.text += text;
      last.width = measure(font, last.text);
      x += last.width - before;
    } else {
      line.push({ font, text, width: w });
      x += w;
    }
  };
  for (const run of runs) {
    for (const match of run.text.matchAll(TOKEN)) {
      const token = match[0];
      if (token === '\n') {
        push();
        hardStart = true;
        continue;
      }
      if (/^[ \t]+$/.test(token)) {
        // A space in the standard font: not every subset of the embedded fonts holds one. At the
        // start of a line of the text (not of a wrapped one) the spaces are kept: they indent
        // (a JSON configuration, a quoted list), as written.
        const spaces = line.length === 0 && hardStart ? ' '.repeat(token.length) : line.length > 0 ? ' ' : '';
        if (spaces !== '') add(SPACE_FONT, spaces, measure(SPACE_FONT, spaces));
        continue;
      }
      hardStart = false;
      const w = measure(run.font, token);
      if (x + w <= width || (line.length === 0 && w <= width)) {
        add(run.font, token, w);
        continue;
      }
      if (line.length > 0 && w <= width) {
        push();
        add(run.font, token, w);
        continue;
      }
      // Wider than what is left: a CJK character or a short word goes to the next line; a word wider than a line is cut.
      if (BREAK_EACH.test(token) || w <= width) {
        push();
        add(run.font, token, w);
        continue;
      }
      for (const char of token) {
        const cw = measure(run.font, char);
        if (x + cw > width && line.length > 0) push();
        add(run.font, char, cw);
      }
    }
  }
  if (line.length > 0 || lines.length === 0) push();
  return { lines, height: lines.reduce((sum, l) => sum + l.height, 0) };
}

/**
 * Scripts whose letters the font shapes into glyphs that do not map one to one back to them:
 * Devanagari's reordered vowel signs, Thai's split vowels and stacked marks. Not Arabic: poppler
 * reverses an ActualText of right-to-left letters (pdftotext read `لهاجت` for `تجاهل`), while its
 * joined glyphs read back in order but for a few letters sharing a form.
 */
const SHAPED = /[\p{Script=Devanagari}\p{Script=Thai}]/u;

/** A PDF text string in UTF-16BE, as hex: `<FEFF…>`. */
function pdfTextString(text: string): string {
  let hex = 'FEFF';
  for (let i = 0; i < text.length; i++) hex += text.charCodeAt(i).toString(16).toUpperCase().padStart(4, '0');
  return `<${hex}>`;
}

/**
 * Draws one piece of text at (x, y). A shaped script's glyphs are wrapped in a marked-content span
 * whose ActualText is the text as written, so that copying from the PDF, pdftotext and screen
 * readers get the letters rather than the glyphs (`คำสั่ง`, not `คําสัง ่`). The span is opened
 * and closed inside the text object PDFKit writes (after BT, before ET), where the text's
 * coordinates, font and size are in force: readers place the ActualText with them. PDFKit has no
 * option for that, so its addContent is wrapped for the one call.
 */
function drawPiece(doc: PDFKit.PDFDocument, text: string, x: number, y: number, options: PDFKit.Mixins.TextOptions): void {
  if (!SHAPED.test(text)) {
    doc.text(text, x, y, options);
    return;
  }
  const target = doc as unknown as { addContent(data: string): unknown };
  const addContent = target.addContent;
  target.addContent = function (this: unknown, data: string) {
    if (data === 'ET') addContent.call(this, 'EMC');
    addContent.call(this, data);
    if (data === 'BT') addContent.call(this, `/Span <</ActualText ${pdfTextString(text)}>> BDC`);
    return this;
  };
  try {
    doc.text(text, x, y, options);
  } finally {
    target.addContent = addContent;
  }
}

/**
 * Draws runs as one wrapped paragraph from (x, y) (layoutRuns), or on one line without wrapping
 * when `lineBreak` is false. Answers the height drawn.
 */
export function drawRuns(
  doc: PDFKit.PDFDocument,
  runs: readonly PdfRun[],
  x: number,
  y: number,
  size: number,
  options: { width?: number; lineGap?: number; lineBreak?: boolean; baseline?: 'top' | 'middle' | 'alphabetic' },
): number {
  if (runs.length === 0) return 0;
  if (options.lineBreak === false) {
    let left = x;
    for (const run of visualOrder(runs)) {
      doc.font(run.font).fontSize(size);
      drawPiece(doc, run.text, left, y, { lineBreak: false, baseline: options.baseline ?? 'top' });
      left += doc.widthOfString(run.text);
    }
    return doc.currentLineHeight(true);
  }
  const { lines, height } = layoutRuns(doc, runs, size, options.width ?? Number.POSITIVE_INFINITY, options.lineGap ?? 0);
  let top = y;
  for (const line of lines) {
    let left = x;
    for (const piece of line.pieces) {
      doc.font(piece.font).fontSize(size);
      drawPiece(doc, piece.text, left, top + line.ascent, { lineBreak: false, baseline: 'alphabetic' });
      left += piece.width;
    }
    top += line.height;
  }
  return height;
}

/** The height a paragraph takes: exactly what drawRuns draws. */
export function heightOfText(doc: PDFKit.PDFDocument, text: string, style: FontStyle, size: number, width: number, lineGap: number): number {
  return layoutRuns(doc, pdfRuns(text, style).runs, size, width, lineGap).height;
}
