import type { MetricPoint, TelemetryBatch } from './store.js';
import type { AttributeValue, LogEntry, SpanRecord } from './types.js';

/**
 * OTLP/HTTP payloads (issue 29, docs/telemetry.md "OTLP"): protobuf (read against the field
 * numbers of opentelemetry-proto v1's trace, metrics, logs and common messages, transcribed
 * below, by the small wire reader `Wire`) and OTLP/JSON, both turned into
 * the same plain shape (OTLP/JSON's: camelCase names, hex ids) and then into Warden's records.
 */

export class OtlpError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OtlpError';
  }
}

type FieldType = 'string' | 'bytes' | 'hex' | 'fixed64' | 'sfixed64' | 'double' | 'int64' | 'uint64' | 'sint32' | 'enum' | 'bool' | 'fixed32' | 'uint32';
interface Field {
  name: string;
  type: FieldType | string; // a message name otherwise
  repeated?: true;
}
type MessageSchema = Record<number, Field>;

const KV: Field = { name: 'attributes', type: 'KeyValue', repeated: true };
const SCHEMA: Record<string, MessageSchema> = {
  KeyValue: { 1: { name: 'key', type: 'string' }, 2: { name: 'value', type: 'AnyValue' } },
  AnyValue: {
    1: { name: 'stringValue', type: 'string' },
    2: { name: 'boolValue', type: 'bool' },
    3: { name: 'intValue', type: 'int64' },
    4: { name: 'doubleValue', type: 'double' },
    5: { name: 'arrayValue', type: 'ArrayValue' },
    6: { name: 'kvlistValue', type: 'KeyValueList' },
    7: { name: 'bytesValue', type: 'bytes' },
  },
  ArrayValue: { 1: { name: 'values', type: 'AnyValue', repeated: true } },
  KeyValueList: { 1: { name: 'values', type: 'KeyValue', repeated: true } },
  Resource: { 1: KV },
  InstrumentationScope: { 1: { name: 'name', type: 'string' }, 2: { name: 'version', type: 'string' }, 3: KV },
  // trace.proto
  TracesData: { 1: { name: 'resourceSpans', type: 'ResourceSpans', repeated: true } },
  ResourceSpans: { 1: { name: 'resource', type: 'Resource' }, 2: { name: 'scopeSpans', type: 'ScopeSpans', repeated: true } },
  ScopeSpans: { 1: { name: 'scope', type: 'InstrumentationScope' }, 2: { name: 'spans', type: 'Span', repeated: true } },
  Span: {
    1: { name: 'traceId', type: 'hex' },
    2: { name: 'spanId', type: 'hex' },
    4: { name: 'parentSpanId', type: 'hex' },
    5: { name: 'name', type: 'string' },
    6: { name: 'kind', type: 'enum' },
    7: { name: 'startTimeUnixNano', type: 'fixed64' },
    8: { name: 'endTimeUnixNano', type: 'fixed64' },
    9: KV,
    15: { name: 'status', type: 'Status' },
  },
  Status: { 2: { name: 'message', type: 'string' }, 3: { name: 'code', type: 'enum' } },
  // metrics.proto
  MetricsData: { 1: { name: 'resourceMetrics', type: 'ResourceMetrics', repeated: true } },
  ResourceMetrics: { 1: { name: 'resource', type: 'Resource' }, 2: { name: 'scopeMetrics', type: 'ScopeMetrics', repeated: true } },
  ScopeMetrics: { 1: { name: 'scope', type: 'InstrumentationScope' }, 2: { name: 'metrics', type: 'Metric', repeated: true } },
  Metric: {
    1: { name: 'name', type: 'string' },
    3: { name: 'unit', type: 'string' },
    5: { name: 'gauge', type: 'Gauge' },
    7: { name: 'sum', type: 'Sum' },
    9: { name: 'histogram', type: 'Histogram' },
    10: { name: 'exponentialHistogram', type: 'ExponentialHistogram' },
    11: { name: 'summary', type: 'Summary' },
  },
  Gauge: { 1: { name: 'dataPoints', type: 'NumberDataPoint', repeated: true } },
  Sum: {
    1: { name: 'dataPoints', type: 'NumberDataPoint', repeated: true },
    2: { name: 'aggregationTemporality', type: 'enum' },
    3: { name: 'isMonotonic', type: 'bool' },
  },
  Histogram: { 1: { name: 'dataPoints', type: 'HistogramDataPoint', repeated: true }, 2: { name: 'aggregationTemporality', type: 'enum' } },
  ExponentialHistogram: {
    1: { name: 'dataPoints', type: 'ExponentialHistogramDataPoint', repeated: true },
    2: { name: 'aggregationTemporality', type: 'enum' },
  },
  Summary: { 1: { name: 'dataPoints', type: 'SummaryDataPoint', repeated: true } },
  NumberDataPoint: {
    7: KV,
    2: { name: 'startTimeUnixNano', type: 'fixed64' },
    3: { name: 'timeUnixNano', type: 'fixed64' },
    4: { name: 'asDouble', type: 'double' },
    6: { name: 'asInt', type: 'sfixed64' },
    8: { name: 'flags', type: 'uint32' },
  },
  HistogramDataPoint: {
    9: KV,
    2: { name: 'startTimeUnixNano', type: 'fixed64' },
    3: { name: 'timeUnixNano', type: 'fixed64' },
    4: { name: 'count', type: 'fixed64' },
    5: { name: 'sum', type: 'double' },
    6: { name: 'bucketCounts', type: 'fixed64', repeated: true },
    7: { name: 'explicitBounds', type: 'double', repeated: true },
    10: { name: 'flags', type: 'uint32' },
  },
  ExponentialHistogramDataPoint: {
    1: KV,
    2: { name: 'startTimeUnixNano', type: 'fixed64' },
    3: { name: 'timeUnixNano', type: 'fixed64' },
    4: { name: 'count', type: 'fixed64' },
    5: { name: 'sum', type: 'double' },
    6: { name: 'scale', type: 'sint32' },
    7: { name: 'zeroCount', type: 'fixed64' },
    8: { name: 'positive', type: 'ExponentialBuckets' },
    9: { name: 'negative', type: 'ExponentialBuckets' },
    10: { name: 'flags', type: 'uint32' },
    14: { name: 'zeroThreshold', type: 'double' },
  },
  ExponentialBuckets: { 1: { name: 'offset', type: 'sint32' }, 2: { name: 'bucketCounts', type: 'uint64', repeated: true } },
  SummaryDataPoint: {
    7: KV,
    2: { name: 'startTimeUnixNano', type: 'fixed64' },
    3: { name: 'timeUnixNano', type: 'fixed64' },
    4: { name: 'count', type: 'fixed64' },
    5: { name: 'sum', type: 'double' },
    6: { name: 'quantileValues', type: 'ValueAtQuantile', repeated: true },
    8: { name: 'flags', type: 'uint32' },
  },
  ValueAtQuantile: { 1: { name: 'quantile', type: 'double' }, 2: { name: 'value', type: 'double' } },
  // logs.proto
  LogsData: { 1: { name: 'resourceLogs', type: 'ResourceLogs', repeated: true } },
  ResourceLogs: { 1: { name: 'resource', type: 'Resource' }, 2: { name: 'scopeLogs', type: 'ScopeLogs', repeated: true } },
  ScopeLogs: { 1: { name: 'scope', type: 'InstrumentationScope' }, 2: { name: 'logRecords', type: 'LogRecord', repeated: true } },
  LogRecord: {
    1: { name: 'timeUnixNano', type: 'fixed64' },
    11: { name: 'observedTimeUnixNano', type: 'fixed64' },
    2: { name: 'severityNumber', type: 'enum' },
    3: { name: 'severityText', type: 'string' },
    5: { name: 'body', type: 'AnyValue' },
    6: KV,
    9: { name: 'traceId', type: 'hex' },
    10: { name: 'spanId', type: 'hex' },
  },
};

