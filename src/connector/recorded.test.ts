import { describe, expect, it } from 'vitest';
import type { LogEntry, SpanRecord, Telemetry } from '../telemetry/types.js';
import { recordedConnector } from './recorded.js';
import type { AgentCallResult, AgentTarget } from './types.js';

function memory() {
  const counts: Array<[string, Record<string, string>, string]> = [];
  const observed: string[] = [];
  const spans: SpanRecord[] = [];
  const logs: LogEntry[] = [];
  const telemetry: Telemetry = {
    count: (name, labels, teamId) => void counts.push([name, { ...labels }, teamId]),
    observe: (name) => void observed.push(name),
    span: (span) => void spans.push(span),
    log: (entry) => void logs.push(entry),
  };
  return { telemetry, counts, observed, spans, logs };
}

const target: AgentTarget = { url: 'http://agent.test/v1', protocol: 'chat_completions', modelName: 'gpt-4o', apiKey: 'sk-secret-key-0000', rateKey: 'a' };
const unused = () => Promise.reject(new Error('not called in these tests'));
const fake = (result: AgentCallResult) => ({ close() {}, send: async () => result, forward: unused, stream: unused });

describe('the connector with telemetry', () => {
  it('records an evaluation call as a GenAI span, a counter and a latency, with its labels', async () => {
    const m = memory();
    const connector = recordedConnector(fake({ ok: true, text: 'hi', latencyMs: 3, attempts: 1 }), m.telemetry, () => 1_000);
    const labels = { evaluation_id: 'e1', agent_configuration_id: 'a1' };
    await connector.send({ ...target, telemetry: { teamId: 't1', labels } }, [{ role: 'user', content: 'hello' }]);
    expect(m.counts).toEqual([['agent_requests_total', labels, 't1']]);
    expect(m.observed).toEqual(['agent_request_duration_seconds']);
    expect(m.spans[0]).toMatchObject({ name: 'chat gpt-4o', kind: 'client', status: 'ok', teamId: 't1', startNs: 1_000_000_000n });
    expect(m.spans[0]!.attributes).toMatchObject({ 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', evaluation_id: 'e1' });
    expect(m.logs).toEqual([]);
  });

  it('records a failed A2A call as invoke_agent with an error, a log line without the key, and leaves unlabelled calls alone', async () => {
    const m = memory();
    const failure: AgentCallResult = { ok: false, kind: 'timeout', error: 'no answer within 30 s', latencyMs: 30_000, attempts: 3 };
    const connector = recordedConnector(fake(failure), m.telemetry);
    const a2a: AgentTarget = { ...target, protocol: 'a2a', telemetry: { teamId: 't1', labels: { campaign_id: 'c1' }, agentName: 'Helper' } };
    expect(await connector.send(a2a, [{ role: 'user', content: 'x' }])).toBe(failure);
    expect(m.spans[0]).toMatchObject({ name: 'invoke_agent Helper', status: 'error', statusMessage: 'timeout' });
    expect(m.counts.map(([name]) => name)).toEqual(['agent_requests_total', 'agent_errors_total']);
    expect(m.logs[0]).toMatchObject({ severity: 'warn', labels: { campaign_id: 'c1' } });
    const text = (value: unknown) => JSON.stringify(value, (_k, v: unknown) => (typeof v === 'bigint' ? String(v) : v));
    expect(text(m.logs) + text(m.spans)).not.toContain('sk-secret');
    await connector.send(target, [{ role: 'user', content: 'x' }]);
    expect(m.spans).toHaveLength(1);
  });
});
