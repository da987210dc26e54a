/** What both campaign reports print of a campaign: its facts, its provenance, its bounds. */
import type { CampaignReportModel } from './campaign-model.js';
import { runFacts, TEXT_BOUNDS, type ReportFact } from './content.js';
import type { ProvenanceRow } from './html-sections.js';
import { formatCount, truncate } from './text.js';

export const CAMPAIGN_LIMITS = {
  html: { promptChars: 700, responseChars: 900, maxLines: 16 },
  pdf: { promptChars: 500, responseChars: 700, maxLines: 10 },
} as const;

/** The model with every label bounded (texts of attacks are cut where they are drawn). */
export function boundedCampaign(model: CampaignReportModel): CampaignReportModel {
  const name = (text: string) => truncate(text, TEXT_BOUNDS.name);
  return {
    ...model,
    agent: {
      id: model.agent.id === null ? null : name(model.agent.id),
      name: name(model.agent.name),
      modelName: model.agent.modelName === null ? null : name(model.agent.modelName),
      url: model.agent.url === null ? null : truncate(model.agent.url, TEXT_BOUNDS.url),
    },
    purpose: model.purpose === null ? null : truncate(model.purpose, TEXT_BOUNDS.description),
    teamName: model.teamName === null ? null : name(model.teamName),
    successes: model.successes.map((s) => ({ ...s, attackId: name(s.attackId), reason: truncate(s.reason, 400) })),
  };
}

export function campaignFacts(model: CampaignReportModel): ReportFact[] {
  const facts: ReportFact[] = [{ label: 'Campaign', value: model.campaignId }, { label: 'Agent ID', value: model.agent.id ?? '—' }, ...runFacts(model)];
  facts.push(
    { label: 'Purpose', value: model.purpose ?? '—' },
    { label: 'Access', value: model.accessLevel },
    { label: 'Attacks', value: `${formatCount(model.totals.attacks)} (${formatCount(model.totals.errors)} errored; not judged)` },
    { label: 'Categories', value: model.categories.join(', ') || '—' },
    { label: 'Strategies', value: model.strategies.join(', ') || '—' },
    { label: 'Through Dome', value: model.throughDomeConfig ?? 'no (straight to the agent)' },
  );
  return facts;
}

export function campaignProvenanceRows(model: CampaignReportModel): ProvenanceRow[] {
  return [
    { label: 'Campaign', value: model.campaignId, code: true },
    { label: 'Seed', value: model.seed === null ? 'none' : String(model.seed) },
    { label: 'Warden version', value: model.provenance.wardenVersion },
    { label: 'Catalogue version', value: model.provenance.catalogueVersion },
  ];
}