/**
 * The protobuf wire format over one Buffer, without an object per nested message: a nested
 * message is read in place between two offsets. (@bufbuild/protobuf's BinaryReader, one per
 * message, measured 50–350 ms for a batch of 1,000 spans here; docs/telemetry.md, "Speed".)
 */
class Wire {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): number {
    let result = 0;
    let shift = 1;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OtlpError('truncated varint');
      const byte = this.buf[this.pos++]!;
      result += (byte & 0x7f) * shift;
      if (byte < 0x80) return result;
      shift *= 128;
    }
    throw new OtlpError('malformed varint');
  }

  /** An int64 varint, two's complement for negatives. */
  int64(): bigint {
    let result = 0n;
    let shift = 0n;
    for (let i = 0; i < 10; i++) {
      if (this.pos >= this.end) throw new OtlpError('truncated varint');
      const byte = this.buf[this.pos++]!;
      result |= BigInt(byte & 0x7f) << shift;
      if (byte < 0x80) return BigInt.asIntN(64, result);
      shift += 7n;
    }
    throw new OtlpError('malformed varint');
  }

  take(size: number): number {
    const at = this.pos;
    if (size < 0 || at + size > this.end) throw new OtlpError('truncated message');
    this.pos += size;
    return at;
  }

  skip(wireType: number): void {
    if (wireType === 0) this.varint();
    else if (wireType === 1) this.take(8);
    else if (wireType === 2) this.take(this.varint());
    else if (wireType === 5) this.take(4);
    else throw new OtlpError(`unsupported wire type ${wireType}`);
  }
}

