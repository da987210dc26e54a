/**
 * PDF pieces both reports (evaluation and campaign) use: the top risks, what to do next, the
 * OWASP / ATLAS coverage tables, the facts a recipient checks the report by, and the page's frame
 * (title block, facts column, footers).
 */
import { atlasLabel, owaspLabel, type CoverageRow, type FrameworkMapping } from './frameworks.js';
import type { ProvenanceRow } from './html-sections.js';
import { FONT, label, PDF_COLORS as C } from './pdf-charts.js';
import { BOTTOM, LEFT, PAGE, WIDTH, type Writer } from './pdf-writer.js';
import { SEVERITY_LABEL, type Risk } from './risks.js';
import { excerpt, formatCount, truncate } from './text.js';

export const mappingLine = (mapping: FrameworkMapping) => [...mapping.owasp.map(owaspLabel), ...mapping.atlas.map(atlasLabel)].join(' · ');

const SEVERITY_COLOR: Record<Risk['severity'], string> = { critical: C.fail, high: C.below, medium: C.muted, low: C.meets };

/** A risk's card: its lines and the height it takes. */
function riskCard(w: Writer, risk: Risk): { title: string; mapping: string; example: string; height: number } {
  const inner = WIDTH - 16;
  const title = `${risk.title} · ${risk.detail}`;
  const mapping = mappingLine(risk.mapping);
  const example =
    risk.example === null
      ? ''
      : `Example ${truncate(risk.example.id, 120)}: \u201c${truncate(risk.example.prompt, 160)}\u201d → \u201c${truncate(risk.example.response, 160)}\u201d`;
  const height =
    8 +
    11 +
    w.heightOf(title, 9, inner, FONT.bold) +
    (mapping === '' ? 0 : w.heightOf(mapping, 7.5, inner) + 2) +
    (example === '' ? 0 : w.heightOf(example, 8, inner) + 2) +
    6;
  return { title, mapping, example, height };
}

function riskBlock(w: Writer, risk: Risk): void {
  const inner = WIDTH - 16;
  const { title, mapping, example, height } = riskCard(w, risk);
  w.ensure(height + 6);
  const top = w.y;
  w.doc.rect(LEFT, top, WIDTH, height).lineWidth(0.6).stroke(C.line);
  w.doc.rect(LEFT, top, 4, height).fill(SEVERITY_COLOR[risk.severity]);
  label(w, SEVERITY_LABEL[risk.severity], LEFT + 12, top + 6, { size: 7.5, font: FONT.bold, color: SEVERITY_COLOR[risk.severity] });
  w.y = top + 17;
  w.paragraph(title, { size: 9, font: FONT.bold, x: LEFT + 12, width: inner, gap: 2 });
  if (mapping !== '') w.paragraph(mapping, { size: 7.5, color: C.muted, x: LEFT + 12, width: inner, gap: 2 });
  if (example !== '') w.paragraph(example, { size: 8, x: LEFT + 12, width: inner, gap: 2 });
  w.y = top + height + 6;
}

export function bullets(w: Writer, items: readonly string[], numbered = false): void {
  items.forEach((item, i) => {
    w.ensure(w.heightOf(item, 8.5, WIDTH - 14) + 4);
    label(w, numbered ? `${i + 1}.` : '•', LEFT + 1, w.y, { size: 8.5, font: numbered ? FONT.bold : FONT.regular });
    w.paragraph(item, { size: 8.5, x: LEFT + 14, width: WIDTH - 14, gap: 4 });
  });
}

/** The fewest top risks the first page shows when it cannot hold five and the next steps. */
const MIN_FIRST_PAGE_RISKS = 3;

/**
 * Top risks, then what to do next: the rest of the first page. The page a recipient reads first
 * holds the verdict, the risks and the next steps together: when all of them do not fit, risks
 * are left off (down to three; the rest are in the tables after) before the next steps would
 * move to page 2.
 */
export function firstPage(w: Writer, risks: readonly Risk[], steps: readonly string[], emptyText: string, moreText: (n: number) => string): void {
  const stepsHeight = 14 + 26 + steps.reduce((sum, step) => sum + w.heightOf(step, 8.5, WIDTH - 14) + 4, 0);
  const heights = risks.map((risk) => riskCard(w, risk).height + 6);
  let shown = risks.length;
  const fits = (n: number) => w.y + 14 + 26 + 14 + heights.slice(0, n).reduce((a, b) => a + b, 0) + stepsHeight <= BOTTOM;
  while (shown > MIN_FIRST_PAGE_RISKS && !fits(shown)) shown--;
  w.heading('Top risks', 60);
  if (risks.length === 0) w.paragraph(emptyText, { size: 9, font: FONT.italic, color: C.muted, gap: 4 });
  for (const risk of risks.slice(0, shown)) riskBlock(w, risk);
  if (shown < risks.length) w.paragraph(moreText(risks.length - shown), { size: 8, font: FONT.italic, color: C.muted });
  w.heading('What to do next', 40);
  bullets(w, steps, true);
}

