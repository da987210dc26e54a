import { SpanKind, SpanStatusCode, TraceFlags, type Attributes, type Counter, type Histogram } from '@opentelemetry/api';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BatchSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import type { SpanRecord, Telemetry } from './types.js';

/**
 * Warden's own traces and metrics sent out with the OpenTelemetry SDK's OTLP/HTTP (protobuf)
 * exporters, when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/telemetry.md, "Export"). runtime.ts
 * imports this module only then, so that a start without it does not load the SDK. The SDK
 * reads its other OTEL_EXPORTER_OTLP_* variables (headers, timeouts) itself.
 */
export interface OtlpExport extends Telemetry {
  close(): Promise<void>;
}

const KIND: Record<NonNullable<SpanRecord['kind']>, SpanKind> = {
  internal: SpanKind.INTERNAL,
  server: SpanKind.SERVER,
  client: SpanKind.CLIENT,
  producer: SpanKind.PRODUCER,
  consumer: SpanKind.CONSUMER,
};
const hrTime = (ns: bigint): [number, number] => [Number(ns / 1_000_000_000n), Number(ns % 1_000_000_000n)];

export function createOtlpExport(options: { serviceName?: string; metricIntervalMs?: number } = {}): OtlpExport {
  const resource = resourceFromAttributes({ 'service.name': options.serviceName ?? 'warden' });
  const processor = new BatchSpanProcessor(new OTLPTraceExporter());
  const meters = new MeterProvider({
    resource,
    readers: [new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis: options.metricIntervalMs ?? 15_000 })],
  });
  const meter = meters.getMeter('warden');
  const counters = new Map<string, Counter>();
  const histograms = new Map<string, Histogram>();
  const scope = { name: 'warden' };
  return {
    count(name, labels, teamId, value = 1) {
      let counter = counters.get(name);
      if (counter === undefined) counters.set(name, (counter = meter.createCounter(name)));
      counter.add(value, { ...labels, team_id: teamId });
    },
    observe(name, seconds, labels, teamId) {
      let histogram = histograms.get(name);
      if (histogram === undefined) histograms.set(name, (histogram = meter.createHistogram(name, { unit: 's' })));
      histogram.record(seconds, { ...labels, team_id: teamId });
    },
    span(record) {
      const start = hrTime(record.startNs);
      const end = hrTime(record.endNs);
      const durationNs = record.endNs > record.startNs ? record.endNs - record.startNs : 0n;
      const span: ReadableSpan = {
        name: record.name,
        kind: KIND[record.kind ?? 'internal'],
        spanContext: () => ({ traceId: record.traceId, spanId: record.spanId, traceFlags: TraceFlags.SAMPLED }),
        parentSpanContext:
          record.parentSpanId === undefined ? undefined : { traceId: record.traceId, spanId: record.parentSpanId, traceFlags: TraceFlags.SAMPLED },
        startTime: start,
        endTime: end,
        duration: hrTime(durationNs),
        status: {
          code: record.status === 'ok' ? SpanStatusCode.OK : record.status === 'error' ? SpanStatusCode.ERROR : SpanStatusCode.UNSET,
          ...(record.statusMessage === undefined ? {} : { message: record.statusMessage }),
        },
        attributes: { ...record.attributes, team_id: record.teamId } as Attributes,
        links: [],
        events: [],
        ended: true,
        resource: resourceFromAttributes({ 'service.name': record.serviceName }),
        instrumentationScope: scope,
        droppedAttributesCount: 0,
        droppedEventsCount: 0,
        droppedLinksCount: 0,
      };
      processor.onEnd(span);
    },
    log() {
      // Logs stay in Warden's store; the SDK's log exporter is not wired (docs/telemetry.md).
    },
    async close() {
      await Promise.allSettled([processor.shutdown(), meters.shutdown()]);
    },
  };
}