const MAX_DEPTH = 32;

function scalar(wire: Wire, type: FieldType): unknown {
  const { buf } = wire;
  switch (type) {
    case 'string': {
      const size = wire.varint();
      const at = wire.take(size);
      return buf.toString('utf8', at, at + size);
    }
    case 'bytes': {
      const size = wire.varint();
      const at = wire.take(size);
      return buf.subarray(at, at + size);
    }
    case 'hex': {
      const size = wire.varint();
      const at = wire.take(size);
      return buf.toString('hex', at, at + size);
    }
    case 'fixed64':
      return buf.readBigUInt64LE(wire.take(8));
    case 'sfixed64':
      return buf.readBigInt64LE(wire.take(8));
    case 'int64':
      return wire.int64();
    case 'double':
      return buf.readDoubleLE(wire.take(8));
    case 'enum':
    case 'uint32':
    case 'uint64':
      return wire.varint();
    case 'sint32': {
      const zigzag = wire.varint();
      return zigzag % 2 === 0 ? zigzag / 2 : -(zigzag + 1) / 2;
    }
    case 'bool':
      return wire.varint() !== 0;
    case 'fixed32':
      return buf.readUInt32LE(wire.take(4));
  }
}

function decode(wire: Wire, end: number, message: string, depth: number): Record<string, unknown> {
  if (depth > MAX_DEPTH) throw new OtlpError('the message nests too deeply');
  const schema = SCHEMA[message]!;
  const out: Record<string, unknown> = {};
  while (wire.pos < end) {
    const tag = wire.varint();
    const fieldNo = Math.floor(tag / 8);
    const wireType = tag & 7;
    const field = schema[fieldNo];
    if (field === undefined) {
      wire.skip(wireType);
      continue;
    }
    let value: unknown;
    if (SCHEMA[field.type] !== undefined) {
      if (wireType !== 2) throw new OtlpError(`field ${field.name} is not a message`);
      const size = wire.varint();
      const at = wire.take(size);
      const inner = new Wire(wire.buf, at, at + size);
      value = decode(inner, at + size, field.type, depth + 1);
    } else if (field.repeated && wireType === 2 && field.type !== 'string' && field.type !== 'bytes') {
      // A packed repeated scalar.
      const size = wire.varint();
      const at = wire.take(size);
      const packed = new Wire(wire.buf, at, at + size);
      const list = ((out[field.name] ??= []) as unknown[]);
      while (packed.pos < packed.end) list.push(scalar(packed, field.type as FieldType));
      continue;
    } else value = scalar(wire, field.type as FieldType);
    if (field.repeated) ((out[field.name] ??= []) as unknown[]).push(value);
    else out[field.name] = value;
  }
  if (wire.pos !== end) throw new OtlpError('truncated message');
  return out;
}

export type Signal = 'traces' | 'metrics' | 'logs';
const ROOT: Record<Signal, string> = { traces: 'TracesData', metrics: 'MetricsData', logs: 'LogsData' };

/** A protobuf Export*ServiceRequest (same fields as *Data) in the OTLP/JSON shape. */
export function decodeProtobuf(signal: Signal, bytes: Uint8Array): Record<string, unknown> {
  try {
    const buf = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return decode(new Wire(buf, 0, buf.length), buf.length, ROOT[signal], 0);
  } catch (error) {
    const why = error instanceof OtlpError ? ` (${error.message})` : '';
    throw new OtlpError(`the body is not a valid OTLP ${signal} protobuf message${why}`);
  }
}

// ---- From the OTLP/JSON shape to Warden's records ------------------------------------------

