/**
 * A red-team campaign's report as an A4 PDF: the HTML report's content, drawn with the evaluation
 * report's writer (embedded fonts per script, pages, footers).
 */
import { attackMapping } from './frameworks.js';
import { boundedCampaign, campaignFacts, campaignProvenanceRows, CAMPAIGN_LIMITS, CAMPAIGN_READING } from './campaign-content.js';
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
import { LEFT, renderPdf, WIDTH, type Writer } from './pdf-writer.js';
import { excerpt, formatCount, formatPercent, NBSP } from './text.js';

export function renderCampaignPdf(input: CampaignReportModel): Promise<Buffer> {
  const model = boundedCampaign(input);
  const name = model.agent.name.trim() === '' ? 'Unnamed agent' : model.agent.name;
  const title = `Red-team report: ${name}`;
  return renderPdf({ title, subject: `Red-team campaign ${model.campaignId}`, timestamp: model.completedAt ?? model.createdAt }, (w) => {
    reportHeader(w, 'WARDEN · RED-TEAM CAMPAIGN REPORT', name, model.agent);
    summary(w, model);
    const risks = campaignRisks(model);
    firstPage(w, risks, campaignNextSteps(model, risks), 'No attack succeeded: no risk was found by the categories tested.', (n) =>
      `${n === 1 ? 'One more risk is' : `${n} more risks are`} in the success rates and the successful attacks below.`,
    );
    rates(w, model);
    suggestion(w, model);
    successes(w, model);
    coverageSection(w, campaignCoverage(model), 'Categories');
    provenanceSection(w, campaignProvenanceRows(model), 'The findings this report was built from are those GET /v1/campaigns/{id}/results answers.');
    readingSection(w, CAMPAIGN_READING);
    pageFooters(w, 'campaign', model.campaignId);
  });
}

function summary(w: Writer, model: CampaignReportModel): void {
  const verdict = campaignVerdict(model);
  const [ink, background] = { pass: [C.pass, C.passBg], fail: [C.fail, C.failBg], 'not-measured': [C.none, C.noneBg] }[verdict];
  const top = w.y;
  const boxWidth = 180;
  const factsX = LEFT + boxWidth + 22;
  const factsWidth = WIDTH - boxWidth - 22;
  const y = factsColumn(w, campaignFacts(model), factsX, factsWidth, top);
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
    exchangeBox(w, 'ATTACK', prompt, hp, x, inner);
    exchangeBox(w, 'ANSWER', response, hr, x, inner);
    w.paragraph(reason, { size: 8.5, x, width: inner });
    w.y = Math.max(w.y, top + total) + 8;
  });
}
