import { Type, type Static } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { maskedApiKey } from './agents.mapping.js';
import type { AgentRow } from './agents.repo.js';
import { ProtocolType } from './agents.schemas.js';

/**
 * The read-only view of an agent that an evaluation fetches (docs/api.md, "Agent views"). The
 * Dome views (its configuration, its constraints) are the dome module's.
 */

export const AgentEvaluationConfig = Type.Object(
  {
    hub: Type.String(),
    protocol: ProtocolType,
    agent_url: Nullable(Type.String()),
    agent_api_key: Type.String({ description: 'Masked like the agent\'s api_key ("" when it has none): the secret never leaves Warden' }),
    agent_model_name: Type.String(),
    agent_name: Nullable(Type.String()),
    rate_limit_requests_per_minute: Type.Integer({ minimum: 1 }),
  },
  { title: 'AgentEvaluationConfig' },
);

export function toEvaluationConfig(row: AgentRow): Static<typeof AgentEvaluationConfig> {
  return {
    hub: row.hub,
    protocol: row.protocol as Static<typeof ProtocolType>,
    agent_url: row.agent_url,
    agent_api_key: maskedApiKey(row) ?? '',
    agent_model_name: row.model_name,
    agent_name: row.agent_name,
    rate_limit_requests_per_minute: row.rate_limit_requests_per_minute,
  };
}
