import type { Static } from 'typebox';
import type { AgentRow } from '../agents/agents.repo.js';
import { toConsoleShape } from '../../guard/engine.js';
import type { AgentConstraints, DomeConfigOut } from './dome.schemas.js';
import { configBodyOf, type DomeConfigRow } from './dome.repo.js';

export function toDomeConfig(row: DomeConfigRow): DomeConfigOut {
  return {
    id: row.id,
    status: row.status,
    agent_id: row.agent_id,
    config_body: configBodyOf(row),
    dome_instance_url: row.dome_instance_url,
    created_at: row.created_at,
    created_by: row.created_by,
    updated_at: row.updated_at,
    updated_by: row.updated_by,
  };
}

/**
 * An agent that names a `dome_config_id` Warden does not hold (set by an update or an import
 * before Warden kept configurations): answered as the reference's not-yet-deployed default,
 * status "pending", an empty body, no instance, the agent's dates and author.
 */
export function toExternalDomeConfig(row: AgentRow & { dome_config_id: string }): DomeConfigOut {
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
 * What the SDK's Trust Runtime enforces at boot: the guards of the configuration applied to the
 * agent (none without one). Tool permissions and organization rules are not stored by Warden:
 * empty lists. An agent Dome protects (`protection_status` "domed") is in "enforce" mode.
 */
export function toConstraints(agent: AgentRow, applied: DomeConfigRow | undefined): Static<typeof AgentConstraints> {
  const guards = applied === undefined ? { input_guards: [], output_guards: [], guards: {} } : toConsoleShape(configBodyOf(applied));
  return {
    agent_id: agent.id,
    dome_config: {
      input_guards: guards.input_guards as string[],
      output_guards: guards.output_guards as string[],
      guards: guards.guards as Record<string, Record<string, unknown>>,
    },
    tool_permissions: [],
    organization: { required_input_guards: [], required_output_guards: [], denied_tools: [], max_model_tier: null },
    enforcement_mode: agent.protection_status === 'domed' ? 'enforce' : 'warn',
    updated_at: new Date(Math.max(agent.updated_at, applied?.updated_at ?? 0) * 1000).toISOString(),
  };
}