type Json = Record<string, any>;
const asArray = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const nanos = (value: unknown): bigint => {
  if (typeof value === 'bigint') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return BigInt(Math.trunc(value));
  if (typeof value === 'string' && /^\d+$/.test(value)) return BigInt(value);
  return 0n;
};
/** PostgreSQL stores no NUL character (docs/decisions.md, "NUL characters"): OTLP text drops them. */
const clean = (text: string) => (text.includes('\u0000') ? text.replaceAll('\u0000', '') : text);
const num = (value: unknown): number =>
  typeof value === 'bigint' || typeof value === 'string' ? Number(value) : typeof value === 'number' ? value : 0;

/** An AnyValue as one attribute value: scalars as they are, arrays, maps and bytes as JSON text. */
function anyValue(value: Json | undefined): AttributeValue | undefined {
  if (value === undefined || value === null) return undefined;
  if (value.stringValue !== undefined) return clean(String(value.stringValue));
  if (value.boolValue !== undefined) return Boolean(value.boolValue);
  if (value.intValue !== undefined) return num(value.intValue);
  if (value.doubleValue !== undefined) return num(value.doubleValue);
  if (value.arrayValue !== undefined) return JSON.stringify(asArray(value.arrayValue.values).map((v) => anyValue(v) ?? null));
  if (value.kvlistValue !== undefined) return JSON.stringify(attributes(value.kvlistValue.values));
  if (value.bytesValue !== undefined) {
    return value.bytesValue instanceof Uint8Array ? Buffer.from(value.bytesValue).toString('base64') : String(value.bytesValue);
  }
  return undefined;
}

function attributes(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  for (const kv of asArray(list)) {
    const value = anyValue(kv.value as Json | undefined);
    if (typeof kv.key === 'string' && value !== undefined) out[clean(kv.key)] = value;
  }
  return out;
}

const KINDS = ['internal', 'internal', 'server', 'client', 'producer', 'consumer'] as const;
const STATUS = ['unset', 'ok', 'error'] as const;
const enumOf = (value: unknown, names: readonly string[], prefix: string): number => {
  if (typeof value === 'number') return value;
  if (typeof value === 'string') {
    const index = names.findIndex((n) => `${prefix}${n.toUpperCase()}` === value);
    return index < 0 ? 0 : index;
  }
  return 0;
};
const isHex = (id: unknown, length: number): id is string => typeof id === 'string' && id.length === length && /^[0-9a-f]+$/i.test(id);
const serviceOf = (resource: Record<string, AttributeValue>) => String(resource['service.name'] ?? 'unknown_service');

/** Spans of an ExportTraceServiceRequest; spans with malformed ids are skipped and counted. */
export function spansOf(request: Json, teamId: string): { spans: SpanRecord[]; rejected: number } {
  const spans: SpanRecord[] = [];
  let rejected = 0;
  for (const rs of asArray(request.resourceSpans)) {
    const resource = attributes(rs.resource?.attributes);
    const serviceName = serviceOf(resource);
    for (const ss of asArray(rs.scopeSpans)) {
      for (const span of asArray(ss.spans)) {
        if (!isHex(span.traceId, 32) || !isHex(span.spanId, 16)) {
          rejected++;
          continue;
        }
        const parent = isHex(span.parentSpanId, 16) && !/^0+$/.test(span.parentSpanId) ? span.parentSpanId.toLowerCase() : undefined;
        const code = enumOf(span.status?.code, STATUS, 'STATUS_CODE_');
        spans.push({
          traceId: span.traceId.toLowerCase(),
          spanId: span.spanId.toLowerCase(),
          parentSpanId: parent,
          name: clean(String(span.name ?? '')),
          kind: KINDS[enumOf(span.kind, ['unspecified', ...KINDS.slice(1)], 'SPAN_KIND_')] ?? 'internal',
          startNs: nanos(span.startTimeUnixNano),
          endNs: nanos(span.endTimeUnixNano),
          status: STATUS[code] ?? 'unset',
          statusMessage: typeof span.status?.message === 'string' && span.status.message !== '' ? clean(span.status.message) : undefined,
          serviceName,
          attributes: attributes(span.attributes),
          teamId,
        });
      }
    }
  }
  return { spans, rejected };
}

const SEVERITIES: Array<[number, LogEntry['severity']]> = [
  [17, 'error'],
  [13, 'warn'],
  [9, 'info'],
  [0, 'debug'],
];
function severityOf(record: Json): LogEntry['severity'] {
  const number = enumOf(record.severityNumber, [], '');
  if (number > 0) return SEVERITIES.find(([from]) => number >= from)![1];
  const text = String(record.severityText ?? '').toLowerCase();
  if (text.startsWith('err') || text.startsWith('fatal')) return 'error';
  if (text.startsWith('warn')) return 'warn';
  if (text.startsWith('debug') || text.startsWith('trace')) return 'debug';
  return 'info';
}

