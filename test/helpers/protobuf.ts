/**
 * A small protobuf writer for tests, for the OTLP messages the OpenTelemetry SDK does not
 * serialize (summaries, invalid points): a message is a list of fields by number, as
 * opentelemetry-proto numbers them. Written apart from Warden's reader (src/telemetry/otlp.ts)
 * so that a test encodes what the wire format says, not what the reader expects.
 */
export type ProtoField =
  | [field: number, type: 'varint', value: number]
  | [field: number, type: 'sint32', value: number]
  | [field: number, type: 'fixed64', value: bigint | number]
  | [field: number, type: 'double', value: number]
  | [field: number, type: 'string', value: string]
  | [field: number, type: 'message', value: ProtoField[]];

function varint(value: number): Buffer {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 0x80) | 0x80);
    rest = Math.floor(rest / 0x80);
  }
  bytes.push(rest);
  return Buffer.from(bytes);
}

const tag = (field: number, wireType: number) => varint(field * 8 + wireType);

export function protoMessage(fields: readonly ProtoField[]): Buffer {
  const parts: Buffer[] = [];
  for (const [field, type, value] of fields) {
    if (type === 'varint') parts.push(tag(field, 0), varint(value));
    else if (type === 'sint32') parts.push(tag(field, 0), varint(value >= 0 ? value * 2 : -value * 2 - 1));
    else if (type === 'fixed64') {
      const bytes = Buffer.alloc(8);
      bytes.writeBigUInt64LE(BigInt(value));
      parts.push(tag(field, 1), bytes);
    } else if (type === 'double') {
      const bytes = Buffer.alloc(8);
      bytes.writeDoubleLE(value);
      parts.push(tag(field, 1), bytes);
    } else {
      const bytes = type === 'string' ? Buffer.from(value, 'utf8') : protoMessage(value);
      parts.push(tag(field, 2), varint(bytes.length), bytes);
    }
  }
  return Buffer.concat(parts);
}

/** A KeyValue with a string value (common.proto: key 1, value 2 → AnyValue.string_value 1). */
export const protoStringAttribute = (field: number, key: string, value: string): ProtoField => [field, 'message', [
  [1, 'string', key],
  [2, 'message', [[1, 'string', value]]],
]];

/** An ExportMetricsServiceRequest of one resource (with `service.name`) and one scope holding `metrics` (Metric messages). */
export const protoMetricsRequest = (service: string, metrics: ProtoField[][]): Buffer =>
  protoMessage([
    [1, 'message', [
      [1, 'message', [protoStringAttribute(1, 'service.name', service)]],
      [2, 'message', metrics.map((metric): ProtoField => [2, 'message', metric])],
    ]],
  ]);
