/**
 * The evaluation report as an A4 PDF: the HTML report's content, with vector charts drawn by
 * PDFKit and text in the built-in Helvetica (no font file, nothing fetched). The standard fonts
 * only hold WinAnsi, so every string goes through toWinAnsi first; what cannot be shown becomes
 * a visible `[?×n]` marker, explained at the end of the report.
 */
import PDFDocument from 'pdfkit';
import type { EvaluationReportModel } from '../types.js';
import {
  failureExamples,
  formatThreshold,
  pillarEntries,
  PILLAR_LABEL,
  reportFacts,
  reportTotals,
  requestParameterRows,
  statusNote,
  verdictOf,
  verdictSentence,
  VERDICT_LABEL,
  type FailureExample,
} from './content.js';
import { drawHarnessChart, drawMeter, drawPillarChart, FONT, label, PDF_COLORS as C, type PdfText } from './pdf-charts.js';
import { excerpt, formatCount, formatInterval, formatPercent, NBSP, toWinAnsi } from './text.js';

export const PDF_FAILURE_LIMITS = { promptChars: 500, responseChars: 700, maxLines: 10, reasonChars: 300 };

const PAGE = { width: 595.28, height: 841.89, margin: 50, top: 54, bottom: 60 };
const LEFT = PAGE.margin;
const WIDTH = PAGE.width - 2 * PAGE.margin;
const BOTTOM = PAGE.height - PAGE.bottom;

/** Keeps what a renderer needs while it moves down the pages. */
class Writer implements PdfText {
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

export function renderEvaluationPdf(model: EvaluationReportModel): Promise<Buffer> {
  const name = model.agent.name.trim() === '' ? 'Unnamed agent' : model.agent.name;
  const at = new Date((model.completedAt ?? model.createdAt) * 1000);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: LEFT, right: PAGE.margin },
    bufferPages: true,
    displayTitle: true,
    info: {
      // Metadata strings are UTF-16 in PDF, so the name is kept as written (without controls).
      Title: `Evaluation report: ${name.replace(/[\p{Cc}\p{Cf}]/gu, '')}`,
      Author: 'Warden',
      Subject: `Agent evaluation ${model.evaluationId}`,
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
    header(w, model, name);
    summary(w, model);
    pillarsAndHarnesses(w, model);
    probeTable(w, model);
    failures(w, model);
    parameters(w, model);
    reading(w, model);
    footers(w, model);
    doc.end();
  } catch (error) {
    doc.end();
    return Promise.reject(error);
  }
  return done;
}

function header(w: Writer, model: EvaluationReportModel, name: string): void {
  label(w, 'WARDEN · AGENT EVALUATION REPORT', LEFT, w.y, { size: 8, font: FONT.bold, color: C.muted });
  w.y += 14;
  w.paragraph(name, { size: 20, font: FONT.bold, gap: 2 });
  w.paragraph(`Model: ${model.agent.modelName ?? 'not stated'}     URL: ${model.agent.url ?? 'not stated'}`, { size: 9, color: C.muted, gap: 8 });
  w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(0.6).stroke(C.line);
  w.y += 14;
}

