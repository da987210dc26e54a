import type { Static } from 'typebox';
import type { AgentRow } from '../agents/agents.repo.js';
import type { DomeConfigRow } from './dome.repo.js';
import type { AgentConstraints, DomeConfigOut, DomeGuardConfig } from './dome.schemas.js';

export function toDomeConfig(row: DomeConfigRow): DomeConfigOut {
  return {
    id: row.id,
    status: row.status,
    agent_id: row.agent_id,
    config_body: JSON.parse(row.config_body) as Record<string, unknown>,
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

const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A configuration in the Console's shape (`DomeGuardConfig`: input_guards, output_guards, guards),
 * whichever shape it was saved in: Dome's hyphen keys name each guard section at the top level.
 */
export function toGuardConfig(source: Record<string, unknown>): Static<typeof DomeGuardConfig> {
  const input = names(source['input-guards'] ?? source.input_guards);
  const output = names(source['output-guards'] ?? source.output_guards);
  const guards: Record<string, Record<string, unknown>> = {};
  const declared = isObject(source.guards) ? source.guards : source;
  for (const name of [...input, ...output]) {
    const section = declared[name];
    if (isObject(section)) guards[name] = section;
  }
  return { input_guards: input, output_guards: output, guards };
}

/**
 * What the SDK's Trust Runtime enforces at boot: the guards of the configuration applied to the
 * agent (none without one). Tool permissions and organization rules are not stored by Warden:
 * empty lists. An agent Dome protects (`protection_status` "domed") is in "enforce" mode.
 */
export function toConstraints(agent: AgentRow, applied: DomeConfigRow | undefined): Static<typeof AgentConstraints> {
  const body = applied === undefined ? {} : (JSON.parse(applied.config_body) as Record<string, unknown>);
  return {
    agent_id: agent.id,
    dome_config: toGuardConfig(body),
    tool_permissions: [],
    organization: { required_input_guards: [], required_output_guards: [], denied_tools: [], max_model_tier: null },
    enforcement_mode: agent.protection_status === 'domed' ? 'enforce' : 'warn',
    updated_at: new Date(Math.max(agent.updated_at, applied?.updated_at ?? 0) * 1000).toISOString(),
  };
}
