import { ProtobufLogsSerializer, ProtobufMetricsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationTemporality, InMemoryMetricExporter, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { CumulativeState, decodeProtobuf, pointsOf, spansOf } from './otlp.js';

const resource = resourceFromAttributes({ 'service.name': 'sdk-agent' });

describe('OTLP protobuf, as the OpenTelemetry SDK serializes it', () => {
  it('decodes spans: ids, parent, times, kind, status and typed attributes', () => {
    const memory = new InMemorySpanExporter();
    const provider = new BasicTracerProvider({ resource, spanProcessors: [new SimpleSpanProcessor(memory)] });
    const tracer = provider.getTracer('test');
    const root = tracer.startSpan('invoke_agent helper', { attributes: { 'app.case': 'otlp', turns: 3, ratio: 0.5, ok: true } });
    root.setStatus({ code: 2, message: 'boom' });
    root.end();
    const bytes = ProtobufTraceSerializer.serializeRequest(memory.getFinishedSpans())!;
    const { spans, rejected } = spansOf(decodeProtobuf('traces', bytes), 'team-a');
    expect(rejected).toBe(0);
    expect(spans).toHaveLength(1);
    const span = spans[0]!;
    expect(span).toMatchObject({
      traceId: root.spanContext().traceId,
      spanId: root.spanContext().spanId,
      parentSpanId: undefined,
      name: 'invoke_agent helper',
      kind: 'internal',
      status: 'error',
      statusMessage: 'boom',
      serviceName: 'sdk-agent',
      attributes: { 'app.case': 'otlp', turns: 3, ratio: 0.5, ok: true },
      teamId: 'team-a',
    });
    expect(span.endNs >= span.startNs).toBe(true);
    expect(span.startNs > 1_700_000_000n * 1_000_000_000n).toBe(true);
  });

  it('decodes cumulative sums and histograms and turns them into increases', async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.CUMULATIVE);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const meters = new MeterProvider({ resource, readers: [reader] });
    const meter = meters.getMeter('test');
    const counter = meter.createCounter('calls_total');
    const histogram = meter.createHistogram('call_seconds');
    const state = new CumulativeState(0n);
    counter.add(2, { route: 'a' });
    histogram.record(0.2);
    await reader.forceFlush();
    counter.add(3, { route: 'a' });
    histogram.record(0.7);
    await reader.forceFlush();
    const [first, second] = exporter.getMetrics();
    const decode = (m: typeof first) => pointsOf(decodeProtobuf('metrics', ProtobufMetricsSerializer.serializeRequest(m!)!), 'team-a', state).points;
    const one = decode(first);
    const two = decode(second);
    expect(one.find((p) => p.name === 'calls_total')).toMatchObject({ kind: 'sum', value: 2, labels: { route: 'a', service_name: 'sdk-agent' } });
    expect(two.find((p) => p.name === 'calls_total')).toMatchObject({ kind: 'sum', value: 3 });
    const h = two.find((p) => p.name === 'call_seconds')!;
    expect(h.kind).toBe('histogram');
    expect(h.count).toBe(1);
    expect(h.value).toBeCloseTo(0.7);
    await meters.shutdown();
    expect(ProtobufLogsSerializer).toBeDefined();
  });

  it('refuses bytes that are not a protobuf message', () => {
    expect(() => decodeProtobuf('traces', new Uint8Array([0x0a, 0xff, 0xff, 0xff]))).toThrow(/not a valid OTLP traces/);
  });
});