const LABEL_ATTRIBUTES = ['agent_configuration_id', 'evaluation_id', 'campaign_id', 'test_id', 'probe_id', 'job', 'exporter',
  'deployment.environment'] as const;

/** Log records of an ExportLogsServiceRequest: stream labels from the resource's service and the usual label attributes. */
export function logsOf(request: Json, teamId: string, nowNs: bigint): LogEntry[] {
  const logs: LogEntry[] = [];
  for (const rl of asArray(request.resourceLogs)) {
    const resource = attributes(rl.resource?.attributes);
    for (const sl of asArray(rl.scopeLogs)) {
      for (const record of asArray(sl.logRecords)) {
        const attrs = { ...resource, ...attributes(record.attributes) };
        const labels: Record<string, string> = { service_name: serviceOf(resource) };
        for (const key of LABEL_ATTRIBUTES) if (attrs[key] !== undefined) labels[key.replace('.', '_')] = String(attrs[key]);
        const body = anyValue(record.body as Json | undefined);
        const time = nanos(record.timeUnixNano) || nanos(record.observedTimeUnixNano) || nowNs;
        logs.push({
          timeNs: time,
          severity: severityOf(record),
          body: body === undefined ? '' : String(body),
          labels,
          traceId: isHex(record.traceId, 32) ? record.traceId.toLowerCase() : undefined,
          spanId: isHex(record.spanId, 16) ? record.spanId.toLowerCase() : undefined,
          teamId,
        });
      }
    }
  }
  return logs;
}

/**
 * What cumulative series last reported, to turn their points into increases (delta) as Warden
 * stores them. Kept in this process: a series seen for the first time counts its whole value
 * only when it started after this process did (a restarted exporter); otherwise its first
 * point only sets the baseline, so that a Warden restart does not count a total twice.
 */
export class CumulativeState {
  private readonly last = new Map<string, { start: bigint; value: unknown; weight: number }>();
  /** Numbers held in `last` (a histogram holds one per bucket): bounds the memory, not only the series. */
  private held = 0;
  constructor(
    private readonly startedNs: bigint,
    private readonly maxSeries = 100_000,
    private readonly maxNumbers = 2_000_000,
  ) {}

  /**
   * The increase of a cumulative series since its last point, as `subtract(current, previous)`
   * answers it (null from it: the series was reset, and counts from zero, as does a new start);
   * null when the point only sets the series' baseline.
   */
  increase<T>(key: string, start: bigint, current: T, subtract: (current: T, previous: T) => T | null, weight = 1): T | null {
    const previous = this.last.get(key);
    this.held += weight - (previous?.weight ?? 0);
    // Past either bound every series starts again from a baseline (a point then counts nothing): memory stays bounded.
    if ((this.last.size >= this.maxSeries && previous === undefined) || this.held > this.maxNumbers) {
      this.last.clear();
      this.held = weight;
    }
    this.last.set(key, { start, value: current, weight });
    if (previous === undefined) return start >= this.startedNs ? current : null;
    if (start !== previous.start) return current;
    return subtract(current, previous.value as T) ?? current;
  }

  /**
   * The increase of a list of values since the series' last point (zeros for a baseline). A value
   * from `monotonicFrom` on that went down is a reset; those before it (a histogram's sum, which
   * negative observations lower) may go down.
   */
  delta(key: string, start: bigint, values: number[], monotonicFrom = 0): number[] {
    const increase = this.increase(
      key,
      start,
      values,
      (current, previous) =>
        current.some((v, i) => i >= monotonicFrom && v < (previous[i] ?? 0)) ? null : current.map((v, i) => v - (previous[i] ?? 0)),
      values.length,
    );
    return increase ?? values.map(() => 0);
  }
}

/** One side of an exponential histogram: bucket `offset + k` holds `counts[k]` observations. */
interface ExponentialSide {
  offset: number;
  counts: number[];
}

/**
 * An exponential histogram's point (OTLP's ExponentialHistogramDataPoint). With base =
 * 2^(2^-scale), positive bucket i holds (base^i, base^(i+1)], negative bucket i holds
 * [-base^(i+1), -base^i), and the zero bucket [-zeroThreshold, zeroThreshold].
 */
