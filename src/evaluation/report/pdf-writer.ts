/**
 * The PDF report's page geometry and its writer: a cursor moving down A4 pages, opening a new
 * page when a block would not fit, and every string drawn in runs of embedded fonts.
 */
import PDFDocument from 'pdfkit';
import { describeCharacter, type FontStyle } from './fonts.js';
import { FONT, label, PDF_COLORS as C, type PdfText } from './pdf-charts.js';
import { drawRuns, heightOfText, pdfRuns, registerFonts, type PdfRun } from './pdf-text.js';

export const PAGE = { width: 595.28, height: 841.89, margin: 50, top: 54, bottom: 60 };
export const LEFT = PAGE.margin;
export const WIDTH = PAGE.width - 2 * PAGE.margin;
export const BOTTOM = PAGE.height - PAGE.bottom;

/** The fonts a PDF report embeds (fonts.ts), as its note on replaced characters names them. */
const EMBEDDED_FONTS = 'Noto Sans, Noto Sans Arabic, Hebrew, Thai, JP, KR and SC';
/** How many replaced characters the note names one by one. */
const REPLACED_NAMED = 40;

/** Keeps what a renderer needs while it moves down the pages. */
export class Writer implements PdfText {
  readonly doc: PDFKit.PDFDocument;
  /** Characters no embedded font covers, drawn as `[?]`: replacedNote names them. */
  readonly replaced = new Set<string>();

  constructor(doc: PDFKit.PDFDocument) {
    this.doc = doc;
    registerFonts(doc);
  }

  runs(text: string, style: FontStyle): PdfRun[] {
    const result = pdfRuns(text, style);
    for (const char of result.uncovered) this.replaced.add(char);
    return result.runs;
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
  paragraph(text: string, style: { size: number; font?: FontStyle; color?: string; x?: number; width?: number; gap?: number }): void {
    const top = this.y;
    const width = style.width ?? WIDTH;
    this.doc.fillColor(style.color ?? C.ink);
    const height = drawRuns(this.doc, this.runs(text, style.font ?? FONT.regular), style.x ?? LEFT, top, style.size, { width, lineGap: 1.5 });
    this.y = top + height + (style.gap ?? 0);
  }

  heightOf(text: string, size: number, width: number, font: FontStyle = FONT.regular): number {
    return heightOfText(this.doc, text, font, size, width, 1.5);
  }

  /**
   * The sentence naming the characters the PDF drew as `[?]` (by code point: drawing them would
   * replace them again), or null when every character printed.
   */
  replacedNote(): string | null {
    if (this.replaced.size === 0) return null;
    const chars = [...this.replaced];
    const named = chars.slice(0, REPLACED_NAMED).map(describeCharacter).join(', ');
    const more = chars.length > REPLACED_NAMED ? ` and ${chars.length - REPLACED_NAMED} more` : '';
    return (
      `${chars.length === 1 ? 'One character' : `${chars.length} different characters`} of this report ` +
      `${chars.length === 1 ? 'is' : 'are'} in none of the fonts embedded in this PDF (${EMBEDDED_FONTS}) and ` +
      `${chars.length === 1 ? 'appears' : 'appear'} as [?], or [?×n] for a run of n characters: ${named}${more}. ` +
      'The HTML report shows the texts as written.'
    );
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

/**
 * A report's A4 document (both reports): its metadata, the pages `draw` writes, the bytes once
 * it ends. `timestamp` (seconds) dates the file when it is a valid time.
 */
export function renderPdf(meta: { title: string; subject: string; timestamp: number }, draw: (w: Writer) => void): Promise<Buffer> {
  const at = new Date(meta.timestamp * 1000);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: LEFT, right: PAGE.margin },
    bufferPages: true,
    displayTitle: true,
    info: {
      // Metadata strings are UTF-16 in PDF, so the title is kept as written (without controls).
      Title: meta.title.replace(/[\p{Cc}\p{Cf}]/gu, ''),
      Author: 'Warden',
      Subject: meta.subject,
      Creator: 'Warden',
      Producer: 'Warden',
      ...(Number.isNaN(at.getTime()) ? {} : { CreationDate: at, ModDate: at }),
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  try {
    const w = new Writer(doc);
    w.y = PAGE.top;
    draw(w);
    doc.end();
  } catch (error) {
    doc.end();
    return Promise.reject(error);
  }
  return done;
}
