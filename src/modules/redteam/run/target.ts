import type { Kysely } from 'kysely';
import { agentTarget, sameKeyOrigin, urlTarget, type AgentProtocol, type AgentTarget } from '../../../connector/index.js';
import { openAgentKey } from '../../../crypto/keys.js';
import { decodeJsonValue } from '../../../db/json-columns.js';
import type { AgentsTable, DB } from '../../../db/schema.js';
import { NO_KNOWLEDGE, type AgentKnowledge } from '../../../redteam/types.js';
import type { CampaignOptions } from '../options.js';
import { findAgent } from '../../agents/agents.repo.js';
import type { CampaignRow } from '../redteam.repo.js';

export interface CampaignTarget {
  target: AgentTarget;
  knowledge: AgentKnowledge;
  /** white_box: the agent's source and its entry point. */
  source: { code: string; entryPoint: string | null } | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string' && v.trim() !== '') : []);

/** What Warden knows of the agent (grey box): its prompt, tools and skills, MCP servers, delegated agents. */
export function knowledgeOf(agent: Pick<AgentsTable, 'agent_system_prompt' | 'capabilities' | 'skills' | 'mcp_config' | 'delegated_agents'>): AgentKnowledge {
  const capabilities = decodeJsonValue(agent.capabilities, 'agents.capabilities');
  const skills = decodeJsonValue(agent.skills, 'agents.skills');
  const mcp = decodeJsonValue(agent.mcp_config, 'agents.mcp_config');
  const delegated = decodeJsonValue(agent.delegated_agents, 'agents.delegated_agents');
  const tools = strings(isObject(capabilities) ? capabilities.tools : undefined).map((name) => ({ name, description: null as string | null }));
  for (const skill of Array.isArray(skills) ? skills : []) {
    if (!isObject(skill) || typeof skill.name !== 'string') continue;
    tools.push({ name: skill.name, description: typeof skill.description === 'string' ? skill.description : null });
  }
  const mcpServers = isObject(mcp) ? [...strings(mcp.server_urls), ...strings([mcp.proxy_url])] : [];
  const delegatedAgents = (Array.isArray(delegated) ? delegated : []).flatMap((d) =>
    isObject(d) && typeof d.url === 'string' ? [{ name: typeof d.name === 'string' && d.name ? d.name : d.url, url: d.url }] : [],
  );
  return { systemPrompt: agent.agent_system_prompt, tools, mcpServers, delegatedAgents };
}

const reachesGreyBox = (level: string) => level === 'grey_box' || level === 'white_box';

/**
 * The campaign's target: the agent of the registry (its protocol, prompt, parameters, rate
 * ceiling; the campaign's key and model name, when given, instead of the agent's), or the bare
 * URL. Keys are opened here only, for the connector.
 */
export async function campaignTarget(
  db: Kysely<DB>,
  agentSecrets: Buffer,
  campaign: CampaignRow,
  options: CampaignOptions & { target?: 'agent' | 'url' },
): Promise<CampaignTarget> {
  const campaignKey = openAgentKey(agentSecrets, campaign.agent_api_key_enc);
  // The agent's row is gone (agent_id set null by the deletion): its campaign stops rather than attack its URL bare.
  if (campaign.agent_id === null && options.target === 'agent') throw new Error('The agent was deleted');
  if (campaign.agent_id === null) {
    if (campaign.agent_url === null) throw new Error('The campaign has no target');
    const target = urlTarget({
      url: campaign.agent_url,
      protocol: campaign.agent_protocol as AgentProtocol,
      modelName: campaign.agent_model_name,
      apiKey: campaignKey,
      rateLimitPerMinute: options.rate_limit_per_minute,
    });
    return { target, knowledge: NO_KNOWLEDGE, source: null };
  }
  const agent = await findAgent(db, campaign.agent_id);
  if (agent === undefined) throw new Error('The agent was deleted');
  // The campaign's key was given for the agent's address of then; the agent's own key follows the agent's rule (it is dropped when its origin changes).
  if (campaignKey !== null && !sameKeyOrigin(campaign.agent_url, agent.agent_url)) {
    throw new Error("The agent's URL moved to another origin since the campaign was created: the campaign's key is not sent there (start a new campaign)");
  }
  const agentKey = campaignKey ?? openAgentKey(agentSecrets, agent.api_key_enc);
  const target = agentTarget(agent, agentKey);
  if (campaign.agent_model_name !== null) target.modelName = campaign.agent_model_name;
  const stored = campaign.access_level === 'white_box' ? decodeJsonValue(agent.white_box_config, 'agents.white_box_config') : null;
  const whiteBox = isObject(stored) ? stored : null;
  const code = typeof whiteBox?.source_code === 'string' && whiteBox.source_code.trim() !== '' ? whiteBox.source_code : null;
  return {
    target,
    knowledge: reachesGreyBox(campaign.access_level) ? knowledgeOf(agent) : NO_KNOWLEDGE,
    source: code === null ? null : { code, entryPoint: typeof whiteBox?.entry_point === 'string' ? whiteBox.entry_point : null },
  };
}
