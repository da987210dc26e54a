/**
 * A red-team campaign's report as one self-contained HTML page, in the evaluation report's
 * style and under the same Content-Security-Policy (html.ts, REPORT_CSP).
 */
import { attackMapping } from './frameworks.js';
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
import { campaignFacts, campaignProvenanceRows, boundedCampaign, CAMPAIGN_LIMITS, CAMPAIGN_READING } from './campaign-content.js';
import { coverageHtml, excerptHtml, factsHtml, firstPageHtml, mappingChips, provenanceHtml, readingHtml } from './html-sections.js';
import { reportDocument } from './html.js';
import { escapeHtml as esc, excerpt, formatCount, formatPercent, NBSP } from './text.js';

export function renderCampaignHtml(input: CampaignReportModel): string {
  const model = boundedCampaign(input);
  const name = model.agent.name.trim() === '' ? 'Unnamed agent' : model.agent.name;
  const risks = campaignRisks(model);
  const body = [
    header(model, name),
    summary(model),
    model.note === null ? '' : `<p class="note" role="note"><strong>Note:</strong> ${esc(model.note)}</p>`,
    firstPageHtml(risks, campaignNextSteps(model, risks), 'No attack succeeded: no risk was found by the categories tested.'),
    rates(model),
    suggestion(model),
    successes(model),
    coverageHtml(campaignCoverage(model), 'Categories'),
    provenanceHtml(campaignProvenanceRows(model), 'The findings this report was built from are those GET /v1/campaigns/{id}/results answers.'),
    readingHtml(CAMPAIGN_READING),
  ];
  return reportDocument(`Red-team report: ${name}`, body, `campaign <code>${esc(model.campaignId)}</code>`);
}

function header(model: CampaignReportModel, name: string): string {
  return (
    '<header class="report-header"><p class="eyebrow">Warden · Red-team campaign report</p>' +
    `<h1><bdi>${esc(name)}</bdi></h1><p class="subtitle"><span>Model: <bdi>${esc(model.agent.modelName ?? 'not stated')}</bdi></span>` +
    `<span>URL: <bdi class="url">${esc(model.agent.url ?? 'not stated')}</bdi></span></p></header>`
  );
}

function summary(model: CampaignReportModel): string {
  const verdict = campaignVerdict(model);
  const css = verdict === 'pass' ? 'pass' : verdict === 'fail' ? 'fail' : 'not-measured';
  const rate = model.overall.rate === null ? '—' : formatPercent(model.overall.rate);
  const facts = factsHtml(campaignFacts(model));
  return (
    '<section class="summary" aria-label="Summary">' +
    `<div class="verdict verdict-${css}"><p class="verdict-label">${CAMPAIGN_VERDICT_LABEL[verdict]}</p>` +
    `<p class="overall-score"><span class="sr">Attack success rate </span>${esc(rate)}</p>` +
    `<p class="overall-detail">Attack success rate · n${NBSP}=${NBSP}${formatCount(model.overall.n)}</p>` +
    `<p class="overall-rule">${esc(campaignVerdictSentence(model))}</p></div>` +
    `<dl class="facts">${facts}</dl></section>`
  );
}

function rates(model: CampaignReportModel): string {
  const row = (label: string, rate: CampaignReportModel['overall'], chips = '') =>
    `<tr><th scope="row"><bdi>${esc(label)}</bdi>${chips}</th><td class="num">${formatCount(rate.n)}</td><td class="num">${formatCount(rate.successful)}</td>` +
    `<td>${esc(rateText(rate))}</td></tr>`;
  const head = (first: string) =>
    `<thead><tr><th scope="col">${first}</th><th scope="col" class="num">Judged</th><th scope="col" class="num">Succeeded</th><th scope="col">Success rate (95${NBSP}% interval)</th></tr></thead>`;
  return (
    '<section><h2>Attack success rate</h2>' +
    '<p class="lead">Successful attacks / attacks judged, with the Wilson 95 % interval. Attacks that errored are in no rate.</p>' +
    `<table class="coverage">${head('Category')}<tbody>` +
    model.byCategory.map((c) => row(categoryName(c.category), c.rate, mappingChips(attackMapping(c.category, null)))).join('') +
    `${row('All categories', model.overall)}</tbody></table>` +
    `<h3>By strategy</h3><table class="coverage">${head('Strategy')}<tbody>${model.byStrategy.map((s) => row(s.strategy, s.rate)).join('')}</tbody></table></section>`
  );
}

function suggestion(model: CampaignReportModel): string {
  const s = model.suggestion;
  if (s === null) {
    return '<section><h2>Suggested Dome configuration</h2><p class="empty">None: no guard Warden tried would have stopped a successful attack.</p></section>';
  }
  const guards = s.guards
    .map((g) => `<li><strong>${esc(g.guard)}</strong> (${esc(g.direction)}: ${esc(g.methods.join(', '))}) would have stopped ${formatCount(g.wouldStop)}</li>`)
    .join('');
  return (
    '<section><h2>Suggested Dome configuration</h2>' +
    `<p>It would have stopped ${formatCount(s.wouldStop)} of the ${formatCount(s.successfulAttacks)} successful attacks.</p>` +
    `<ul>${guards}</ul><pre>${esc(s.configBody)}</pre><p class="lead">${esc(s.howToApply)}</p></section>`
  );
}

function successes(model: CampaignReportModel): string {
  const shown = model.successes;
  const lead =
    shown.length < model.totals.successful
      ? `The first ${formatCount(shown.length)} of ${formatCount(model.totals.successful)} successful attacks, in plan order; the results API lists them all.`
      : 'Every successful attack, in plan order. Long texts are cut.';
  const items = shown.map((s, i) => {
    const meta =
      `Attack <code>${esc(s.attackId)}</code> · category ${esc(s.category)} · strategy <code>${esc(s.strategy)}</code> · ` +
      `severity ${esc(s.severity)}` +
      (s.detector === null ? '' : ` · check <code>${esc(s.detector)}</code>`);
    return (
      `<article class="failure"><h3><span class="index">${i + 1}</span><bdi>${esc(categoryName(s.category))}</bdi>` +
      `<span class="sep"> › </span><bdi>${esc(s.probe ?? s.category)}</bdi></h3>` +
      `<p class="meta">${meta}</p>${mappingChips(attackMapping(s.category, s.probe, s.strategy))}` +
      `<div class="exchange"><div><h4>Attack</h4>${excerptHtml(excerpt(s.prompt, CAMPAIGN_LIMITS.html.promptChars, CAMPAIGN_LIMITS.html.maxLines))}</div>` +
      `<div><h4>Answer</h4>${excerptHtml(excerpt(s.response, CAMPAIGN_LIMITS.html.responseChars, CAMPAIGN_LIMITS.html.maxLines))}</div></div>` +
      `<p class="reason"><strong>Why it succeeded:</strong> <bdi>${esc(s.reason)}</bdi></p></article>`
    );
  });
  const content = items.length === 0 ? '<p class="empty">No attack succeeded.</p>' : items.join('');
  return `<section class="failures"><h2>Successful attacks (${formatCount(model.totals.successful)})</h2><p class="lead">${esc(lead)}</p>${content}</section>`;
}
