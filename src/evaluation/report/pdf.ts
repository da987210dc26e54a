/**
 * The evaluation report as an A4 PDF: the HTML report's content, with vector charts drawn by
 * PDFKit and text in embedded Noto fonts chosen per run of text (fonts.ts: Latin, Greek,
 * Cyrillic, Arabic, Hebrew, Thai, Devanagari, Chinese, Japanese, Korean; nothing fetched). A
 * character none of them holds becomes a visible `[?×n]` marker, named at the end of the report.
 */
import type { EvaluationReportModel } from '../types.js';
import {
  boundedModel,
  evaluationReading,
  failureExamples,
  pillarEntries,
  reportFacts,
  reportTotals,
  requestParameterRows,
  statusNote,
  reportVerdict,
  verdictSentence,
  VERDICT_LABEL,
  type FailureExample,
} from './content.js';
import { drawHarnessChart, drawPillarChart, FONT, label, PDF_COLORS as C } from './pdf-charts.js';
import { probeTable } from './pdf-table.js';
import {
  coverageSection,
  exchangeBox,
  factsColumn,
  firstPage,
  mappingLine,
  pageFooters,
  provenanceSection,
  readingSection,
  reportHeader,
  textTable,
} from './pdf-sections.js';
import { drawRuns } from './pdf-text.js';
import { comparisonView, evaluationProvenanceRows, HASH_LEAD, NO_PREVIOUS_RUN } from './provenance.js';
import { evaluationCoverage, evaluationNextSteps, evaluationRisks } from './risks.js';
import { LEFT, renderPdf, WIDTH, type Writer } from './pdf-writer.js';
import { formatCount, formatInterval, formatPercent, NBSP } from './text.js';

export const PDF_FAILURE_LIMITS = { promptChars: 500, responseChars: 700, maxLines: 10, reasonChars: 300 };

export function renderEvaluationPdf(input: EvaluationReportModel): Promise<Buffer> {
  const model = boundedModel(input);
  const name = model.agent.name.trim() === '' ? 'Unnamed agent' : model.agent.name;
  const title = `Evaluation report: ${name}`;
  return renderPdf({ title, subject: `Agent evaluation ${model.evaluationId}`, timestamp: model.completedAt ?? model.createdAt }, (w) => {
    header(w, model, name);
    summary(w, model);
    const risks = evaluationRisks(model);
    firstPage(w, risks, evaluationNextSteps(model, risks), 'No prompt failed: no risk was found by the harnesses run.', (n) =>
      `${n === 1 ? 'One more risk is' : `${n} more risks are`} in the results by probe and the failure examples below.`,
    );
    pillarsAndHarnesses(w, model);
    comparison(w, model);
    probeTable(w, model);
    failures(w, model);
    coverageSection(w, evaluationCoverage(model), 'Probes');
    parameters(w, model);
    provenanceSection(w, evaluationProvenanceRows(model), HASH_LEAD);
    reading(w, model);
    pageFooters(w, 'evaluation', model.evaluationId);
  });
}

function header(w: Writer, model: EvaluationReportModel, name: string): void {
  reportHeader(w, 'WARDEN · AGENT EVALUATION REPORT', name, model.agent);
  w.doc.moveTo(LEFT, w.y).lineTo(LEFT + WIDTH, w.y).lineWidth(0.6).stroke(C.line);
  w.y += 14;
}

