/**
 * The PDF report's page geometry and its writer: a cursor moving down A4 pages, opening a new
 * page when a block would not fit, and every string through the WinAnsi filter on its way in.
 */
import { FONT, label, PDF_COLORS as C, type PdfText } from './pdf-charts.js';
import { toWinAnsi } from './text.js';

export const PAGE = { width: 595.28, height: 841.89, margin: 50, top: 54, bottom: 60 };
export const LEFT = PAGE.margin;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
export const BOTTOM = PAGE.height - PAGE.bottom;

/** Keeps what a renderer needs while it moves down the pages. */
export class Writer implements PdfText {
  readonly doc: PDFKit.PDFDocument;
  replaced = 0;

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
  }

  win(text: string): string {
    const result = toWinAnsi(text);
    this.replaced += result.replaced;
    return result.text;
  }

  get y(): number {
    return this.doc.y;
  }

  set y(value: number) {
    this.doc.y = value;
  }

  /** Starts a new page when fewer than `height` points are left on this one. */
  ensure(height: number): void {
    if (this.y + height > BOTTOM) this.newPage();
  }

  newPage(): void {
    this.doc.addPage();
    this.y = PAGE.top;
  }

  /** A wrapped paragraph across the content width (or `width` from `x`). */
  paragraph(text: string, style: { size: number; font?: string; color?: string; x?: number; width?: number; gap?: number }): void {
    const value = this.win(text);
    this.doc.font(style.font ?? FONT.regular).fontSize(style.size).fillColor(style.color ?? C.ink);
    this.doc.text(value, style.x ?? LEFT, this.y, { width: style.width ?? WIDTH, lineGap: 1.5 });
    this.y += style.gap ?? 0;
  }

  heightOf(text: string, size: number, width: number, font: string = FONT.regular): number {
    this.doc.font(font).fontSize(size);
    return this.doc.heightOfString(toWinAnsi(text).text, { width, lineGap: 1.5 });
  }

  heading(text: string, keepWith = 60): void {
    this.y += 14;
    this.ensure(26 + keepWith);
    label(this, text, LEFT, this.y, { size: 13, font: FONT.bold });
    this.y += 18;
    this.doc.moveTo(LEFT, this.y).lineTo(LEFT + WIDTH, this.y).lineWidth(1.2).stroke(C.ink);
    this.y += 8;
  }
}