function summary(w: Writer, model: EvaluationReportModel): void {
  const { doc } = w;
  const verdict = verdictOf(model.overall, model.passThreshold);
  const palette = { pass: [C.pass, C.passBg], fail: [C.fail, C.failBg], 'not-measured': [C.none, C.noneBg] }[verdict];
  const top = w.y;
  const boxWidth = 180;
  const facts = reportFacts(model);
  const factsX = LEFT + boxWidth + 22;
  const factsWidth = WIDTH - boxWidth - 22;
  // Facts on the right, one per line: label column, then the value (which may wrap).
  let y = top;
  for (const fact of facts) {
    label(w, fact.label.toUpperCase(), factsX, y + 1.5, { size: 6.5, font: FONT.bold, color: C.muted });
    w.y = y;
    w.paragraph(fact.value, { size: 8.5, x: factsX + 78, width: factsWidth - 78 });
    y = Math.max(w.y, y + 11) + 3.5;
    doc.moveTo(factsX, y - 2).lineTo(factsX + factsWidth, y - 2).lineWidth(0.4).stroke(C.line);
  }
  // The verdict box on the left, as tall as the facts.
  const sentenceHeight = w.heightOf(verdictSentence(model), 7.5, boxWidth - 24);
  const boxHeight = Math.max(y - top, 96 + sentenceHeight);
  doc.roundedRect(LEFT, top, boxWidth, boxHeight, 6).lineWidth(1.6).fillAndStroke(palette[1], palette[0]);
  label(w, VERDICT_LABEL[verdict], LEFT + 12, top + 12, { size: 15, font: FONT.bold, color: palette[0] });
  const overall = model.overall;
  const measured = overall !== null && verdict !== 'not-measured';
  label(w, measured ? formatPercent(overall.score) : '—', LEFT + 12, top + 32, { size: 28, font: FONT.bold });
  const detail = measured
    ? `Overall · 95${NBSP}% CI ${formatInterval(overall.low, overall.high)} · n${NBSP}=${NBSP}${formatCount(overall.n)}`
    : 'Overall score not measured';
  label(w, detail, LEFT + 12, top + 66, { size: 7.5, color: C.ink });
  w.y = top + 82;
  w.paragraph(verdictSentence(model), { size: 7.5, color: C.muted, x: LEFT + 12, width: boxWidth - 24 });
  w.y = top + Math.max(boxHeight, y - top) + 10;
  const note = statusNote(model);
  if (note !== null) {
    const h = w.heightOf(`Note: ${note}`, 8.5, WIDTH - 20) + 10;
    doc.rect(LEFT, w.y, WIDTH, h).fill('#fdf1e7');
    doc.rect(LEFT, w.y, 3, h).fill(C.below);
    w.y += 5;
    w.paragraph(`Note: ${note}`, { size: 8.5, x: LEFT + 10, width: WIDTH - 20, gap: 5 });
  }
}

function pillarsAndHarnesses(w: Writer, model: EvaluationReportModel): void {
  w.heading('Pillars', 190);
  w.paragraph(
    `Each pillar is the mean of its harnesses. Bars: score; error bars: Wilson 95${NBSP}% interval; dashed line: the pass threshold. ` +
      'Hatched bars are below the threshold.',
    { size: 8, color: C.muted, gap: 4 },
  );
  w.y += drawPillarChart(w, pillarEntries(model), model.passThreshold, LEFT, w.y, WIDTH);
  w.heading('Harnesses', 40 + 20 * Math.min(model.harnesses.length, 8));
  if (model.harnesses.length === 0) {
    w.paragraph('No harness was run, so there are no harness scores.', { size: 9, font: FONT.italic, color: C.muted });
    return;
  }
  w.y += drawHarnessChart(w, model, LEFT, w.y, WIDTH);
}

const COLS = { score: 52, n: 40, interval: 78, meter: 70 };
const NAME_WIDTH = WIDTH - COLS.score - COLS.n - COLS.interval - COLS.meter;

function tableHeader(w: Writer, continued: boolean): void {
  const y = w.y;
  const head = (text: string, x: number, align: 'left' | 'right' = 'left') => label(w, text, x, y, { size: 6.5, font: FONT.bold, color: C.muted, align });
  head(continued ? 'HARNESS / SCENARIO / PROBE (CONTINUED)' : 'HARNESS / SCENARIO / PROBE', LEFT + 4);
  let x = LEFT + NAME_WIDTH;
  head('SCORE', (x += COLS.score) - 4, 'right');
  head('N', (x += COLS.n) - 4, 'right');
  head(`95${NBSP}% INTERVAL`, (x += COLS.interval) - 4, 'right');
  w.y += 10;
  w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(1).stroke(C.ink);
}

interface TableRow {
  kind: 'harness' | 'scenario' | 'probe';
  name: string;
  score: { score: number; n: number; low: number; high: number };
  /** Beside a harness's name (its pillar, its errors). */
  tag?: string;
  /** Under a probe's name. */
  description?: string;
}

