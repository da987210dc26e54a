import type { AgentsTable } from '../db/schema.js';
import type { AgentProtocol, AgentTarget } from './types.js';

/**
 * The fields of an agent the connector needs, as the `agents` table holds them (`agent_params`
 * as stored JSON text) or as the API answers them (already an object).
 */
export type AgentRecordForCall = Pick<
  AgentsTable,
  'id' | 'agent_url' | 'protocol' | 'model_name' | 'agent_system_prompt' | 'rate_limit_requests_per_minute'
> & {
  agent_params: string | Record<string, unknown> | null;
  /** JSON text as stored (or an object): its `original_format` (`a2a-agent-card/1.0`) names the card's protocol version. */
  import_metadata?: string | Record<string, unknown> | null | undefined;
};

/** The A2A protocol version the agent's card declared at import, from `import_metadata.original_format`. */
export function importedA2aVersion(metadata: AgentRecordForCall['import_metadata']): string | null {
  const object = typeof metadata === 'string' ? paramsObject(metadata) : (metadata ?? null);
  const format = object?.original_format;
  if (typeof format !== 'string') return null;
  const match = /^a2a-agent-card\/(.+)$/.exec(format);
  return match ? match[1]! : null;
}

function paramsObject(value: AgentRecordForCall['agent_params']): Record<string, unknown> | null {
  if (value === null) return null;
  if (typeof value !== 'string') return value;
  try {
    const parsed: unknown = JSON.parse(value);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * What the connector calls for an agent. `apiKey` is the decrypted key (the caller decrypts:
 * the connector knows nothing of the secret box). An agent without a URL gives a target whose
 * call answers "the agent has no URL".
 */
export function agentTarget(agent: AgentRecordForCall, apiKey: string | null | undefined): AgentTarget {
  return {
    url: agent.agent_url ?? '',
    protocol: agent.protocol as AgentProtocol,
    modelName: agent.model_name,
    apiKey: apiKey ?? null,
    systemPrompt: agent.agent_system_prompt,
    params: paramsObject(agent.agent_params),
    rateLimitPerMinute: agent.rate_limit_requests_per_minute,
    rateKey: `agent:${agent.id}`,
    a2aVersion: importedA2aVersion(agent.import_metadata),
  };
}

/** A bare URL target (a red-team campaign against a URL, not an agent): its ceiling counts per URL. */
export function urlTarget(target: Omit<AgentTarget, 'rateKey'>): AgentTarget {
  return { ...target, rateKey: `url:${target.url}` };
}
