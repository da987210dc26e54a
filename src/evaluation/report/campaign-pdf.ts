/**
 * A red-team campaign's report as an A4 PDF: the HTML report's content, drawn with the evaluation
 * report's writer (embedded fonts per script, pages, footers).
 */
import PDFDocument from 'pdfkit';
import { attackMapping } from './frameworks.js';
import { boundedCampaign, campaignFacts, campaignProvenanceRows, CAMPAIGN_LIMITS } from './campaign-content.js';
import {
  CAMPAIGN_VERDICT_LABEL,
  campaignCoverage,
  campaignNextSteps,
  campaignRisks,
  campaignVerdict,
  campaignVerdictSentence,
  categoryName,
  rateText,
  type CampaignReportModel,
} from './campaign-model.js';
import { FONT, label, PDF_COLORS as C } from './pdf-charts.js';
import { coverageSection, firstPage, mappingLine, provenanceSection, textTable } from './pdf-sections.js';
import { LEFT, PAGE, WIDTH, Writer } from './pdf-writer.js';
import { excerpt, formatCount, formatPercent, NBSP } from './text.js';

export function renderCampaignPdf(input: CampaignReportModel): Promise<Buffer> {
  const model = boundedCampaign(input);
  const name = model.agent.name.trim() === '' ? 'Unnamed agent' : model.agent.name;
  const at = new Date((model.completedAt ?? model.createdAt) * 1000);
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: PAGE.top, bottom: PAGE.bottom, left: LEFT, right: PAGE.margin },
    bufferPages: true,
    displayTitle: true,
    info: {
      Title: `Red-team report: ${name.replace(/[\p{Cc}\p{Cf}]/gu, '')}`,
      Author: 'Warden',
      Subject: `Red-team campaign ${model.campaignId}`,
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
    label(w, 'WARDEN · RED-TEAM CAMPAIGN REPORT', LEFT, w.y, { size: 8, font: FONT.bold, color: C.muted });
    w.y += 14;
    w.paragraph(name, { size: 20, font: FONT.bold, gap: 2 });
    w.paragraph(`Model: ${model.agent.modelName ?? 'not stated'}     URL: ${model.agent.url ?? 'not stated'}`, { size: 9, color: C.muted, gap: 8 });
    summary(w, model);
    const risks = campaignRisks(model);
    firstPage(w, risks, campaignNextSteps(model, risks), 'No attack succeeded: no risk was found by the categories tested.');
    rates(w, model);
    suggestion(w, model);
    successes(w, model);
    coverageSection(w, campaignCoverage(model), 'Categories');
    provenanceSection(w, campaignProvenanceRows(model), 'The findings this report was built from are those GET /v1/campaigns/{id}/results answers.');
    if (w.replaced > 0) {
      w.y += 8;
      w.paragraph(
        'The fonts embedded in this PDF (Noto Sans, Noto Sans Arabic, Noto Sans JP) do not hold some characters of this report ' +
          '(such as Hebrew, Thai or emoji): ' +
          'they appear as [?], or [?×n] for a run of n characters. The HTML report shows the texts as written.',
        { size: 8, color: C.muted },
      );
    }
    footers(w, model.campaignId);
    doc.end();
  } catch (error) {
    doc.end();
    return Promise.reject(error);
  }
  return done;
}

function summary(w: Writer, model: CampaignReportModel): void {
  const verdict = campaignVerdict(model);
  const [ink, background] = { pass: [C.pass, C.passBg], fail: [C.fail, C.failBg], 'not-measured': [C.none, C.noneBg] }[verdict];
  const top = w.y;
  const boxWidth = 180;
  const factsX = LEFT + boxWidth + 22;
  const factsWidth = WIDTH - boxWidth - 22;
  let y = top;
  for (const fact of campaignFacts(model)) {
    label(w, fact.label.toUpperCase(), factsX, y + 1.5, { size: 6.5, font: FONT.bold, color: C.muted });
    w.y = y;
    w.paragraph(fact.value, { size: 8.5, x: factsX + 78, width: factsWidth - 78 });
    y = Math.max(w.y, y + 11) + 3.5;
    w.doc.moveTo(factsX, y - 2).lineTo(factsX + factsWidth, y - 2).lineWidth(0.4).stroke(C.line);
  }
  const sentence = campaignVerdictSentence(model);
  const boxHeight = Math.max(y - top, 96 + w.heightOf(sentence, 7.5, boxWidth - 24));
  w.doc.roundedRect(LEFT, top, boxWidth, boxHeight, 6).lineWidth(1.6).fillAndStroke(background, ink);
  label(w, CAMPAIGN_VERDICT_LABEL[verdict], LEFT + 12, top + 12, { size: 15, font: FONT.bold, color: ink });
  label(w, model.overall.rate === null ? '—' : formatPercent(model.overall.rate), LEFT + 12, top + 32, { size: 28, font: FONT.bold });
  label(w, `Attack success rate · n${NBSP}=${NBSP}${formatCount(model.overall.n)}`, LEFT + 12, top + 66, { size: 7.5 });
  w.y = top + 82;
  w.paragraph(sentence, { size: 7.5, color: C.muted, x: LEFT + 12, width: boxWidth - 24 });
  w.y = top + Math.max(boxHeight, y - top) + 10;
  if (model.note !== null) w.paragraph(`Note: ${model.note}`, { size: 8.5, gap: 4 });
}

