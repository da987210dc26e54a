/** The PDF report's results table: harness → scenario → probe rows, its header repeated on each page. */
import { PILLAR_LABEL } from './content.js';
import { drawMeter, FONT, label, PDF_COLORS as C, widthOf } from './pdf-charts.js';
import { BOTTOM, LEFT, WIDTH, type Writer } from './pdf-writer.js';
import { formatCount, formatInterval, formatPercent, NBSP } from './text.js';
import type { EvaluationReportModel } from '../types.js';

const COLS = { score: 52, n: 40, interval: 78, meter: 70 };
const NAME_WIDTH = WIDTH - COLS.score - COLS.n - COLS.interval - COLS.meter;

/** Room for a harness's row and its first scenario's, kept together. */
const HARNESS_START = 60;
const HEADER_HEIGHT = 10;
const LEAD =
  'Harness → scenario → probe. A probe scores the share of its prompts passed; a scenario is the mean of its probes, a harness the mean of its scenarios.';

function tableHeader(w: Writer, continued: boolean): void {
  const y = w.y;
  const head = (text: string, x: number, align: 'left' | 'right' = 'left') => label(w, text, x, y, { size: 6.5, font: FONT.bold, color: C.muted, align });
  head(continued ? 'HARNESS / SCENARIO / PROBE (CONTINUED)' : 'HARNESS / SCENARIO / PROBE', LEFT + 4);
  let x = LEFT + NAME_WIDTH;
  head('SCORE', (x += COLS.score) - 4, 'right');
  head('N', (x += COLS.n) - 4, 'right');
  head(`95${NBSP}% INTERVAL`, (x += COLS.interval) - 4, 'right');
  w.y += HEADER_HEIGHT;
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
    const nameWidth = widthOf(w, name, size, font);
    if (nameHeight < size * 1.6 && nameWidth + 90 < NAME_WIDTH - indent) {
      label(w, tag, LEFT + indent + nameWidth + 8, top + 5 + size * 0.15, { size: 6.5, font: FONT.bold, color: C.muted });
    }
  }
  const textY = top + (kind === 'harness' ? 5 : 3.5);
  let x = LEFT + NAME_WIDTH;
  const measured = score.n > 0;
  label(w, measured ? formatPercent(score.score) : '—', (x += COLS.score) - 4, textY, { size, font, align: 'right' });
  label(w, formatCount(score.n), (x += COLS.n) - 4, textY, { size, align: 'right' });
  label(w, measured ? formatInterval(score.low, score.high) : '—', (x += COLS.interval) - 4, textY, { size, align: 'right' });
  if (measured) drawMeter(w.doc, score, threshold, x + 8, textY + 1, COLS.meter - 14, 6);
  else label(w, 'not measured', x + 8, textY, { size: 7, font: FONT.italic, color: C.muted });
  w.y = top + height;
  w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(0.4).stroke(C.line);
}

export function probeTable(w: Writer, model: EvaluationReportModel): void {
  const leadGap = 6;
  // The heading stays with its lead, the column header and the first harness's start: never a header alone at a page's foot.
  w.heading('Results by probe', w.heightOf(LEAD, 8, WIDTH) + leadGap + HEADER_HEIGHT + HARNESS_START);
  if (model.harnesses.length === 0) {
    w.paragraph('No results.', { size: 9, font: FONT.italic, color: C.muted });
    return;
  }
  w.paragraph(LEAD, { size: 8, color: C.muted, gap: leadGap });
  tableHeader(w, false);
  for (const harness of model.harnesses) {
    const errors = harness.errors > 0 ? ` · ${formatCount(harness.errors)} ERROR${harness.errors === 1 ? '' : 'S'}` : '';
    // Keep a harness's first scenario with its heading row; the page it moves to gets the header again.
    if (w.y + HARNESS_START > BOTTOM) {
      w.newPage();
      tableHeader(w, true);
    }
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