export interface ExponentialPoint {
  sum: number;
  scale: number;
  zeroCount: number;
  zeroThreshold: number;
  positive: ExponentialSide;
  negative: ExponentialSide;
}

/** The same buckets `by` scales lower: bucket i merges into bucket floor(i / 2^by), exactly. */
function downscale(side: ExponentialSide, by: number): ExponentialSide {
  if (by === 0 || side.counts.length === 0) return side;
  const factor = 2 ** by;
  const offset = Math.floor(side.offset / factor);
  const counts: number[] = [];
  side.counts.forEach((count, k) => {
    const i = Math.floor((side.offset + k) / factor) - offset;
    counts[i] = (counts[i] ?? 0) + count;
  });
  return { offset, counts };
}

/** `current` minus `previous`, bucket by bucket at one scale; null when a bucket went down (a reset). */
function subtractSide(current: ExponentialSide, previous: ExponentialSide): ExponentialSide | null {
  const counts = current.counts.slice();
  for (let k = 0; k < previous.counts.length; k++) {
    const count = previous.counts[k]!;
    if (count === 0) continue;
    const i = previous.offset + k - current.offset;
    if (i < 0 || i >= counts.length || counts[i]! < count) return null;
    counts[i] = counts[i]! - count;
  }
  return { offset: current.offset, counts };
}

/**
 * The increase between two cumulative points of an exponential histogram, at the lower of their
 * scales (an SDK lowers a histogram's scale as its range grows); null for a reset.
 */
export function subtractExponential(current: ExponentialPoint, previous: ExponentialPoint): ExponentialPoint | null {
  const scale = Math.min(current.scale, previous.scale);
  const side = (name: 'positive' | 'negative') =>
    subtractSide(downscale(current[name], current.scale - scale), downscale(previous[name], previous.scale - scale));
  const positive = side('positive');
  const negative = side('negative');
  const zeroCount = current.zeroCount - previous.zeroCount;
  if (positive === null || negative === null || zeroCount < 0) return null;
  return { sum: current.sum - previous.sum, scale, zeroCount, zeroThreshold: current.zeroThreshold, positive, negative };
}

/**
 * An exponential histogram in the explicit-bucket shape Warden stores (docs/telemetry.md, "OTLP
 * in"): one bucket per non-empty exponential bucket, from the most negative up, each bounded above
 * where the exponential one ends (negative bucket i: -base^i; the zero bucket: zeroThreshold;
 * positive bucket i: base^(i+1)), and the explicit shape's overflow bucket, empty. Percentiles
 * count each observation at its bucket's upper bound, so leaving empty buckets out changes none.
 */
export function explicitBuckets(point: ExponentialPoint): { bounds: number[]; counts: number[] } {
  const bounds: number[] = [];
  const counts: number[] = [];
  const power = (index: number) => Math.min(Number.MAX_VALUE, 2 ** (index * 2 ** -point.scale));
  const add = (bound: number, count: number) => {
    if (!(count > 0)) return;
    // Bounds that round to one double (far below 1 at a high scale) share a bucket.
    if (bounds.length > 0 && !(bound > bounds[bounds.length - 1]!)) counts[counts.length - 1]! += count;
    else {
      bounds.push(bound);
      counts.push(count);
    }
  };
  const { negative, positive } = point;
  for (let k = negative.counts.length - 1; k >= 0; k--) add(-power(negative.offset + k), negative.counts[k]!);
  add(point.zeroThreshold, point.zeroCount);
  positive.counts.forEach((count, k) => add(power(positive.offset + k + 1), count));
  counts.push(0);
  return { bounds, counts };
}

const DELTA = 1;
/** DataPointFlags.FLAG_NO_RECORDED_VALUE: the point marks a series as having no value (a staleness marker); nothing to store. */
const NO_RECORDED_VALUE = 1;
const METRIC_KINDS = ['gauge', 'sum', 'histogram', 'exponentialHistogram', 'summary'] as const;
/** Why data points were not stored, as partialSuccess reports it. */
const REJECTED = {
  unnamed: 'metrics without a name',
  unknown: 'metrics of a kind Warden does not read (it reads gauge, sum, histogram, exponentialHistogram and summary)',
  notFinite: 'values that are not a finite number (or counts below zero)',
  scale: 'exponential histograms with a scale outside -10..20',
} as const;

