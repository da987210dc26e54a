/**
 * Text in the PDF report: every string is cut into runs of one embedded font each (fonts.ts), so
 * Latin, Greek, Cyrillic, Arabic, Devanagari and Japanese/CJK all print as written.
 */
import { fontFaces, runText, splitRuns, uncovered, type FontStyle } from './fonts.js';

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

/** `text` as runs of registered fonts, and how many of its characters no font covers (drawn as `[?]`). */
export function pdfRuns(text: string, style: FontStyle): { runs: PdfRun[]; uncovered: number } {
  const faces = fontFaces(style);
  const fallback = faces[0]?.name ?? 'Helvetica';
  const runs = splitRuns(text, faces);
  return {
    runs: runs.map((run) => ({ font: run.face?.name ?? fallback, text: runText(run) })).filter((run) => run.text !== ''),
    uncovered: uncovered(runs),
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
}

const SPACE_FONT = 'Helvetica';

/** Characters a line may break before or after (CJK ideographs, kana, hangul, full-width forms): each is a piece of its own. */
const BREAK_EACH = /[\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]/u;
const TOKEN = /\n|[ \t]+|[\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]|[^ \t\n\u1100-\u11FF\u2E80-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFFEF\u{20000}-\u{3FFFD}]+/gu;

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
    lines.push({ pieces: line, width: x, height: Math.max(...fonts.map(lineHeightOf)) + lineGap });
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
        continue;
      }
      if (/^[ \t]+$/.test(token)) {
        // A space in the standard font: not every subset of the embedded fonts holds one.
        if (line.length > 0) add(SPACE_FONT, ' ', measure(SPACE_FONT, ' '));
        continue;
      }
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
    for (const run of runs) {
      doc.font(run.font).fontSize(size);
      doc.text(run.text, left, y, { lineBreak: false, baseline: options.baseline ?? 'top' });
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
      doc.text(piece.text, left, top, { lineBreak: false });
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
