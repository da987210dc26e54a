import type { ScanResult } from '../../guard/engine.js';
import { newSpanId, newTraceId } from '../../telemetry/ids.js';
import type { AttributeValue, Telemetry, TelemetryLabels } from '../../telemetry/types.js';

/**
 * What one gateway call records (docs/gateway.md, "Telemetry"): counters, latencies, a span in
 * OpenTelemetry's GenAI names with one `dome-detection` span per guard scan, and a log line.
 * Every method returns at once (the Telemetry interface buffers); nothing is awaited.
 */

const SERVICE = 'warden-gateway';
const nowNs = () => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;

export interface GatewayCallRecord {
  telemetry: Telemetry;
  teamId: string;
  agentId: string;
  /** `chat {model}` or `invoke_agent {name}`. */
  spanName: string;
  attributes: Record<string, AttributeValue>;
}

export function startCall(record: GatewayCallRecord) {
  const { telemetry, teamId } = record;
  const labels: TelemetryLabels = { agent_configuration_id: record.agentId, team_id: teamId };
  const traceId = newTraceId();
  const spanId = newSpanId();
  const startNs = nowNs();
  const started = performance.now();
  // A Map while the call runs, one object at its end: properties added one by one to an object
  // (a dozen keyed stores per call, in several places) made V8 keep much of each call's garbage
  // through two young-generation collections into the old generation, whose collections then
  // stopped every call for 10–60 ms every few seconds (bench/README.md, "Gateway: the old
  // generation's pauses"). An object built from entries at once does not.
  const attributes = new Map<string, AttributeValue>(Object.entries(record.attributes));
  let blocked: { direction: 'input' | 'output'; guard: string } | null = null;

  return {
    traceId,
    set(name: string, value: AttributeValue | undefined) {
      if (value !== undefined) attributes.set(name, value);
    },
    /** One guard scan: its counters, latency and `dome-detection` span. */
    scanned(direction: 'input' | 'output', scan: ScanResult, startedNs: bigint) {
      telemetry.count(`dome_${direction}_requests_total`, labels, teamId);
      if (scan.flagged) telemetry.count(`dome_${direction}_flagged_total`, labels, teamId);
      telemetry.observe(`dome_${direction}_latency_seconds`, scan.exec_time / 1000, labels, teamId);
      telemetry.span({
        traceId,
        spanId: newSpanId(),
        parentSpanId: spanId,
        name: 'dome-detection',
        kind: 'internal',
        startNs: startedNs,
        endNs: startedNs + BigInt(Math.round(scan.exec_time * 1e6)),
        status: 'ok',
        serviceName: SERVICE,
        teamId,
        attributes: {
          'detection.label': scan.flagged ? 'flagged' : 'clean',
          'detection.score': scan.detection_score,
          'detection.direction': direction,
          'detection.methods': scan.triggered_methods.join(','),
          agent_configuration_id: record.agentId,
        },
      });
    },
    /** The first byte written to the caller (streamed answers). */
    firstByte() {
      const seconds = (performance.now() - started) / 1000;
      attributes.set('gateway.time_to_first_byte_ms', Math.round(seconds * 1e4) / 10);
      telemetry.observe('gateway_time_to_first_byte_seconds', seconds, labels, teamId);
    },
    blocked(direction: 'input' | 'output', guard: string) {
      blocked = { direction, guard };
      telemetry.count('gateway_blocked_total', { ...labels, direction }, teamId);
    },
    /** The call's end: its count, duration, span and log line. */
    end(status: number, error?: string) {
      const seconds = (performance.now() - started) / 1000;
      telemetry.count('gateway_requests_total', { ...labels, status: String(status) }, teamId);
      telemetry.observe('gateway_request_duration_seconds', seconds, labels, teamId);
      const endNs = nowNs();
      // The span's own attributes, added to the call's.
      attributes.set('agent_configuration_id', record.agentId);
      attributes.set('team_id', teamId);
      attributes.set('http.response.status_code', status);
      attributes.set('warden.blocked', blocked !== null);
      if (blocked) {
        attributes.set('warden.blocked.direction', blocked.direction);
        attributes.set('warden.blocked.guard', blocked.guard);
      }
      const outcome = blocked ? `blocked (${blocked.direction}, guard ${blocked.guard})` : status < 400 ? 'passed' : `failed: ${error ?? status}`;
      telemetry.span({
        traceId,
        spanId,
        name: record.spanName,
        kind: 'server',
        startNs,
        endNs,
        status: status >= 400 ? 'error' : 'ok',
        statusMessage: status >= 400 ? error : undefined,
        serviceName: SERVICE,
        teamId,
        attributes: Object.fromEntries(attributes),
      });
      telemetry.log({
        timeNs: endNs,
        severity: status >= 500 ? 'error' : blocked ? 'warn' : 'info',
        body: `${record.spanName}: ${outcome} (HTTP ${status}, ${Math.round(seconds * 1000)} ms)`,
        labels: { service_name: SERVICE, ...labels },
        traceId,
        spanId,
        teamId,
      });
    },
  };
}

export type CallRecorder = ReturnType<typeof startCall>;
export { nowNs };
