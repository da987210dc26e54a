import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { ProtobufMetricsSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AggregationType, MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, json, buildTestApp, type TestApp } from './helpers/app.js';
import { createApiKey, createWorld, type World } from './helpers/factories.js';
import { protoMetricsRequest, protoStringAttribute, type ProtoField } from './helpers/protobuf.js';

/**
 * OTLP metrics of every kind (issue 29, item 7; docs/telemetry.md, "OTLP in"): gauges, sums,
 * histograms, exponential histograms and summaries, sent as protobuf (by the OpenTelemetry
 * SDK's exporter, or written field by field where the SDK has no such kind) and as OTLP/JSON,
 * then read back through the reference's telemetry operations.
 */

let t: TestApp;
let world: World;
let key: string;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  key = await createApiKey(t.app, world.teamA.member.token, ['telemetry:write']);
});
afterAll(async () => {
  await t.close();
});

/** OTLP points carry the machine's clock: the test clock (the query's "now") follows it. */
const catchUp = () => {
  t.clock.current = Math.floor(Date.now() / 1000) + 1;
};
const get = async (url: string) => {
  catchUp();
  const response = await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
};
const total = async (metric: string, query = '') => (await get(`/v1/telemetry/counters/${metric}/total${query}`)).total_count as number;
const latency = async (metric: string, query: string) =>
  Object.fromEntries(
    ((await get(`/v1/telemetry/latency/${metric}?${query}`)) as Array<{ percentile: string; values: Array<{ value: number }> }>).map((s) => [
      s.percentile,
      s.values.map((v) => v.value),
    ]),
  );
const postJson = async (body: unknown) => {
  const response = await t.app.inject({ method: 'POST', url: '/v1/otlp/v1/metrics', headers: { ...bearer(key), 'content-type': 'application/json' },
    payload: JSON.stringify(body) });
  expect(response.statusCode, response.body).toBe(200);
  return json(response);
};
const postProtobuf = async (body: Buffer) => {
  const response = await t.app.inject({ method: 'POST', url: '/v1/otlp/v1/metrics', headers: { ...bearer(key), 'content-type': 'application/x-protobuf' },
    payload: body });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.headers['content-type']).toContain('application/x-protobuf');
  return ProtobufMetricsSerializer.deserializeResponse(response.rawPayload);
};
const jsonRequest = (metrics: unknown[]) => ({
  resourceMetrics: [{ resource: { attributes: [{ key: 'service.name', value: { stringValue: 'json-agent' } }] }, scopeMetrics: [{ metrics }] }],
});
const nowNs = () => BigInt(Date.now()) * 1_000_000n;
const attr = (key: string, value: string) => ({ key, value: { stringValue: value } });

/** An SDK meter exporting over HTTP to this Warden, as an application would with OTEL_EXPORTER_OTLP_ENDPOINT. */
async function sdkMeter(exponential: string[] = []) {
  const address = t.app.server.listening
    ? `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`
    : await t.app.listen({ port: 0, host: '127.0.0.1' });
  const exporter = new OTLPMetricExporter({ url: `${address}/v1/otlp/v1/metrics`, headers: { authorization: `Bearer ${key}` } });
  const reader = new PeriodicExportingMetricReader({ exporter, exportIntervalMillis: 3_600_000 });
  const provider = new MeterProvider({
    resource: resourceFromAttributes({ 'service.name': 'sdk-agent' }),
    readers: [reader],
    views: exponential.map((instrumentName) => ({ instrumentName, aggregation: { type: AggregationType.EXPONENTIAL_HISTOGRAM } })),
  });
  return { meter: provider.getMeter('test'), flush: () => reader.forceFlush(), close: () => provider.shutdown() };
}