function summary(w: Writer, model: EvaluationReportModel): void {
  const { doc } = w;
  const verdict = reportVerdict(model);
  const palette = { pass: [C.pass, C.passBg], fail: [C.fail, C.failBg], 'not-measured': [C.none, C.noneBg], incomplete: [C.none, C.noneBg] }[verdict];
  const top = w.y;
  const boxWidth = 180;
  const facts = reportFacts(model);
  const factsX = LEFT + boxWidth + 22;
  const factsWidth = WIDTH - boxWidth - 22;
  const y = factsColumn(w, facts, factsX, factsWidth, top);
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

const WHY = 'Why it failed:';

const FAILURE_INNER = WIDTH - 20;

/** A failure block's texts and the heights they take, measured before anything is drawn. */
function measureFailure(w: Writer, failure: FailureExample) {
  const inner = FAILURE_INNER;
  const more = (omitted: number) => (omitted > 0 ? `\n[${formatCount(omitted)} more characters not shown]` : '');
  const texts = {
    path: failure.path.join('  ›  '),
    meta: [
      failure.promptId === null ? '' : `Prompt ${failure.promptId}`,
      failure.variation === null ? '' : `transform ${failure.variation}`,
      mappingLine(failure.mapping),
    ]
      .filter((m) => m !== '')
      .join(' · '),
    prompt: failure.prompt.text + more(failure.prompt.omitted),
    response: failure.response.text + more(failure.response.omitted),
  };
  const heights = {
    path: w.heightOf(texts.path, 9, inner - 26, FONT.bold),
    meta: texts.meta === '' ? 0 : w.heightOf(texts.meta, 7.5, inner) + 4,
    prompt: w.heightOf(texts.prompt, 8, inner - 12),
    response: w.heightOf(texts.response, 8, inner - 12),
    reason: w.heightOf(`${WHY} ${failure.reason}`, 8.5, inner),
  };
  const total = 10 + heights.path + 6 + heights.meta + 2 * (12 + 8) + heights.prompt + heights.response + 6 + heights.reason + 10;
  return { texts, heights, total };
}

function failureBlock(w: Writer, failure: FailureExample, index: number): void {
  const inner = FAILURE_INNER;
  const { texts, heights, total } = measureFailure(w, failure);
  const { path, meta, prompt, response } = texts;
  w.ensure(total + 8);
  const top = w.y;
  const { doc } = w;
  doc.roundedRect(LEFT, top, WIDTH, total, 5).lineWidth(0.7).stroke(C.line);
  const x = LEFT + 10;
  doc.roundedRect(x, top + 9, 20, 12, 2).fill(C.ink);
  label(w, String(index + 1), x + 10, top + 11.5, { size: 7.5, font: FONT.bold, color: '#ffffff', align: 'center' });
  w.y = top + 10;
  w.paragraph(path, { size: 9, font: FONT.bold, x: x + 26, width: inner - 26, gap: 6 });
  if (meta !== '') w.paragraph(meta, { size: 7.5, color: C.muted, x, width: inner, gap: 4 });
  exchangeBox(w, 'PROMPT', prompt, heights.prompt, x, inner);
  exchangeBox(w, 'RESPONSE', response, heights.response, x, inner);
  w.y += 4;
  // The label in bold, the reason run on after it in the same paragraph.
  doc.fillColor(C.ink);
  drawRuns(doc, [...w.runs(`${WHY} `, FONT.bold), ...w.runs(failure.reason, FONT.regular)], x, w.y, 8.5, { width: inner, lineGap: 1.5 });
  w.y = top + total + 8;
}

function failures(w: Writer, model: EvaluationReportModel): void {
  const list = failureExamples(model, PDF_FAILURE_LIMITS);
  // Keep the heading with its lead paragraph and the first example.
  const first = list[0] === undefined ? 20 : measureFailure(w, list[0]).total + 8;
  w.heading(`Failure examples (${list.length})`, 40 + first);
  const errors = reportTotals(model).errors;
  w.paragraph(
    `A selection of failed prompts (at most a few per probe), with the agent's answer; long texts are cut. ${formatCount(errors)} ` +
      `prompt${errors === 1 ? '' : 's'} could not be sent to the agent and ${errors === 1 ? 'is' : 'are'} not counted as failures.`,
    { size: 8, color: C.muted, gap: 8 },
  );
  if (list.length === 0) w.paragraph('No failed prompt was recorded.', { size: 9, font: FONT.italic, color: C.muted });
  list.forEach((failure, i) => failureBlock(w, failure, i));
}

function comparison(w: Writer, model: EvaluationReportModel): void {
  const view = comparisonView(model);
  w.heading('Compared with the previous run', 80);
  if (view === null) {
    w.paragraph(NO_PREVIOUS_RUN, { size: 9, font: FONT.italic, color: C.muted });
    return;
  }
  w.paragraph(view.lead, { size: 8, color: C.muted, gap: 6 });
  textTable(
    w,
    [['SCORE', 'PREVIOUS', 'THIS RUN', 'CHANGE'], ...view.rows.map((r) => [r.label, r.before, r.after, r.change])],
    [WIDTH - 240, 80, 80, 80],
    ['left', 'right', 'right', 'right'],
  );
  w.y += 6;
  w.paragraph(`New failures: ${view.newFailures}`, { size: 8.5, gap: 3 });
  w.paragraph(`Fixed failures: ${view.fixedFailures}`, { size: 8.5, gap: 3 });
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
  readingSection(w, evaluationReading(model));
}
