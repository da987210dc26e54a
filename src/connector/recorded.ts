import { newSpanId, newTraceId } from '../telemetry/ids.js';
import type { Telemetry } from '../telemetry/types.js';
import type { AgentConnectorHandle } from './connector.js';

/**
 * The connector with telemetry (issue 29): every call whose target carries `telemetry` (an
 * evaluation's or a campaign's) is recorded here, the one place, as a GenAI span (`chat {model}`
 * for chat completions, `invoke_agent {name}` for A2A), the counter `agent_requests_total`
 * (and `agent_errors_total`), the latency `agent_request_duration_seconds` and, for a failure, a
 * log line. Recording never waits (src/telemetry/recorder.ts). The gateway records its own calls.
 */
export function recordedConnector(connector: AgentConnectorHandle, telemetry: Telemetry, nowMs: () => number = Date.now): AgentConnectorHandle {
  return {
    close: () => connector.close(),
    // The gateway's pass-through calls: it records them itself (src/modules/gateway/).
    forward: (target, request, options) => connector.forward(target, request, options),
    stream: (target, request, options) => connector.stream(target, request, options),
    async send(target, turns, options) {
      const context = target.telemetry;
      if (context === undefined) return connector.send(target, turns, options);
      const startNs = BigInt(nowMs()) * 1_000_000n;
      const started = performance.now();
      const result = await connector.send(target, turns, options);
      const seconds = (performance.now() - started) / 1000;
      const endNs = startNs + BigInt(Math.round(seconds * 1e9));
      const { teamId, labels } = context;
      const chat = target.protocol === 'chat_completions';
      const traceId = newTraceId();
      const spanId = newSpanId();
      telemetry.span({
        traceId,
        spanId,
        name: chat ? `chat ${target.modelName ?? 'unknown'}` : `invoke_agent ${context.agentName ?? 'agent'}`,
        kind: 'client',
        startNs,
        endNs,
        status: result.ok ? 'ok' : 'error',
        statusMessage: result.ok ? undefined : result.kind,
        serviceName: 'warden',
        attributes: {
          'gen_ai.operation.name': chat ? 'chat' : 'invoke_agent',
          ...(chat ? { 'gen_ai.system': 'openai',
            'gen_ai.request.model': target.modelName ?? 'unknown' } : { 'gen_ai.agent.name': context.agentName ?? 'agent' }),
          ...labels,
          'warden.attempts': result.attempts,
          ...(result.ok ? {} : { 'error.type': result.kind, ...(result.status === undefined ? {} : { 'http.response.status_code': result.status }) }),
        },
        teamId,
      });
      telemetry.count('agent_requests_total', labels, teamId);
      telemetry.observe('agent_request_duration_seconds', seconds, labels, teamId);
      if (!result.ok) {
        telemetry.count('agent_errors_total', labels, teamId);
        // The error text is the connector's own, which never holds the key (src/connector/types.ts).
        telemetry.log({ timeNs: endNs, severity: 'warn', body: `agent call failed (${result.kind}): ${result.error}`,
          labels: { service_name: 'warden', ...labels }, traceId, spanId, teamId });
      }
      return result;
    },
  };
}
