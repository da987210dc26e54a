import type { LogEntry, SpanRecord, Telemetry, TelemetryLabels } from '../../src/telemetry/types.js';

/** A Telemetry that keeps everything recorded, for tests that look at what a call recorded. */
export class RecordingTelemetry implements Telemetry {
  counts: Array<{ name: string; labels: TelemetryLabels; teamId: string; value: number }> = [];
  observations: Array<{ name: string; seconds: number; labels: TelemetryLabels; teamId: string }> = [];
  spans: SpanRecord[] = [];
  logs: LogEntry[] = [];

  count(name: string, labels: TelemetryLabels, teamId: string, value = 1) {
    this.counts.push({ name, labels, teamId, value });
  }
  observe(name: string, seconds: number, labels: TelemetryLabels, teamId: string) {
    this.observations.push({ name, seconds, labels, teamId });
  }
  span(span: SpanRecord) {
    this.spans.push(span);
  }
  log(entry: LogEntry) {
    this.logs.push(entry);
  }
  /** The sum of a counter over the records whose labels include `labels`. */
  total(name: string, labels: Record<string, string> = {}) {
    return this.counts
      .filter((c) => c.name === name && Object.entries(labels).every(([k, v]) => c.labels[k] === v))
      .reduce((sum, c) => sum + c.value, 0);
  }
}
