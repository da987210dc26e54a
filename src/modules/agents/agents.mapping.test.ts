import { describe, expect, it } from 'vitest';
import { toAgent } from './agents.mapping.js';
import type { AgentRow } from './agents.repo.js';

const row = (fields: Partial<AgentRow>): AgentRow => ({
  id: '01890000-0000-7000-8000-000000000001',
  team_id: '01890000-0000-7000-8000-000000000002',
  created_by: '01890000-0000-7000-8000-000000000003',
  agent_name: 'a',
  model_name: 'm',
  agent_url: null,
  hub: 'custom',
  api_key_enc: null,
  api_key_hint: null,
  agent_system_prompt: null,
  rate_limit_requests_per_minute: 100,
  status: 'active',
  access_level: 'black_box',
  agent_params: null,
  mcp_config: null,
  delegated_agents: '[]',
  white_box_config: null,
  agent_metadata: null,
  purpose: null,
  protocol: 'a2a',
  test_score: null,
  last_tested_by: null,
  evaluated_harnesses: null,
  last_evaluated_at: null,
  protection_status: 'unprotected',
  trust_stage: 'registered',
  trusted_at: null,
  ttt_days: null,
  dome_config_id: null,
  dome_manually_configured: 0,
  import_metadata: null,
  capabilities: null,
  skills: '[]',
  created_at: 1,
  updated_at: 1,
  ...fields,
});

describe('toAgent', () => {
  it('answers capabilities and skills with every key of AgentCapabilities and AgentSkill (defaults where unset), extra keys kept', () => {
    const capabilities = JSON.stringify({ streaming: true, own: 'x' });
    const agent = toAgent(row({ capabilities, skills: JSON.stringify([{ id: 's', name: 'S' }]) }));
    const unset = { push_notifications: false, code_execution: false, memory: false, delegation: false, tools: [] };
    expect(agent.capabilities).toEqual({ streaming: true, ...unset, own: 'x' });
    expect(agent.skills).toEqual([{ id: 's', name: 'S', description: null, input_modes: [], output_modes: [] }]);
  });

  it('leaves null objects null and keeps a stored __proto__ key a plain property', () => {
    const agent = toAgent(row({ import_metadata: '{"source":"manual","__proto__":{"polluted":true}}' }));
    expect(agent.agent_params).toBeNull();
    expect(agent.capabilities).toBeNull();
    const metadata = agent.import_metadata as Record<string, unknown>;
    expect(metadata).toMatchObject({ source: 'manual', source_url: null, imported_at: null, original_format: null });
    expect(Object.getPrototypeOf(metadata)).toBe(Object.prototype);
    expect(Object.getOwnPropertyDescriptor(metadata, '__proto__')?.value).toEqual({ polluted: true });
  });
});
