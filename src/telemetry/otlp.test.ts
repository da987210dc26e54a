import { ProtobufLogsSerializer, ProtobufMetricsSerializer, ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  AggregationTemporality,
  AggregationType,
  DataPointType,
  InMemoryMetricExporter,
  MeterProvider,
  PeriodicExportingMetricReader,
  type ExponentialHistogram,
} from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { CumulativeState, decodeProtobuf, explicitBuckets, pointsOf, spansOf, subtractExponential, type ExponentialPoint } from './otlp.js';

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

  it("decodes an exponential histogram's scale, offsets and bucket counts as the SDK wrote them", async () => {
    const exporter = new InMemoryMetricExporter(AggregationTemporality.DELTA);
    const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
    const meters = new MeterProvider({ resource, readers: [reader],
      views: [{ instrumentName: 'exp_seconds', aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } }] });
    const histogram = meters.getMeter('test').createHistogram('exp_seconds');
    for (const value of [0, 0.003, 0.05, 0.05, 0.7, 12, 300]) histogram.record(value);
    await reader.forceFlush();
    const [metrics] = exporter.getMetrics();
    const sdkMetric = metrics!.scopeMetrics[0]!.metrics[0]!;
    expect(sdkMetric.dataPointType).toBe(DataPointType.EXPONENTIAL_HISTOGRAM);
    const sdkPoint = sdkMetric.dataPoints[0]!.value as ExponentialHistogram;
    const request = decodeProtobuf('metrics', ProtobufMetricsSerializer.serializeRequest(metrics!)!);
    const decoded = (request.resourceMetrics as any)[0].scopeMetrics[0].metrics[0].exponentialHistogram.dataPoints[0];
    expect(decoded.scale).toBe(sdkPoint.scale);
    expect(Number(decoded.zeroCount)).toBe(sdkPoint.zeroCount);
    expect(decoded.positive.offset ?? 0).toBe(sdkPoint.positive.offset);
    expect(decoded.positive.bucketCounts).toEqual(sdkPoint.positive.bucketCounts);
    const [point] = pointsOf(request, 'team-a', new CumulativeState(0n)).points;
    expect(point).toMatchObject({ kind: 'histogram', count: 7, value: sdkPoint.sum });
    // Each observation at its bucket's upper bound: within one bucket's width above it.
    const base = 2 ** 2 ** -sdkPoint.scale;
    const bounds = point!.histogram!.bounds;
    expect(point!.histogram!.counts).toEqual([1, 1, 2, 1, 1, 1, 0]);
    expect(bounds[0]).toBe(0);
    [0.003, 0.05, 0.7, 12, 300].forEach((value, i) => {
      expect(bounds[i + 1]).toBeGreaterThanOrEqual(value);
      expect(bounds[i + 1]).toBeLessThanOrEqual(value * base * (1 + 1e-12));
    });
    await meters.shutdown();
  });

  it('refuses bytes that are not a protobuf message', () => {
    expect(() => decodeProtobuf('traces', new Uint8Array([0x0a, 0xff, 0xff, 0xff]))).toThrow(/not a valid OTLP traces/);
  });
});

describe('exponential histograms in the stored shape', () => {
  const point = (scale: number, positive: [number, number[]], negative: [number, number[]] = [0, []], zeroCount = 0): ExponentialPoint => ({
    sum: 0,
    scale,
    zeroCount,
    zeroThreshold: 0,
    positive: { offset: positive[0], counts: positive[1] },
    negative: { offset: negative[0], counts: negative[1] },
  });

  it('bounds each non-empty bucket above, from the most negative up', () => {
    // scale 0: base 2. Negative bucket 1 holds [-4, -2), 0 holds [-2, -1); positive bucket -1 holds (0.5, 1], 1 holds (2, 4].
    expect(explicitBuckets(point(0, [-1, [3, 0, 2]], [0, [1, 4]], 5))).toEqual({ bounds: [-2, -1, 0, 1, 4], counts: [4, 1, 5, 3, 2, 0] });
    // scale -1: base 4; bucket 1 holds (4, 16].
    expect(explicitBuckets(point(-1, [1, [7]]))).toEqual({ bounds: [16], counts: [7, 0] });
  });

  it('subtracts cumulative points across a lower scale, and sees a reset', () => {
    // scale 1 (base √2): buckets 2..4 hold 3, 0, 5; at scale 0 they merge into 1 (2, 3 → 1) and 2 (4 → 2).
    const before = point(1, [2, [3, 0, 5]]);
    const after = point(0, [1, [3, 6, 2]]);
    expect(subtractExponential(after, before)).toMatchObject({ scale: 0, positive: { offset: 1, counts: [0, 1, 2] } });
    expect(subtractExponential(point(0, [1, [1, 6]]), before)).toBeNull();
    expect(subtractExponential(point(1, [2, [3, 0, 5]], [0, []], 1), point(1, [2, [3, 0, 5]], [0, []], 2))).toBeNull();
  });

  it('turns cumulative points into increases per series, and skips points without a recorded value', () => {
    const state = new CumulativeState(0n);
    const request = (counts: string[], flags = 0) => ({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{
        name: 'exp',
        exponentialHistogram: { aggregationTemporality: 2, dataPoints: [{ startTimeUnixNano: '5', timeUnixNano: '1000000', scale: 0, sum: 3, flags,
          positive: { offset: 0, bucketCounts: counts } }] },
      }] }] }],
    });
    expect(pointsOf(request(['1', '2']), 't', state).points[0]).toMatchObject({ count: 3, histogram: { bounds: [2, 4], counts: [1, 2, 0] } });
    expect(pointsOf(request(['1', '2'], 1), 't', state)).toEqual({ points: [], rejected: 0, reasons: [] });
    expect(pointsOf(request(['1', '5']), 't', state).points[0]).toMatchObject({ count: 3, value: 0, histogram: { bounds: [4], counts: [3, 0] } });
  });

  it('keeps a cumulative histogram whose sum went down (negative observations) a continuation, not a reset', () => {
    const state = new CumulativeState(0n);
    const request = (sum: number, counts: number[]) => ({
      resourceMetrics: [{ scopeMetrics: [{ metrics: [{ name: 'h', histogram: { aggregationTemporality: 2, dataPoints: [{ startTimeUnixNano: '5',
        timeUnixNano: '1000000', sum, bucketCounts: counts, explicitBounds: [0] }] } }] }] }],
    });
    pointsOf(request(1, [0, 1]), 't', state);
    expect(pointsOf(request(-2, [1, 1]), 't', state).points[0]).toMatchObject({ count: 1, value: -3, histogram: { counts: [1, 0] } });
  });
});

describe('the cumulative state', () => {
  it('bounds the numbers it holds, not only its series: past the bound, series start again from a baseline', () => {
    const state = new CumulativeState(10n, 100_000, 1_000);
    const buckets = (n: number) => Array.from({ length: 200 }, () => n);
    expect(state.delta('a', 0n, buckets(1))).toEqual(buckets(0));
    expect(state.delta('a', 0n, buckets(3))).toEqual(buckets(2));
    for (const key of ['b', 'c', 'd', 'e']) state.delta(key, 0n, buckets(1));
    // 1,000 numbers held (five series of 200): one more series clears them all.
    state.delta('f', 0n, buckets(1));
    expect(state.delta('a', 0n, buckets(5))).toEqual(buckets(0));
    expect(state.delta('a', 0n, buckets(6))).toEqual(buckets(1));
  });
});
