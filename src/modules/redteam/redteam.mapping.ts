import { decodeStringList } from '../../db/json-columns.js';
import type { Job } from '../../jobs/types.js';
import { campaignSummary, findingConversation, findingMetadata, type CampaignRow, type FindingRow } from './redteam.repo.js';
import type { FindingOut } from './redteam.schemas.js';

/** Warden's red-team engine, as the reference names its native engine (CONTRACT.md, "Engine names"). */
export const TOOL = 'diamond_security';

export function toCampaignStatus(row: CampaignRow, job: Job | undefined) {
  return {
    campaign_id: row.id,
    status: row.status,
    tool: row.tool,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    error_message: row.error_message,
    team_id: row.team_id,
    status_message: row.status_message,
    progress: { done: job?.progress.done ?? 0, total: job?.progress.total ?? 0 },
  };
}

/** A campaign in the list: its settings and, once completed, its summary. Never its key. */
export function toCampaignItem(row: CampaignRow) {
  return {
    campaign_id: row.id,
    team_id: row.team_id,
    tool: row.tool,
    status: row.status,
    agent_id: row.agent_id,
    agent_url: row.agent_url,
    agent_model_name: row.agent_model_name,
    purpose: row.purpose,
    categories: decodeStringList(row.categories, 'redteam_campaigns.categories') ?? [],
    custom_plugins: decodeStringList(row.custom_plugins, 'redteam_campaigns.custom_plugins'),
    strategies: decodeStringList(row.strategies, 'redteam_campaigns.strategies') ?? [],
    num_tests: row.num_tests,
    access_level: row.access_level,
    dome_config_id: row.dome_config_id,
    created_at: row.created_at,
    started_at: row.started_at,
    completed_at: row.completed_at,
    error_message: row.error_message,
    summary: campaignSummary(row),
  };
}

/** A judged attack (or a static finding) as the reference's Finding. Errored attacks are not findings. */
export function toFinding(row: FindingRow): FindingOut {
  const metadata = findingMetadata(row.metadata);
  return {
    category: row.category,
    severity: row.severity,
    attack_prompt: row.attack_prompt,
    agent_response: row.agent_response,
    passed: row.passed === 1,
    metadata: { ...metadata, probe: row.probe, strategy: row.strategy },
    attack_type: row.probe,
    phenotype_category: row.phenotype_category,
    attack_score: row.attack_score,
    detector_id: row.detector_id,
    raw_metadata: { attack_id: row.attack_id, conversation: findingConversation(row.conversation) },
  };
}
