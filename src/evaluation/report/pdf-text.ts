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

/**
 * Draws runs as one wrapped paragraph from (x, y) (PDFKit's `continued` text), or on one line
 * without wrapping when `lineBreak` is false.
 */
export function drawRuns(
  doc: PDFKit.PDFDocument,
  runs: readonly PdfRun[],
  x: number,
  y: number,
  size: number,
  options: { width?: number; lineGap?: number; lineBreak?: boolean; baseline?: 'top' | 'middle' | 'alphabetic' },
): void {
  if (runs.length === 0) return;
  if (options.lineBreak === false) {
    let left = x;
    for (const run of runs) {
      doc.font(run.font).fontSize(size);
      doc.text(run.text, left, y, { lineBreak: false, baseline: options.baseline ?? 'top' });
      left += doc.widthOfString(run.text);
    }
    return;
  }
  runs.forEach((run, i) => {
    doc.font(run.font).fontSize(size);
    const last = i === runs.length - 1;
    if (i === 0) doc.text(run.text, x, y, { width: options.width, lineGap: options.lineGap, continued: !last });
    else doc.text(run.text, { width: options.width, lineGap: options.lineGap, continued: !last });
  });
}

/** Wide (East Asian) characters: measured as a capital M (in Helvetica about 0.83 em, so the width is cut to 80 %: errs tall). */
const WIDE = /[\u1100-\u115F\u2E80-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{20000}-\u{3FFFD}]/u;

/**
 * The height a paragraph takes, measured in the Latin face: a character of another face is
 * measured as a Latin one of about its width. Errs on the tall side (a box drawn around the
 * paragraph must hold it).
 */
export function heightOfText(doc: PDFKit.PDFDocument, text: string, style: FontStyle, size: number, width: number, lineGap: number): number {
  const latin = fontFaces(style)[0]?.name ?? 'Helvetica';
  let proxy = '';
  let wide = false;
  for (const { text: part, font } of pdfRuns(text, style).runs) {
    if (font === latin) {
      proxy += part;
      continue;
    }
    for (const char of part) {
      if (WIDE.test(char)) {
        wide = true;
        proxy += 'M';
      } else proxy += /\s/.test(char) ? char : /\p{M}/u.test(char) ? '' : 'n';
    }
  }
  doc.font(latin).fontSize(size);
  return doc.heightOfString(proxy, { width: wide ? width * 0.8 : width, lineGap });
}