describe('gauges', () => {
  it('answers the last value of an SDK gauge and of an up-down counter (protobuf), per agent configuration', async () => {
    const sdk = await sdkMeter();
    const gauge = sdk.meter.createGauge('sdk_queue_depth');
    const inflight = sdk.meter.createUpDownCounter('sdk_inflight_requests');
    gauge.record(5, { agent_configuration_id: 'agent-q' });
    inflight.add(5);
    await sdk.flush();
    // The SDK stamps a gauge's point with the collection's millisecond: the next one is later.
    await new Promise((resolve) => setTimeout(resolve, 5));
    gauge.record(7, { agent_configuration_id: 'agent-q' });
    inflight.add(-2);
    await sdk.flush();
    await sdk.close();
    // A gauge's total is its last value, not the sum of what it reported (5 + 7).
    expect(await total('sdk_queue_depth')).toBe(7);
    expect(await total('sdk_queue_depth', '?agent_configuration_id=agent-q')).toBe(7);
    expect(await total('sdk_queue_depth', '?agent_configuration_id=someone-else')).toBe(0);
    // A cumulative up-down counter is a current value too: 5 - 2.
    expect(await total('sdk_inflight_requests')).toBe(3);
  });

  it('answers a JSON gauge: the last value, summed over series, and its series over time', async () => {
    const now = nowNs();
    const at = (secondsAgo: number) => now - BigInt(secondsAgo) * 1_000_000_000n;
    const point = (agent: string, secondsAgo: number, value: number) => ({ attributes: [attr('agent_configuration_id', agent)],
      timeUnixNano: String(at(secondsAgo)), asDouble: value });
    expect(await postJson(jsonRequest([
      { name: 'json_pool_size', gauge: { dataPoints: [point('agent-g1', 120, 4), point('agent-g1', 60, 6)] } },
      { name: 'json_pool_size', gauge: { dataPoints: [{ ...point('agent-g2', 30, 0), asDouble: undefined, asInt: '100' }] } },
    ]))).toEqual({});
    expect(await total('json_pool_size', '?agent_configuration_id=agent-g1')).toBe(6);
    expect(await total('json_pool_size')).toBe(106);

    const answer = await get('/v1/telemetry/counters/json_pool_size/time_series?time_range=15m&agent_configuration_id=agent-g1');
    expect(answer.series).toHaveLength(1);
    const points = answer.series[0].points as Array<{ timestamp: number; value: number }>;
    // 60 steps of 15 s end now; the gauge has a value from the step of its first point on, and holds it.
    const toMs = (t.clock.now() + 1) * 1000;
    const step = (secondsAgo: number) => Math.floor((Number(at(secondsAgo) / 1_000_000n) - (toMs - 900_000)) / 15_000);
    const [first, second] = [step(120), step(60)];
    expect(points).toHaveLength(60 - first);
    points.forEach((p, i) => {
      expect(p.timestamp).toBe(Math.floor((toMs - 900_000 + (first + i + 1) * 15_000) / 1000));
      expect(p.value).toBe(first + i < second ? 4 : 6);
    });
    const both = await get('/v1/telemetry/counters/json_pool_size/time_series?time_range=15m');
    const last = Object.fromEntries((both.series as Array<{ labels: { agent_id: string }; points: Array<{ value: number }> }>).map((s) => [s.labels.agent_id,
      s.points.at(-1)!.value]));
    expect(last).toEqual({ 'agent-g1': 6, 'agent-g2': 100 });
  });
});

describe('exponential histograms', () => {
  it("answers an SDK exponential histogram's count, sum and percentiles from its buckets (protobuf, cumulative)", async () => {
    const sdk = await sdkMeter(['sdk_exp_seconds']);
    const histogram = sdk.meter.createHistogram('sdk_exp_seconds');
    for (let i = 1; i <= 100; i++) histogram.record(i / 100);
    await sdk.flush();
    for (let i = 101; i <= 200; i++) histogram.record(i / 100);
    await sdk.flush();
    await sdk.close();
    // Cumulative points become increases: 100 then 100 more, not 100 + 200.
    expect(await total('sdk_exp_seconds_count')).toBe(200);
    expect(await total('sdk_exp_seconds_sum')).toBeCloseTo(201, 6);
    const p = await latency('sdk_exp_seconds', 'percentiles=0.5,0.9,0.99&time_window=1h');
    // Each observation counts at its bucket's upper bound: at or above the true value, within
    // one bucket's width (the SDK's 160 buckets over this range: 2^(1/16), under 5 %).
    for (const [name, exact] of [['P50', 1], ['P90', 1.8], ['P99', 1.98]] as const) {
      expect(p[name]).toHaveLength(1);
      expect(p[name]![0]).toBeGreaterThanOrEqual(exact);
      expect(p[name]![0]).toBeLessThan(exact * 1.05);
    }
  });

  it('answers a JSON exponential histogram with negative, zero and positive buckets exactly at their bounds', async () => {
    const time = String(nowNs());
    expect(await postJson(jsonRequest([{
      name: 'json_exp_offset',
      exponentialHistogram: {
        aggregationTemporality: 'AGGREGATION_TEMPORALITY_DELTA',
        dataPoints: [{
          timeUnixNano: time, count: '14', sum: 17.5, scale: 1, zeroCount: '2',
          // scale 1: base √2; bucket i holds (√2^i, √2^(i+1)]; negative bucket i holds [-√2^(i+1), -√2^i)
          positive: { offset: 2, bucketCounts: ['3', '0', '5'] },
          negative: { offset: 0, bucketCounts: ['4'] },
        }],
      },
    }]))).toEqual({});
    expect(await total('json_exp_offset_count')).toBe(14);
    expect(await total('json_exp_offset_sum')).toBe(17.5);
    const p = await latency('json_exp_offset', 'percentiles=0.25,0.4,0.5,0.99&time_window=1h');
    // Sorted: 4 in [-√2, -1) at -1, 2 zeros at 0, 3 in (2, 2√2] at 2√2, 5 in (4, 4√2] at 4√2.
    expect(p.P25).toEqual([-1]);
    expect(p.P40).toEqual([0]);
    expect(p.P50![0]).toBeCloseTo(2 * Math.SQRT2, 12);
    expect(p.P99![0]).toBeCloseTo(4 * Math.SQRT2, 12);
  });
});