function tableRow(w: Writer, row: TableRow, threshold: number) {
  const { kind, name, score, tag = '', description = '' } = row;
  const indent = { harness: 4, scenario: 16, probe: 30 }[kind];
  const font = kind === 'probe' ? FONT.regular : FONT.bold;
  const size = kind === 'harness' ? 9 : 8.5;
  const textWidth = NAME_WIDTH - indent - 6;
  const nameHeight = w.heightOf(name, size, textWidth, font);
  const descriptionHeight = description === '' ? 0 : w.heightOf(description, 7, textWidth);
  const height = Math.max(nameHeight, size * 1.2) + descriptionHeight + (kind === 'harness' ? 10 : 7);
  if (w.y + height > BOTTOM) {
    w.newPage();
    tableHeader(w, true);
  }
  const top = w.y;
  if (kind === 'harness') w.doc.rect(LEFT, top, WIDTH, height).fill(C.soft);
  w.y = top + (kind === 'harness' ? 5 : 3.5);
  w.paragraph(name, { size, font, x: LEFT + indent, width: textWidth });
  if (description !== '') w.paragraph(description, { size: 7, color: C.muted, x: LEFT + indent, width: textWidth });
  if (tag !== '') {
    w.doc.font(font).fontSize(size);
    const nameWidth = w.doc.widthOfString(w.win(name));
    if (nameHeight < size * 1.6 && nameWidth + 90 < NAME_WIDTH - indent) {
      label(w, tag, LEFT + indent + nameWidth + 8, top + 5 + size * 0.15, { size: 6.5, font: FONT.bold, color: C.muted });
    }
  }
  const textY = top + (kind === 'harness' ? 5 : 3.5);
  let x = LEFT + NAME_WIDTH;
  label(w, formatPercent(score.score), (x += COLS.score) - 4, textY, { size, font, align: 'right' });
  label(w, formatCount(score.n), (x += COLS.n) - 4, textY, { size, align: 'right' });
  label(w, formatInterval(score.low, score.high), (x += COLS.interval) - 4, textY, { size, align: 'right' });
  drawMeter(w.doc, score, threshold, x + 8, textY + 1, COLS.meter - 14, 6);
  w.y = top + height;
  w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(0.4).stroke(C.line);
}

function probeTable(w: Writer, model: EvaluationReportModel): void {
  w.heading('Results by probe', 80);
  if (model.harnesses.length === 0) {
    w.paragraph('No results.', { size: 9, font: FONT.italic, color: C.muted });
    return;
  }
  w.paragraph('Harness → scenario → probe. A probe scores the share of its prompts passed; a scenario is the mean of its probes, a harness the mean of its scenarios.', {
    size: 8,
    color: C.muted,
    gap: 6,
  });
  tableHeader(w, false);
  for (const harness of model.harnesses) {
    const errors = harness.errors > 0 ? ` · ${formatCount(harness.errors)} ERROR${harness.errors === 1 ? '' : 'S'}` : '';
    // Keep a harness's first scenario with its heading row.
    w.ensure(60);
    const tag = `${(PILLAR_LABEL[harness.pillar] ?? harness.pillar).toUpperCase()}${errors}`;
    tableRow(w, { kind: 'harness', name: harness.name, score: harness.score, tag }, model.passThreshold);
    for (const scenario of harness.scenarios) {
      tableRow(w, { kind: 'scenario', name: scenario.name, score: scenario.score }, model.passThreshold);
      for (const probe of scenario.probes) {
        tableRow(w, { kind: 'probe', name: probe.name, score: probe.score, description: probe.description }, model.passThreshold);
      }
    }
  }
}

const WHY = 'Why it failed:';

function failureBlock(w: Writer, failure: FailureExample, index: number): void {
  const inner = WIDTH - 20;
  const path = failure.path.join('  ›  ');
  const more = (omitted: number) => (omitted > 0 ? `\n[${formatCount(omitted)} more characters not shown]` : '');
  const prompt = failure.prompt.text + more(failure.prompt.omitted);
  const response = failure.response.text + more(failure.response.omitted);
  const reason = `${WHY} ${failure.reason}`;
  const heights = {
    path: w.heightOf(path, 9, inner - 26, FONT.bold),
    prompt: w.heightOf(prompt, 8, inner - 12),
    response: w.heightOf(response, 8, inner - 12),
    reason: w.heightOf(reason, 8.5, inner),
  };
  const total = 10 + heights.path + 6 + 2 * (12 + 8) + heights.prompt + heights.response + 6 + heights.reason + 10;
  w.ensure(total + 8);
  const top = w.y;
  const { doc } = w;
  doc.roundedRect(LEFT, top, WIDTH, total, 5).lineWidth(0.7).stroke(C.line);
  const x = LEFT + 10;
  doc.roundedRect(x, top + 9, 20, 12, 2).fill(C.ink);
  label(w, String(index + 1), x + 10, top + 11.5, { size: 7.5, font: FONT.bold, color: '#ffffff', align: 'center' });
  w.y = top + 10;
  w.paragraph(path, { size: 9, font: FONT.bold, x: x + 26, width: inner - 26, gap: 6 });
  for (const [title, text, h] of [['PROMPT', prompt, heights.prompt], ['RESPONSE', response, heights.response]] as const) {
    label(w, title, x, w.y, { size: 6.5, font: FONT.bold, color: C.muted });
    w.y += 10;
    doc.roundedRect(x, w.y, inner, h + 8, 3).fill(C.soft);
    w.y += 4;
    w.paragraph(text, { size: 8, x: x + 6, width: inner - 12, gap: 6 });
  }
  w.y += 4;
  // The label in bold, the reason run on after it in the same paragraph.
  doc.font(FONT.bold).fontSize(8.5).fillColor(C.ink).text(`${WHY} `, x, w.y, { width: inner, lineGap: 1.5, continued: true });
  doc.font(FONT.regular).text(w.win(failure.reason), { width: inner, lineGap: 1.5 });
  w.y = top + total + 8;
}

