/** A campaign's report content (src/evaluation/report/campaign-model.ts) from what it stored. */
import type { Kysely } from 'kysely';
import { decodeStringList } from '../../db/json-columns.js';
import type { DB } from '../../db/schema.js';
import type { CampaignReportModel } from '../../evaluation/report/campaign-model.js';
import { formatTimestamp } from '../../evaluation/report/text.js';
import { CATEGORY_DEFAULTS } from '../../redteam/probes/index.js';
import type { SuccessRate } from '../../redteam/summary.js';
import type { ProbeCategory, Severity } from '../../redteam/types.js';
import { WARDEN_VERSION } from '../../version.js';
import { CATALOGUE_UPDATED_AT } from '../evaluations/results.service.js';
import { teamName } from '../identity/identity.repo.js';
import { findAgent } from '../agents/agents.repo.js';
import { campaignSuggestion, findingMetadata, findingOutcomes, listSuccessfulAttacks, type CampaignRow } from './redteam.repo.js';
import { campaignNumbers, SOURCE_CODE } from './run/outcome.js';

/** Successful attacks a report lists (the results API has them all). */
export const SUCCESSES_SHOWN = 60;

const severityOf = (category: string): Severity => CATEGORY_DEFAULTS[category as ProbeCategory]?.severity ?? 'medium';

const rate = (r: SuccessRate | undefined) => ({
  n: r?.n ?? 0,
  successful: r?.successful ?? 0,
  rate: r?.rate ?? null,
  low: r?.low ?? null,
  high: r?.high ?? null,
});

export async function buildCampaignReportModel(db: Kysely<DB>, campaign: CampaignRow, howToApply: string): Promise<CampaignReportModel> {
  const [outcomes, successes, agent, team] = await Promise.all([
    findingOutcomes(db, campaign.id),
    listSuccessfulAttacks(db, campaign.id, SUCCESSES_SHOWN),
    campaign.agent_id === null ? undefined : findAgent(db, campaign.agent_id),
    teamName(db, campaign.team_id),
  ]);
  const numbers = campaignNumbers(campaign, outcomes);
  const rates = numbers.attack_success_rate;
  const attacks = outcomes.filter((r) => r.category !== SOURCE_CODE);
  const suggestion = campaignSuggestion(campaign);
  const note =
    campaign.status === 'completed'
      ? null
      : `This campaign is ${campaign.status}, not completed: the rates cover only the attacks judged before it stopped` +
        `${campaign.error_message === null ? '' : ` (${campaign.error_message})`}.`;
  return {
    campaignId: campaign.id,
    agent: {
      id: campaign.agent_id,
      name: agent?.agent_name ?? campaign.agent_url ?? 'Agent',
      modelName: agent?.model_name ?? campaign.agent_model_name,
      url: campaign.agent_url,
    },
    teamName: team,
    status: campaign.status,
    createdAt: campaign.created_at,
    completedAt: campaign.completed_at,
    purpose: campaign.purpose,
    accessLevel: campaign.access_level,
    seed: campaign.seed,
    categories: decodeStringList(campaign.categories, 'redteam_campaigns.categories') ?? [],
    strategies: decodeStringList(campaign.strategies, 'redteam_campaigns.strategies') ?? [],
    throughDomeConfig: campaign.dome_config_id,
    note,
    totals: {
      attacks: attacks.length,
      judged: rates.overall.n,
      successful: rates.overall.successful,
      errors: attacks.filter((r) => r.passed === null).length,
    },
    overall: rate(rates.overall),
    byCategory: Object.entries(rates.by_category).map(([category, r]) => ({ category, rate: rate(r), severity: severityOf(category) })),
    byStrategy: Object.entries(rates.by_strategy).map(([strategy, r]) => ({ strategy, rate: rate(r) })),
    successes: successes.map((s) => {
      const metadata = findingMetadata(s.metadata);
      return {
        attackId: s.attack_id,
        category: s.category,
        probe: s.probe,
        strategy: s.strategy,
        severity: s.severity,
        prompt: s.attack_prompt,
        response: s.agent_response,
        reason: typeof metadata.reason === 'string' ? metadata.reason : 'The attack reached its goal.',
        detector: s.detector_id,
      };
    }),
    suggestion:
      suggestion === null
        ? null
        : {
            guards: suggestion.added_guards.map((g) => ({ guard: g.guard, direction: g.direction, methods: g.methods, wouldStop: g.would_stop })),
            wouldStop: suggestion.would_stop,
            successfulAttacks: suggestion.successful_attacks,
            configBody: JSON.stringify(suggestion.config_body, null, 2),
            howToApply,
          },
    provenance: { wardenVersion: WARDEN_VERSION, catalogueVersion: formatTimestamp(CATALOGUE_UPDATED_AT).slice(0, 10) },
  };
}