/** A table of rows of text cells, widths in points; the first row is the header. */
export function textTable(
  w: Writer,
  rows: ReadonlyArray<readonly string[]>,
  widths: readonly number[],
  align: ReadonlyArray<'left' | 'right'>,
  header = true,
): void {
  rows.forEach((row, index) => {
    const r = header ? index : index + 1;
    const font = r === 0 ? FONT.bold : FONT.regular;
    const size = r === 0 ? 7 : 8.5;
    const h = Math.max(...row.map((cell, i) => w.heightOf(cell, size, (widths[i] ?? 60) - 8, font))) + 6;
    w.ensure(h);
    const top = w.y;
    let x = LEFT;
    row.forEach((cell, i) => {
      const width = widths[i] ?? 60;
      if (align[i] === 'right') label(w, cell, x + width - 4, top + 3, { size, font, align: 'right', color: r === 0 ? C.muted : C.ink });
      else {
        w.y = top + 3;
        w.paragraph(cell, { size, font, x: x + 4, width: width - 8, color: r === 0 ? C.muted : C.ink });
      }
      x += width;
    });
    w.y = top + h;
    w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(r === 0 ? 1 : 0.4).stroke(r === 0 ? C.ink : C.line);
  });
}

export function coverageSection(w: Writer, cov: { owasp: CoverageRow[]; atlas: CoverageRow[] }, unit: string): void {
  w.heading('OWASP Top 10 for LLM (2025) and MITRE ATLAS', 120);
  w.paragraph(
    `Each ${unit.toLowerCase().replace(/s$/, '')} tested maps to the OWASP items and ATLAS techniques its attack belongs to. An OWASP item with nothing tested was not covered by this run.`,
    { size: 8, color: C.muted, gap: 6 },
  );
  const widths = [WIDTH - 170, 85, 85];
  const rows = (title: string, list: readonly CoverageRow[]) => [
    [title, `${unit.toUpperCase()} TESTED`, 'WITH FAILURES'],
    ...list.map((r) => [`${r.id} ${r.name}`, formatCount(r.tested), r.tested === 0 ? '—' : formatCount(r.failing)]),
  ];
  textTable(w, rows('OWASP TOP 10 FOR LLM (2025)', cov.owasp), widths, ['left', 'right', 'right']);
  w.y += 8;
  textTable(w, rows('MITRE ATLAS TECHNIQUE', cov.atlas), widths, ['left', 'right', 'right']);
}

export function provenanceSection(w: Writer, rows: readonly ProvenanceRow[], lead: string): void {
  w.heading('How this report was made', 80);
  w.paragraph(lead, { size: 8, color: C.muted, gap: 6 });
  textTable(w, rows.map((r) => [r.label, r.value]), [130, WIDTH - 130], ['left', 'left'], false);
}

/** The title block: what the report is, the agent's name, its model and URL. */
export function reportHeader(w: Writer, eyebrow: string, name: string, agent: { modelName: string | null; url: string | null }): void {
  label(w, eyebrow, LEFT, w.y, { size: 8, font: FONT.bold, color: C.muted });
  w.y += 14;
  w.paragraph(name, { size: 20, font: FONT.bold, gap: 2 });
  w.paragraph(`Model: ${agent.modelName ?? 'not stated'}     URL: ${agent.url ?? 'not stated'}`, { size: 9, color: C.muted, gap: 8 });
}

/** The facts beside the verdict box, one per line from `top` (label column, then the value, which may wrap); returns where they end. */
export function factsColumn(w: Writer, facts: ReadonlyArray<{ label: string; value: string }>, x: number, width: number, top: number): number {
  let y = top;
  for (const fact of facts) {
    label(w, fact.label.toUpperCase(), x, y + 1.5, { size: 6.5, font: FONT.bold, color: C.muted });
    w.y = y;
    w.paragraph(fact.value, { size: 8.5, x: x + 78, width: width - 78 });
    y = Math.max(w.y, y + 11) + 3.5;
    w.doc.moveTo(x, y - 2).lineTo(x + width, y - 2).lineWidth(0.4).stroke(C.line);
  }
  return y;
}

/** One side of an exchange (the prompt or the answer): a small heading over the text on a shaded box `height` tall. */
export function exchangeBox(w: Writer, heading: string, text: string, height: number, x: number, width: number): void {
  label(w, heading, x, w.y, { size: 6.5, font: FONT.bold, color: C.muted });
  w.y += 10;
  w.doc.roundedRect(x, w.y, width, height + 8, 3).fill(C.soft);
  w.y += 4;
  w.paragraph(text, { size: 8, x: x + 6, width: width - 12, gap: 6 });
}

/** Every page's footer: a rule, what the report is of (`source` and its `id`, cut to 60 characters) on the left, the page number on the right. */
export function pageFooters(w: Writer, source: string, id: string): void {
  const { doc } = w;
  const range = doc.bufferedPageRange();
  const text = `Warden · ${source} ${excerpt(id, 60).text}`;
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    // Writing in the bottom margin would make PDFKit open a page; lift the margin while we do.
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 38;
    doc.moveTo(LEFT, y - 6).lineTo(LEFT + WIDTH, y - 6).lineWidth(0.5).stroke(C.line);
    label(w, text, LEFT, y, { size: 7.5, color: C.muted });
    label(w, `Page ${i - range.start + 1} of ${range.count}`, LEFT + WIDTH, y, { size: 7.5, color: C.muted, align: 'right' });
    doc.page.margins.bottom = margin;
  }
}

/** "How to read this report": its bullets, then the note naming the characters the PDF could not print. */
export function readingSection(w: Writer, items: readonly string[]): void {
  w.heading('How to read this report', 60);
  const replaced = w.replacedNote();
  for (const item of replaced === null ? items : [...items, replaced]) {
    w.ensure(w.heightOf(item, 8.5, WIDTH - 12) + 4);
    label(w, '•', LEFT + 2, w.y, { size: 8.5 });
    w.paragraph(item, { size: 8.5, x: LEFT + 12, width: WIDTH - 12, gap: 4 });
  }
}