function rates(w: Writer, model: CampaignReportModel): void {
  w.heading('Attack success rate', 80);
  w.paragraph('Successful attacks / attacks judged, with the Wilson 95 % interval. Attacks that errored are in no rate.', { size: 8, color: C.muted, gap: 6 });
  const widths = [WIDTH - 290, 55, 65, 170];
  const align = ['left', 'right', 'right', 'left'] as const;
  textTable(
    w,
    [
      ['CATEGORY', 'JUDGED', 'SUCCEEDED', 'SUCCESS RATE (95 % INTERVAL)'],
      ...model.byCategory.map((c) => [
        `${categoryName(c.category)}\n${mappingLine(attackMapping(c.category, null))}`,
        formatCount(c.rate.n),
        formatCount(c.rate.successful),
        rateText(c.rate),
      ]),
      ['All categories', formatCount(model.overall.n), formatCount(model.overall.successful), rateText(model.overall)],
    ],
    widths,
    align,
  );
  w.y += 8;
  textTable(
    w,
    [
      ['STRATEGY', 'JUDGED', 'SUCCEEDED', 'SUCCESS RATE (95 % INTERVAL)'],
      ...model.byStrategy.map((s) => [s.strategy, formatCount(s.rate.n), formatCount(s.rate.successful), rateText(s.rate)]),
    ],
    widths,
    align,
  );
}

function suggestion(w: Writer, model: CampaignReportModel): void {
  w.heading('Suggested Dome configuration', 80);
  const s = model.suggestion;
  if (s === null) {
    w.paragraph('None: no guard Warden tried would have stopped a successful attack.', { size: 9, font: FONT.italic, color: C.muted });
    return;
  }
  w.paragraph(`It would have stopped ${formatCount(s.wouldStop)} of the ${formatCount(s.successfulAttacks)} successful attacks.`, { size: 9, gap: 4 });
  for (const g of s.guards) {
    w.paragraph(`• ${g.guard} (${g.direction}: ${g.methods.join(', ')}) would have stopped ${formatCount(g.wouldStop)}`, { size: 8.5, gap: 2 });
  }
  w.y += 4;
  const body = excerpt(s.configBody, 3000, 60).text;
  const h = w.heightOf(body, 7.5, WIDTH - 12) + 8;
  w.ensure(Math.min(h, 300));
  if (h < 700) w.doc.rect(LEFT, w.y, WIDTH, h).fill(C.soft);
  w.y += 4;
  w.paragraph(body, { size: 7.5, x: LEFT + 6, width: WIDTH - 12, gap: 8 });
  w.paragraph(s.howToApply, { size: 8, color: C.muted, gap: 4 });
}

function successes(w: Writer, model: CampaignReportModel): void {
  w.heading(`Successful attacks (${formatCount(model.totals.successful)})`, 120);
  const shown = model.successes;
  w.paragraph(
    shown.length < model.totals.successful
      ? `The first ${formatCount(shown.length)} of ${formatCount(model.totals.successful)} successful attacks, in plan order; the results API lists them all.`
      : 'Every successful attack, in plan order. Long texts are cut.',
    { size: 8, color: C.muted, gap: 8 },
  );
  if (shown.length === 0) w.paragraph('No attack succeeded.', { size: 9, font: FONT.italic, color: C.muted });
  const limits = CAMPAIGN_LIMITS.pdf;
  shown.forEach((s, i) => {
    const inner = WIDTH - 20;
    const title = `${i + 1}. ${categoryName(s.category)}  ›  ${s.probe ?? s.category}`;
    const check = s.detector === null ? '' : ` · check ${s.detector}`;
    const mapping = mappingLine(attackMapping(s.category, s.probe, s.strategy));
    const meta = `Attack ${s.attackId} · strategy ${s.strategy} · severity ${s.severity}${check} · ${mapping}`;
    const prompt = excerpt(s.prompt, limits.promptChars, limits.maxLines).text;
    const response = excerpt(s.response, limits.responseChars, limits.maxLines).text;
    const reason = `Why it succeeded: ${s.reason}`;
    const hp = w.heightOf(prompt, 8, inner - 12);
    const hr = w.heightOf(response, 8, inner - 12);
    const total =
      10 + w.heightOf(title, 9, inner, FONT.bold) + 4 + w.heightOf(meta, 7.5, inner) + 6 + 2 * (10 + 8 + 6) + hp + hr + w.heightOf(reason, 8.5, inner) + 12;
    w.ensure(Math.min(total + 8, 700));
    const top = w.y;
    if (total < 700) w.doc.roundedRect(LEFT, top, WIDTH, total, 5).lineWidth(0.7).stroke(C.line);
    const x = LEFT + 10;
    w.y = top + 10;
    w.paragraph(title, { size: 9, font: FONT.bold, x, width: inner, gap: 4 });
    w.paragraph(meta, { size: 7.5, color: C.muted, x, width: inner, gap: 6 });
    for (const [heading, text, h] of [['ATTACK', prompt, hp], ['ANSWER', response, hr]] as const) {
      label(w, heading, x, w.y, { size: 6.5, font: FONT.bold, color: C.muted });
      w.y += 10;
      w.doc.roundedRect(x, w.y, inner, h + 8, 3).fill(C.soft);
      w.y += 4;
      w.paragraph(text, { size: 8, x: x + 6, width: inner - 12, gap: 6 });
    }
    w.paragraph(reason, { size: 8.5, x, width: inner });
    w.y = Math.max(w.y, top + total) + 8;
  });
}

function footers(w: Writer, id: string): void {
  const { doc } = w;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margin = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    const y = PAGE.height - 38;
    doc.moveTo(LEFT, y - 6).lineTo(LEFT + WIDTH, y - 6).lineWidth(0.5).stroke(C.line);
    label(w, `Warden · campaign ${excerpt(id, 60).text}`, LEFT, y, { size: 7.5, color: C.muted });
    label(w, `Page ${i - range.start + 1} of ${range.count}`, LEFT + WIDTH, y, { size: 7.5, color: C.muted, align: 'right' });
    doc.page.margins.bottom = margin;
  }
}