const finite = (...values: number[]) => values.every((v) => Number.isFinite(v));
const counts = (values: unknown): number[] => asArray(values).map(num);
const validCounts = (values: readonly number[]) => values.every((v) => Number.isFinite(v) && v >= 0);

/** A point's labels: the resource's `service_name` and the point's attributes, sorted by name (one text per series). */
function seriesLabels(service: string, list: unknown): Record<string, string> {
  const labels: Record<string, string> = { service_name: service };
  for (const [key, value] of Object.entries(attributes(list))) labels[key] = String(value);
  return Object.fromEntries(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

function exponentialOf(dp: Json): ExponentialPoint {
  const side = (s: Json | undefined): ExponentialSide => ({ offset: num(s?.offset), counts: counts(s?.bucketCounts) });
  return {
    sum: num(dp.sum),
    scale: num(dp.scale),
    zeroCount: num(dp.zeroCount),
    zeroThreshold: num(dp.zeroThreshold),
    positive: side(dp.positive as Json | undefined),
    negative: side(dp.negative as Json | undefined),
  };
}
const validExponential = (p: ExponentialPoint) =>
  finite(p.sum, p.zeroThreshold) && p.zeroThreshold >= 0 && validCounts([p.zeroCount, ...p.positive.counts, ...p.negative.counts]) &&
  Number.isInteger(p.positive.offset) && Number.isInteger(p.negative.offset);

export interface MetricsOf {
  points: MetricPoint[];
  /** Data points not stored (a metric of an unknown kind counts one). */
  rejected: number;
  /** Why, for partialSuccess. */
  reasons: string[];
}

/**
 * Metric points of an ExportMetricsServiceRequest (docs/telemetry.md, "OTLP in"): gauges and
 * cumulative up-down counters as gauges (their value), monotonic sums and delta sums as
 * increases, histograms and exponential histograms as buckets (exponential ones converted to
 * explicit bounds), summaries as their count, sum and quantiles. Cumulative points become
 * increases against the series' previous point (`state`).
 */
export function pointsOf(request: Json, teamId: string, state: CumulativeState): MetricsOf {
  const points: MetricPoint[] = [];
  const reasons = new Set<string>();
  let rejected = 0;
  const reject = (reason: string, count: number) => {
    if (count === 0) return;
    rejected += count;
    reasons.add(reason);
  };
  for (const rm of asArray(request.resourceMetrics)) {
    const service = serviceOf(attributes(rm.resource?.attributes));
    for (const sm of asArray(rm.scopeMetrics)) {
      for (const metric of asArray(sm.metrics)) {
        const name = clean(String(metric.name ?? ''));
        const kind = METRIC_KINDS.find((k) => metric[k] !== undefined && metric[k] !== null);
        const data = kind === undefined ? undefined : (metric[kind] as Json);
        if (kind === undefined || data === undefined) {
          reject(name === '' ? REJECTED.unnamed : REJECTED.unknown, 1);
          continue;
        }
        const dataPoints = asArray(data.dataPoints);
        if (name === '') {
          reject(REJECTED.unnamed, dataPoints.length);
          continue;
        }
        const temporality = enumOf(data.aggregationTemporality, ['unspecified', 'delta', 'cumulative'], 'AGGREGATION_TEMPORALITY_');
        for (const dp of dataPoints) {
          if ((num(dp.flags) & NO_RECORDED_VALUE) !== 0) continue;
          const labels = seriesLabels(service, dp.attributes);
          const at = { teamId, name, labels, atMs: Number(nanos(dp.timeUnixNano) / 1_000_000n) || Date.now() };
          const key = `${teamId}\u0000${kind}\u0000${name}\u0000${JSON.stringify(labels)}`;
          const start = nanos(dp.startTimeUnixNano);
          if (kind === 'gauge' || kind === 'sum') {
            const value = dp.asDouble !== undefined ? num(dp.asDouble) : num(dp.asInt);
            if (!finite(value)) reject(REJECTED.notFinite, 1);
            // A gauge, and a cumulative sum that is not monotonic (an up-down counter's current value), are values.
            else if (kind === 'gauge' || (temporality !== DELTA && data.isMonotonic !== true)) points.push({ ...at, kind: 'gauge', value, count: 1 });
            else {
              const [increase] = temporality === DELTA ? [value] : state.delta(key, start, [value]);
              if (increase) points.push({ ...at, kind: 'sum', value: increase, count: 1 });
            }
          } else if (kind === 'histogram') {
            const bucketCounts = counts(dp.bucketCounts);
            const bounds = counts(dp.explicitBounds);
            const sum = num(dp.sum);
            if (!finite(sum, ...bounds) || !validCounts(bucketCounts)) {
              reject(REJECTED.notFinite, 1);
              continue;
            }
            const [sumDelta, ...countDeltas] = temporality === DELTA ? [sum, ...bucketCounts] : state.delta(key, start, [sum, ...bucketCounts], 1);
            const total = countDeltas.reduce((a, b) => a + b, 0);
            if (total > 0) points.push({ ...at, kind: 'histogram', value: sumDelta ?? 0, count: total, histogram: { bounds, counts: countDeltas } });
          } else if (kind === 'exponentialHistogram') {
            const point = exponentialOf(dp);
            if (!Number.isInteger(point.scale) || point.scale < -10 || point.scale > 20) reject(REJECTED.scale, 1);
            else if (!validExponential(point)) reject(REJECTED.notFinite, 1);
            else {
              const weight = 4 + point.positive.counts.length + point.negative.counts.length;
              const increase = temporality === DELTA ? point : state.increase(key, start, point, subtractExponential, weight);
              if (increase === null) continue;
              const histogram = explicitBuckets(increase);
              const total = histogram.counts.reduce((a, b) => a + b, 0);
              if (total > 0) points.push({ ...at, kind: 'histogram', value: increase.sum, count: total, histogram });
            }
          } else {
            // A summary's count and sum are cumulative (metrics.proto); its quantiles describe the points' own time.
            const count = num(dp.count);
            const sum = num(dp.sum);
            const quantiles = asArray(dp.quantileValues)
              .map((q) => [num(q.quantile), num(q.value)] as const)
              .filter(([q, v]) => finite(q, v) && q >= 0 && q <= 1);
            if (!finite(sum) || !validCounts([count])) {
              reject(REJECTED.notFinite, 1);
              continue;
            }
            const [sumDelta, countDelta] = state.delta(key, start, [sum, count], 1);
            if (countDelta! > 0 || quantiles.length > 0) {
              points.push({ ...at, kind: 'summary', value: sumDelta!, count: countDelta!, quantiles: { quantiles: quantiles.map(([q]) => q),
                values: quantiles.map(([, v]) => v) } });
            }
          }
        }
      }
    }
  }
  return { points, rejected, reasons: [...reasons] };
}

/** Everything an OTLP request carries, as one batch of Warden's records, and what was not taken (with the reason). */
export function batchOf(
  signal: Signal,
  request: Json,
  teamId: string,
  state: CumulativeState,
  nowNs: bigint,
): { batch: TelemetryBatch; rejected: number; reason: string } {
  if (signal === 'traces') {
    const { spans, rejected } = spansOf(request, teamId);
    return { batch: { points: [], spans, logs: [] }, rejected, reason: rejected === 0 ? '' : 'spans without a valid trace or span id' };
  }
  if (signal === 'logs') return { batch: { points: [], spans: [], logs: logsOf(request, teamId, nowNs) }, rejected: 0, reason: '' };
  const { points, rejected, reasons } = pointsOf(request, teamId, state);
  return { batch: { points, spans: [], logs: [] }, rejected, reason: reasons.length === 0 ? '' : `not stored: ${reasons.join('; ')}` };
}

function varint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return bytes;
}

/** An Export{Trace,Metrics,Logs}ServiceResponse in OTLP/JSON: `{}` when everything was taken, otherwise its partialSuccess. */
export function exportResponseJson(signal: Signal, rejected: number, message: string) {
  if (rejected === 0) return {};
  const field = signal === 'traces' ? 'rejectedSpans' : signal === 'metrics' ? 'rejectedDataPoints' : 'rejectedLogRecords';
  return { partialSuccess: { [field]: rejected, errorMessage: message } };
}

/**
 * The same in protobuf: empty (zero bytes) when everything was taken,
 * otherwise its partial_success (field 1), whose rejected count (field 1, int64) and
 * error_message (field 2) have the same numbers for the three signals.
 */
export function exportResponse(rejected: number, message: string): Buffer {
  if (rejected === 0) return Buffer.alloc(0);
  const text = Buffer.from(message, 'utf8');
  const inner = Buffer.concat([Buffer.from([0x08, ...varint(rejected), 0x12, ...varint(text.length)]), text]);
  return Buffer.concat([Buffer.from([0x0a, ...varint(inner.length)]), inner]);
}
