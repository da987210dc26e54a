/**
 * What the rest of Warden records into telemetry (issue 29). The gateway, the guard engine's
 * callers, evaluations and campaigns write through this interface only; where the records go
 * (the batched store in this folder, an OTLP exporter) is the telemetry engine's business.
 *
 * Every method returns at once: an implementation buffers and writes in batches off the
 * request path, drops the oldest records when its buffer is full and counts what it dropped.
 * A caller never awaits a telemetry write.
 */

/** Label values as the query operations filter them: `agent_configuration_id`, `team_id`, `evaluation_id`, `campaign_id`, … */
export type TelemetryLabels = Readonly<Record<string, string>>;

export type AttributeValue = string | number | boolean;

export interface SpanRecord {
  /** 32 lowercase hex characters. */
  traceId: string;
  /** 16 lowercase hex characters. */
  spanId: string;
  parentSpanId?: string | undefined;
  /** OpenTelemetry GenAI names: `chat {model}`, `invoke_agent {name}`, Dome's `dome-detection`. */
  name: string;
  kind?: 'internal' | 'server' | 'client' | 'producer' | 'consumer';
  /** Epoch nanoseconds. */
  startNs: bigint;
  endNs: bigint;
  status: 'unset' | 'ok' | 'error';
  statusMessage?: string | undefined;
  serviceName: string;
  attributes: Readonly<Record<string, AttributeValue>>;
  /** The team the record belongs to (every query is scoped by it). */
  teamId: string;
}

export interface LogEntry {
  /** Epoch nanoseconds. */
  timeNs: bigint;
  severity: 'debug' | 'info' | 'warn' | 'error';
  body: string;
  /** Stream labels (Loki-shaped): `service_name`, `agent_configuration_id`, … */
  labels: TelemetryLabels;
  traceId?: string | undefined;
  spanId?: string | undefined;
  teamId: string;
}

export interface Telemetry {
  /** Adds `value` (default 1) to a counter such as `gateway_requests_total`. */
  count(name: string, labels: TelemetryLabels, teamId: string, value?: number): void;
  /** Records one observation, in seconds, of a latency histogram such as `gateway_request_duration_seconds`. */
  observe(name: string, seconds: number, labels: TelemetryLabels, teamId: string): void;
  span(span: SpanRecord): void;
  log(entry: LogEntry): void;
}

/** Records nothing: for tests and tools that do not look at telemetry. */
export const noTelemetry: Telemetry = {
  count() {},
  observe() {},
  span() {},
  log() {},
};
