import { Value } from 'typebox/value';
import { describe, expect, it } from 'vitest';
import { AgentCreate, AgentUpdate } from '../modules/agents/agents.schemas.js';
import { ChatCompletionsBody } from '../modules/gateway/gateway.schemas.js';
import { compileCleaner } from './clean.js';

const bodies: unknown[] = [
  {},
  { agent_name: 'a', unknown: 1 },
  { agent_params: { temperature: 0.2, rag_params: { anything: { deep: [1, 2] } }, extra: true }, nope: null },
  { agent_params: null, mcp_config: { proxy_url: 'https://x.example', server_urls: ['https://y.example'], junk: 'x' } },
  { delegated_agents: [{ url: 'https://a.example', name: 'n', hidden: 1 }, { url: 'https://b.example' }] },
  { white_box_config: { repo_url: 'https://git.example/r', token: 'secret' }, agent_metadata: { tags: ['a'], more: {} } },
  { import_metadata: { source: 'manual', x: 1 }, capabilities: { streaming: true, tools: ['t'], y: 2 }, skills: [{ id: 'i', name: 'n', z: 3 }] },
  { test_score: '0.5', api_key: null, evaluated_harnesses: ['h'], dome_manually_configured: false, status: 'active' },
];

describe('compileCleaner', () => {
  for (const [name, schema] of [['AgentUpdate', AgentUpdate], ['AgentCreate', AgentCreate]] as const) {
    it(`cleans ${name} bodies exactly as Value.Clean does`, () => {
      const clean = compileCleaner(schema);
      for (const body of bodies) {
        const input = { agent_name: 'n', model_name: 'm', ...(body as object) };
        expect(clean(structuredClone(input))).toEqual(Value.Clean(schema, structuredClone(input)));
      }
    });
  }

  it('leaves values of a schema without type (Type.Unknown) as Value.Clean does: the gateway body keeps every message whole', () => {
    const clean = compileCleaner(ChatCompletionsBody);
    const body = { model: 'm', messages: [{ role: 'user', content: [{ type: 'text', text: 'hi', extra: 1 }], name: 'x' }, 'odd', null], top_k: 3 };
    expect(clean(structuredClone(body))).toEqual(Value.Clean(ChatCompletionsBody, structuredClone(body)));
    expect(clean(structuredClone(body))).toEqual(body);
  });
});
