import { Type, type Static } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';
import { maskedApiKey } from './agents.mapping.js';
import type { AgentRow } from './agents.repo.js';
import { ProtocolType } from './agents.schemas.js';

/**
 * Read-only views of an agent that other parts of the reference platform (Diamond
 * evaluations, Dome, the SDK's Trust Runtime) fetch. Warden stores no Dome configuration,
 * guard or tool permission yet: each view is built from the agent's own fields, and what
 * Warden does not hold is answered with the reference's empty or default value
 * (docs/api.md, "Agent views").
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

export const AgentDomeConfigResponse = Type.Object(
  {
    id: Uuid(),
    status: Type.String({ description: '"pending": Warden has not deployed this configuration' }),
    agent_id: Nullable(Uuid()),
    config_body: FreeObject(),
    dome_instance_url: Nullable(Type.String()),
    created_at: EpochSeconds(),
    created_by: Uuid(),
    updated_at: Nullable(EpochSeconds()),
    updated_by: Nullable(Uuid()),
  },
  { title: 'AgentDomeConfigResponse' },
);

const Names = () => Type.Array(Type.String());

export const DomeGuardConfig = Type.Object(
  { input_guards: Names(), output_guards: Names(), guards: Type.Record(Type.String(), FreeObject()) },
  { title: 'DomeGuardConfig' },
);
export const ToolPermission = Type.Object(
  { name: Type.String(), identity: Type.String(), endpoint: Type.String(), allowed_actions: Type.Optional(Nullable(Names())) },
  { title: 'ToolPermission' },
);
export const OrganizationConstraints = Type.Object(
  { required_input_guards: Names(), required_output_guards: Names(), denied_tools: Names(), max_model_tier: Type.Optional(Nullable(Type.String())) },
  { title: 'OrganizationConstraints' },
);
export const AgentConstraints = Type.Object(
  {
    agent_id: Type.String(),
    dome_config: DomeGuardConfig,
    tool_permissions: Type.Array(ToolPermission),
    organization: OrganizationConstraints,
    enforcement_mode: Type.Unsafe<'warn' | 'enforce'>({ type: 'string', enum: ['warn', 'enforce'] }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AgentConstraints' },
);

export const AgentIdParams = Type.Object({ agent_id: Uuid() });
export const DomeConfigQuery = Type.Object({ team_id: Uuid({ description: 'Team ID (required): the team the agent belongs to' }) });

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

/**
 * The configuration the agent names by `dome_config_id`. Warden keeps no body for it, so it is
 * answered as the reference's not-yet-deployed default: status "pending", an empty body, no
 * instance; its dates and author are the agent's (the only record of it Warden has).
 */
export function toDomeConfig(row: AgentRow & { dome_config_id: string }): Static<typeof AgentDomeConfigResponse> {
  return {
    id: row.dome_config_id,
    status: 'pending',
    agent_id: row.id,
    config_body: {},
    dome_instance_url: null,
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
    updated_by: null,
  };
}

/**
 * What the SDK's Trust Runtime enforces at boot: no guard, tool permission or organization rule
 * is stored in Warden, so every list is empty. An agent Dome protects (`protection_status`
 * "domed") is in "enforce" mode, any other in "warn".
 */
export function toConstraints(row: AgentRow): Static<typeof AgentConstraints> {
  return {
    agent_id: row.id,
    dome_config: { input_guards: [], output_guards: [], guards: {} },
    tool_permissions: [],
    organization: { required_input_guards: [], required_output_guards: [], denied_tools: [], max_model_tier: null },
    enforcement_mode: row.protection_status === 'domed' ? 'enforce' : 'warn',
    updated_at: new Date(row.updated_at * 1000).toISOString(),
  };
}
