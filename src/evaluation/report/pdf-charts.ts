/**
 * The PDF report's charts, drawn with PDFKit's vector API from the same geometry as the HTML's
 * SVG: bars, axes, whiskers, the dashed threshold line, hatching for bars below it. Text is
 * drawn in runs of embedded fonts (`PdfText.runs`).
 */
import type { PillarEntry } from './content.js';
import { thresholdLabel } from './content.js';
import { barStatus, layoutHarnessChart, layoutPillarChart, type BarStatus } from './geometry.js';
import { formatInterval, formatPercent } from './text.js';
import type { EvaluationReportModel } from '../types.js';
import type { FontStyle } from './fonts.js';
import { drawRuns, widthOfRuns, type PdfRun } from './pdf-text.js';

export const PDF_COLORS = {
  ink: '#1c2430',
  muted: '#5b6675',
  line: '#d9dee5',
  soft: '#f4f6f9',
  meets: '#2f6f9f',
  below: '#c2570c',
  pass: '#1b6b3a',
  passBg: '#e6f3ea',
  fail: '#a3261b',
  failBg: '#fbe9e7',
  none: '#5b6675',
  noneBg: '#eef0f3',
} as const;

/** The report's three styles; each is a set of embedded faces (fonts.ts), chosen per run of text. */
export const FONT = { regular: 'regular', bold: 'bold', italic: 'italic' } as const satisfies Record<string, FontStyle>;

/** What the charts need of the document: PDFKit itself, and a text as runs of embedded fonts. */
export interface PdfText {
  doc: PDFKit.PDFDocument;
  runs(text: string, style: FontStyle): PdfRun[];
}

/** The width of a one-line text. */
export function widthOf(ctx: PdfText, text: string, size: number, font: FontStyle = FONT.regular): number {
  return widthOfRuns(ctx.doc, ctx.runs(text, font), size);
}

type Align = 'left' | 'right' | 'center';

/** One line of text placed by its anchor, never wrapped (so it can never open a page). */
export function label(
  ctx: PdfText,
  text: string,
  x: number,
  y: number,
  style: { size: number; font?: FontStyle; color?: string; align?: Align; baseline?: 'top' | 'middle' | 'alphabetic' },
): void {
  const { doc } = ctx;
  const runs = ctx.runs(text, style.font ?? FONT.regular);
  doc.fillColor(style.color ?? PDF_COLORS.ink);
  const width = widthOfRuns(doc, runs, style.size);
  const left = style.align === 'right' ? x - width : style.align === 'center' ? x - width / 2 : x;
  drawRuns(doc, runs, left, y, style.size, { lineBreak: false, baseline: style.baseline ?? 'top' });
}

/** A filled bar; below-threshold bars are hatched as well as coloured. */
function bar(doc: PDFKit.PDFDocument, x: number, y: number, w: number, h: number, status: BarStatus): void {
  if (w <= 0 || h <= 0) return;
  if (status === 'meets') {
    doc.rect(x, y, w, h).fill(PDF_COLORS.meets);
    return;
  }
  doc.save();
  doc.rect(x, y, w, h).clip();
  doc.rect(x, y, w, h).fill(PDF_COLORS.below);
  doc.lineWidth(1.4).strokeColor('#ffffff').strokeOpacity(0.5);
  for (let d = -h; d < w; d += 4.5) doc.moveTo(x + d, y + h).lineTo(x + d + h, y).stroke();
  doc.restore();
  doc.rect(x, y, w, h).lineWidth(0.6).stroke(PDF_COLORS.below);
}

/** Whisker segments over a white halo, so they stay visible where they cross a dark bar. */
function whisker(doc: PDFKit.PDFDocument, segments: Array<[number, number, number, number]>): void {
  for (const [width, color, opacity] of [[2.6, '#ffffff', 0.7], [1.1, PDF_COLORS.ink, 1]] as const) {
    doc.save();
    doc.lineWidth(width).strokeColor(color).strokeOpacity(opacity);
    for (const [x1, y1, x2, y2] of segments) doc.moveTo(x1, y1).lineTo(x2, y2).stroke();
    doc.restore();
  }
}

function dashedLine(doc: PDFKit.PDFDocument, x1: number, y1: number, x2: number, y2: number): void {
  doc.save();
  doc.lineWidth(0.9).strokeColor(PDF_COLORS.ink).dash(3.5, { space: 2.5 });
  doc.moveTo(x1, y1).lineTo(x2, y2).stroke();
  doc.undash();
  doc.restore();
}

const FONT_SIZE = 8;