describe('summaries', () => {
  /** Two cumulative points of one summary: 10 then 14 observations, with their quantiles. */
  const points = (start: bigint) => [
    { start, time: start + 1_000_000n, count: 10, sum: 2.5, quantiles: [[0.5, 0.2], [0.99, 0.9]] as const },
    { start, time: start + 2_000_000n, count: 14, sum: 3.5, quantiles: [[0.5, 0.25], [0.99, 1.1]] as const },
  ];
  const expectSummary = async (name: string) => {
    expect(await total(`${name}_count`)).toBe(14);
    expect(await total(`${name}_sum`)).toBe(3.5);
    const p = await latency(name, 'percentiles=0.5,0.9,0.99&time_window=1h');
    // The summary's own quantiles, the latest in the window; P90 was not reported, so it has no value.
    expect(p).toEqual({ P50: [0.25], P90: [], P99: [1.1] });
  };

  it('answers a JSON summary: count and sum as _count and _sum, its quantiles as percentiles', async () => {
    for (const point of points(nowNs())) {
      expect(await postJson(jsonRequest([{
        name: 'json_summary_seconds',
        summary: { dataPoints: [{ startTimeUnixNano: String(point.start), timeUnixNano: String(point.time), count: String(point.count), sum: point.sum,
          quantileValues: point.quantiles.map(([quantile, value]) => ({ quantile, value })) }] },
      }]))).toEqual({});
    }
    await expectSummary('json_summary_seconds');
  });

  it('answers a protobuf summary the same way', async () => {
    for (const point of points(nowNs())) {
      // metrics.proto: Metric.summary = 11; Summary.data_points = 1; SummaryDataPoint: start 2, time 3, count 4, sum 5,
      // quantile_values 6 (ValueAtQuantile: quantile 1, value 2), attributes 7.
      const metric: ProtoField[] = [
        [1, 'string', 'proto_summary_seconds'],
        [11, 'message', [[1, 'message', [
          [2, 'fixed64', point.start],
          [3, 'fixed64', point.time],
          [4, 'fixed64', point.count],
          [5, 'double', point.sum],
          ...point.quantiles.map(([quantile, value]): ProtoField => [6, 'message', [[1, 'double', quantile], [2, 'double', value]]]),
          protoStringAttribute(7, 'route', 'chat'),
        ]]]],
      ];
      expect(await postProtobuf(protoMetricsRequest('proto-agent', [metric]))).toEqual({});
    }
    await expectSummary('proto_summary_seconds');
  });
});

describe('what is not stored', () => {
  it('reports rejected points with the reason in partialSuccess, in JSON and in protobuf, and keeps the rest', async () => {
    const time = String(nowNs());
    const answer = await postJson(jsonRequest([
      { gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 1 }, { timeUnixNano: time, asDouble: 2 }] } },
      { name: 'json_bad_gauge', gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 'NaN' }] } },
      { name: 'json_good_gauge', gauge: { dataPoints: [{ timeUnixNano: time, asDouble: 1.5 }] } },
    ]));
    expect(answer.partialSuccess.rejectedDataPoints).toBe(3);
    expect(answer.partialSuccess.errorMessage).toMatch(/without a name/);
    expect(answer.partialSuccess.errorMessage).toMatch(/not a finite number/);
    expect(await total('json_good_gauge')).toBe(1.5);
    expect(await total('json_bad_gauge')).toBe(0);

    // metrics.proto: Metric.name = 1, Metric.gauge = 5; Gauge.data_points = 1; NumberDataPoint: time 3, as_double 4.
    const gauge = (value: number): ProtoField => [5, 'message', [[1, 'message', [[3, 'fixed64', BigInt(time)], [4, 'double', value]]]]];
    const response = await postProtobuf(protoMetricsRequest('proto-agent', [
      [gauge(1)],
      [[1, 'string', 'proto_bad_gauge'], gauge(Number.POSITIVE_INFINITY)],
      [[1, 'string', 'proto_good_gauge'], gauge(2.5)],
    ]));
    expect(response.partialSuccess?.rejectedDataPoints).toBe(2);
    expect(response.partialSuccess?.errorMessage).toMatch(/without a name.*not a finite number|not a finite number.*without a name/);
    expect(await total('proto_good_gauge')).toBe(2.5);
  });
});