function failures(w: Writer, model: EvaluationReportModel): void {
  const list = failureExamples(model, PDF_FAILURE_LIMITS);
  w.heading(`Failure examples (${list.length})`, 120);
  const errors = reportTotals(model).errors;
  w.paragraph(
    `A selection of failed prompts (at most a few per probe), with the agent's answer; long texts are cut. ${formatCount(errors)} ` +
      `prompt${errors === 1 ? '' : 's'} could not be sent to the agent and ${errors === 1 ? 'is' : 'are'} not counted as failures.`,
    { size: 8, color: C.muted, gap: 8 },
  );
  if (list.length === 0) w.paragraph('No failed prompt was recorded.', { size: 9, font: FONT.italic, color: C.muted });
  list.forEach((failure, i) => failureBlock(w, failure, i));
}

function parameters(w: Writer, model: EvaluationReportModel): void {
  w.heading('Request parameters', 40);
  const rows = requestParameterRows(model.requestParams);
  if (rows.length === 0) w.paragraph('The request set no parameters.', { size: 9, font: FONT.italic, color: C.muted });
  for (const row of rows) {
    const h = Math.max(w.heightOf(row.key, 8.5, 140, FONT.bold), w.heightOf(row.value, 8.5, WIDTH - 160)) + 7;
    w.ensure(h);
    const top = w.y;
    w.y = top + 3.5;
    w.paragraph(row.key, { size: 8.5, font: FONT.bold, x: LEFT + 4, width: 140 });
    w.y = top + 3.5;
    w.paragraph(row.value, { size: 8.5, x: LEFT + 160, width: WIDTH - 160 });
    w.y = top + h;
    w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(0.4).stroke(C.line);
  }
}

function reading(w: Writer, model: EvaluationReportModel): void {
  w.heading('How to read this report', 60);
  const bullets = [
    'Every score is a share of prompts passed, from 0 to 100 %. n is the number of prompts it stands on; prompts the agent could not answer (errors) are not in any score.',
    `The interval is the Wilson 95${NBSP}% confidence interval: with few prompts it is wide, and two scores whose intervals overlap may not really differ.`,
    `The verdict is PASS when the overall score (the mean of the measured pillars) is at least ${formatThreshold(model.passThreshold)}, FAIL below it. ` +
      'Shown percentages are truncated, not rounded, so a score just under the threshold never reads as reaching it.',
    'Times are UTC (ISO 8601).',
  ];
  if (w.replaced > 0) {
    bullets.push(
      `This PDF uses a standard font that cannot show some characters (such as Chinese, Arabic, Hebrew or emoji): ${formatCount(w.replaced)} ` +
        'of them appear as [?] or [?×n] (n characters). The HTML report shows the texts as written.',
    );
  }
  for (const bullet of bullets) {
    w.ensure(w.heightOf(bullet, 8.5, WIDTH - 12) + 4);
    label(w, '•', LEFT + 2, w.y, { size: 8.5 });
    w.paragraph(bullet, { size: 8.5, x: LEFT + 12, width: WIDTH - 12, gap: 4 });
  }
}

function footers(w: Writer, model: EvaluationReportModel): void {
  const { doc } = w;
  const range = doc.bufferedPageRange();
  const id = excerpt(model.evaluationId, 60).text;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing in the bottom margin would make PDFKit open a page; lift the margin while we do.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 38;
    doc.moveTo(LEFT, y - 6).lineTo(LEFT + WIDTH, y - 6).lineWidth(0.5).stroke(C.line);
    label(w, `Warden · evaluation ${id}`, LEFT, y, { size: 7.5, color: C.muted });
    label(w, `Page ${i - range.start + 1} of ${range.count}`, LEFT + WIDTH, y, { size: 7.5, color: C.muted, align: 'right' });
    doc.page.margins.bottom = margin;
  }
}