/** Draws the pillar chart with its top-left corner at (x0, y0); returns its height. */
export function drawPillarChart(ctx: PdfText, entries: PillarEntry[], threshold: number, x0: number, y0: number, width: number): number {
  const { doc } = ctx;
  const layout = layoutPillarChart(
    entries.map((e) => ({ key: e.pillar, label: e.label, score: e.score })),
    threshold,
    { width, height: 190, fontSize: FONT_SIZE },
  );
  const p = layout.plot;
  const X = (v: number) => x0 + v;
  const Y = (v: number) => y0 + v;
  for (const tick of layout.ticks) {
    doc.moveTo(X(p.left), Y(tick.at)).lineTo(X(p.right), Y(tick.at)).lineWidth(0.5).stroke(PDF_COLORS.line);
    label(ctx, tick.label, X(p.left - 5), Y(tick.at), { size: 7, color: PDF_COLORS.muted, align: 'right', baseline: 'middle' });
  }
  for (const column of layout.columns) {
    const { bar: b, whisker: w, score } = column;
    if (b === null || w === null || score === null) {
      label(ctx, 'not measured', X(column.centerX), Y(p.bottom - 14), { size: 8, font: FONT.italic, color: PDF_COLORS.muted, align: 'center' });
    } else {
      bar(doc, X(b.x), Y(b.y), b.width, Math.max(b.height, 0.4), b.status);
      const c = w.capHalfWidth;
      whisker(doc, [
        [X(w.x), Y(w.top), X(w.x), Y(w.bottom)],
        [X(w.x - c), Y(w.top), X(w.x + c), Y(w.top)],
        [X(w.x - c), Y(w.bottom), X(w.x + c), Y(w.bottom)],
      ]);
      label(ctx, formatPercent(score.score), X(column.centerX), Y(w.top - 4), { size: 8.5, font: FONT.bold, align: 'center', baseline: 'alphabetic' });
    }
    label(ctx, column.label, X(column.centerX), Y(p.bottom + 6), { size: 8.5, font: FONT.bold, align: 'center' });
  }
  doc.moveTo(X(p.left), Y(p.bottom)).lineTo(X(p.right), Y(p.bottom)).lineWidth(0.9).stroke(PDF_COLORS.ink);
  dashedLine(doc, X(p.left), Y(layout.thresholdY), X(p.right), Y(layout.thresholdY));
  label(ctx, thresholdLabel(threshold), X(p.right + 5), Y(layout.thresholdY), { size: 7.5, font: FONT.bold, baseline: 'middle' });
  return layout.height;
}

/** Draws the harness chart with its top-left corner at (x0, y0); returns its height. */
export function drawHarnessChart(ctx: PdfText, model: EvaluationReportModel, x0: number, y0: number, width: number): number {
  const { doc } = ctx;
  const threshold = model.passThreshold;
  const layout = layoutHarnessChart(model.harnesses, threshold, { width, fontSize: FONT_SIZE });
  const p = layout.plot;
  const X = (v: number) => x0 + v;
  const Y = (v: number) => y0 + v;
  for (const tick of layout.ticks) {
    doc.moveTo(X(tick.at), Y(p.top)).lineTo(X(tick.at), Y(p.bottom)).lineWidth(0.5).stroke(PDF_COLORS.line);
    label(ctx, tick.label, X(tick.at), Y(p.bottom + 4), { size: 7, color: PDF_COLORS.muted, align: 'center' });
  }
  for (const row of layout.rows) {
    const { bar: b, whisker: w, score, track } = row;
    label(ctx, row.label, X(p.left - 7), Y(row.centerY), { size: 8.5, font: FONT.bold, align: 'right', baseline: 'middle' });
    doc.rect(X(track.x), Y(track.y), track.width, track.height).fill(PDF_COLORS.soft);
    if (b === null || w === null || score === null) {
      label(ctx, 'not measured (no prompt scored)', X(p.left + 6), Y(row.centerY), { size: 8, font: FONT.italic, color: PDF_COLORS.muted, baseline: 'middle' });
      label(ctx, '—', X(row.valueX), Y(row.centerY), { size: 8.5, font: FONT.bold, baseline: 'middle' });
      continue;
    }
    bar(doc, X(b.x), Y(b.y), Math.max(b.width, 0.4), b.height, b.status);
    const c = w.capHalfHeight;
    whisker(doc, [
      [X(w.low), Y(row.centerY), X(w.high), Y(row.centerY)],
      [X(w.low), Y(row.centerY - c), X(w.low), Y(row.centerY + c)],
      [X(w.high), Y(row.centerY - c), X(w.high), Y(row.centerY + c)],
    ]);
    const value = formatPercent(score.score);
    label(ctx, value, X(row.valueX), Y(row.centerY), { size: 8.5, font: FONT.bold, baseline: 'middle' });
    const offset = widthOf(ctx, value, 8.5, FONT.bold) + 5;
    label(ctx, formatInterval(score.low, score.high), X(row.valueX + offset), Y(row.centerY), { size: 7.5, color: PDF_COLORS.muted, baseline: 'middle' });
  }
  doc.moveTo(X(p.left), Y(p.top)).lineTo(X(p.left), Y(p.bottom)).lineWidth(0.9).stroke(PDF_COLORS.ink);
  dashedLine(doc, X(layout.thresholdX), Y(p.top - 3), X(layout.thresholdX), Y(p.bottom));
  label(ctx, thresholdLabel(threshold), X(layout.thresholdX), Y(p.top - 6), { size: 7.5, font: FONT.bold, align: 'center', baseline: 'alphabetic' });
  return layout.height;
}

/** A small meter for a table row (as the HTML's): track, bar, interval line and threshold tick. */
export function drawMeter(
  doc: PDFKit.PDFDocument,
  score: { score: number; low: number; high: number },
  threshold: number,
  x: number,
  y: number,
  w: number,
  h: number,
) {
  const at = (v: number) => x + Math.min(1, Math.max(0, v)) * w;
  doc.rect(x, y, w, h).fill(PDF_COLORS.line);
  const status = barStatus(score.score, threshold);
  if (at(score.score) > x) doc.rect(x, y, at(score.score) - x, h).fill(status === 'meets' ? PDF_COLORS.meets : PDF_COLORS.below);
  doc.moveTo(at(score.low), y + h / 2).lineTo(at(score.high), y + h / 2).lineWidth(0.9).stroke(PDF_COLORS.ink);
  doc.moveTo(at(threshold), y - 1).lineTo(at(threshold), y + h + 1).lineWidth(0.6).stroke(PDF_COLORS.ink);
}
