import { sql, type Kysely } from 'kysely';
import type { Dialect } from '../db/database.js';
import type { DB } from '../db/schema.js';
import { executeBatch, type BatchStep } from '../db/statement-batch.js';
import { tableCaching } from '../db/table-caching.js';
import type { AttributeValue, LogEntry, SpanRecord, TelemetryLabels } from './types.js';

/** Telemetry's tables (migration 0013); data for the caches (docs/caching.md). */
export const TELEMETRY_TABLES = tableCaching({ telemetry_points: 'data', telemetry_spans: 'data', telemetry_logs: 'data' });

/**
 * One metric point as stored: a counter's increase (`sum`), a gauge's value (`gauge`), raw
 * observations (`samples`), a histogram's buckets (`histogram`, OTLP's exponential ones
 * converted to explicit bounds) or a summary's count, sum and quantiles (`summary`).
 */
export interface MetricPoint {
  teamId: string;
  name: string;
  atMs: number;
  labels: TelemetryLabels;
  kind: 'sum' | 'gauge' | 'samples' | 'histogram' | 'summary';
  /** sum: the increase; gauge: the value; samples / histogram / summary: the sum of the observations. */
  value: number;
  /** Number of observations (1 for a sum and a gauge). */
  count: number;
  samples?: readonly number[] | undefined;
  histogram?: { bounds: readonly number[]; counts: readonly number[] } | undefined;
  /** A summary's quantiles (0..1) and their values, in the same order. */
  quantiles?: { quantiles: readonly number[]; values: readonly number[] } | undefined;
}

/** What one write stores: everything in one transaction. */
export interface TelemetryBatch {
  points: MetricPoint[];
  spans: SpanRecord[];
  logs: LogEntry[];
}

/** The labels the query operations filter on; the rest stay in the JSON. */
const AGENT_KEYS = ['agent_configuration_id', 'agent_id', 'agent.id', 'gen_ai.agent.id'] as const;
export const agentOf = (labels: Readonly<Record<string, AttributeValue>>): string | null => {
  for (const key of AGENT_KEYS) if (labels[key] !== undefined) return String(labels[key]);
  return null;
};
const SERVICE_KEYS = ['service_name', 'service.name'] as const;
const serviceOf = (labels: Readonly<Record<string, AttributeValue>>): string | null => {
  for (const key of SERVICE_KEYS) if (labels[key] !== undefined) return String(labels[key]);
  return null;
};
const cut = (text: string, max: number) => (text.length > max ? text.slice(0, max) : text);
const opt = (value: string | undefined) => (value === undefined ? null : cut(value, 255));

/** Rows per statement: each statement binds one JSON text, so this bounds its size (about 0.5 MB for spans). */
const ROWS_PER_INSERT = 2000;

type ColumnTypes = Readonly<Record<string, 'text' | 'bigint' | 'double precision' | 'integer'>>;
const POINT_COLUMNS: ColumnTypes = {
  team_id: 'text', name: 'text', kind: 'text', at_ms: 'bigint', value: 'double precision', count: 'bigint', data: 'text', labels: 'text',
  service_name: 'text', agent_configuration_id: 'text', evaluation_id: 'text', campaign_id: 'text',
};
const SPAN_COLUMNS: ColumnTypes = {
  team_id: 'text', trace_id: 'text', span_id: 'text', parent_span_id: 'text', name: 'text', kind: 'text', start_ns: 'bigint', end_ns: 'bigint',
  duration_ns: 'bigint', status: 'text', status_message: 'text', service_name: 'text', attributes: 'text', agent_configuration_id: 'text',
};
const LOG_COLUMNS: ColumnTypes = { team_id: 'text', time_ns: 'bigint', severity: 'text', body: 'text', labels: 'text', trace_id: 'text', span_id: 'text' };

/**
 * Many rows in one statement that binds a single JSON array of row objects, unpacked by the
 * engine (SQLite's json_each, PostgreSQL's jsonb_to_recordset): one value to bind and to hand to
 * SQLite's writer thread instead of one per cell, which measured several times faster for OTLP
 * batches (docs/telemetry.md, "Speed"). Nanosecond times travel as decimal strings, exact.
 * The statements are compiled here and run by writeTelemetry as one batch.
 */
function bulkInserts(db: Kysely<DB>, dialect: Dialect, table: keyof DB, columns: ColumnTypes, rows: ReadonlyArray<Record<string, unknown>>): BatchStep[] {
  const names = Object.keys(columns);
  const list = sql.raw(names.join(', '));
  const steps: BatchStep[] = [];
  for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
    const json = JSON.stringify(rows.slice(i, i + ROWS_PER_INSERT));
    const select =
      dialect === 'sqlite'
        ? sql`select ${sql.raw(names.map((n) => `json_extract(value, '$.${n}')`).join(', '))} from json_each(${json})`
        : sql`select ${list} from jsonb_to_recordset(${json}::jsonb) as x(${sql.raw(names.map((n) => `${n} ${columns[n]}`).join(', '))})`;
    // An INSERT of Kysely's (not raw SQL): the caches see which table it wrote (src/db/table-caching.ts).
    steps.push({
      query: db
        .insertInto(table)
        .columns(names as never)
        .expression(select)
        .compile(),
    });
  }
  return steps;
}

/**
 * The one batch writer of telemetry (the recorder's flushes and OTLP ingest both come here):
 * a batch's bulk inserts are one statement batch (src/db/statement-batch.ts), all or nothing.
 * On SQLite, outside a transaction, the batch goes to the writer thread asynchronously with the
 * other writes of the event loop's turn: the event loop never waits while the writer inserts a
 * slice (docs/decisions.md, "Telemetry batches as one asynchronous statement batch"); on
 * PostgreSQL it is one transaction.
 */
export async function writeTelemetry(db: Kysely<DB>, dialect: Dialect, batch: TelemetryBatch): Promise<void> {
  if (batch.points.length + batch.spans.length + batch.logs.length === 0) return;
  const points = batch.points.map((p) => ({
    team_id: p.teamId,
    name: cut(p.name, 255),
    kind: p.kind,
    at_ms: Math.floor(p.atMs),
    value: Number.isFinite(p.value) ? p.value : 0,
    count: p.count,
    data: p.samples ? JSON.stringify(p.samples) : p.histogram ? JSON.stringify(p.histogram) : p.quantiles ? JSON.stringify(p.quantiles) : null,
    labels: JSON.stringify(p.labels),
    service_name: serviceOf(p.labels),
    agent_configuration_id: agentOf(p.labels),
    evaluation_id: opt(p.labels.evaluation_id),
    campaign_id: opt(p.labels.campaign_id),
  }));
  const spans = batch.spans.map((s) => ({
    team_id: s.teamId,
    trace_id: s.traceId,
    span_id: s.spanId,
    parent_span_id: s.parentSpanId ?? null,
    name: cut(s.name, 1000),
    kind: s.kind ?? 'internal',
    start_ns: String(s.startNs),
    end_ns: String(s.endNs),
    duration_ns: String(s.endNs > s.startNs ? s.endNs - s.startNs : 0n),
    status: s.status,
    status_message: s.statusMessage === undefined ? null : cut(s.statusMessage, 2000),
    service_name: cut(s.serviceName, 255),
    attributes: JSON.stringify(s.attributes),
    agent_configuration_id: agentOf(s.attributes),
  }));
  const logs = batch.logs.map((l) => ({
    team_id: l.teamId,
    time_ns: String(l.timeNs),
    severity: l.severity,
    body: l.body,
    labels: JSON.stringify(streamLabels(l)),
    trace_id: l.traceId ?? null,
    span_id: l.spanId ?? null,
  }));
  await executeBatch(db, [
    ...bulkInserts(db, dialect, 'telemetry_points', POINT_COLUMNS, points),
    ...bulkInserts(db, dialect, 'telemetry_spans', SPAN_COLUMNS, spans),
    ...bulkInserts(db, dialect, 'telemetry_logs', LOG_COLUMNS, logs),
  ]);
}

/**
 * A log line's stream labels (Loki-shaped): its own labels plus `level` (and `service_name`,
 * OpenTelemetry's `unknown_service` when absent), sorted by name.
 */
export function streamLabels(entry: LogEntry): Record<string, string> {
  const all: Record<string, string> = { service_name: 'unknown_service', ...entry.labels, level: entry.labels.level ?? entry.severity };
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Deletes what is older than the retention (WARDEN_TELEMETRY_RETENTION_DAYS); answers the rows removed. */
export async function pruneTelemetry(db: Kysely<DB>, nowMs: number, retentionDays: number): Promise<number> {
  const cutoffMs = Math.floor(nowMs - retentionDays * 86_400_000);
  const cutoffNs = `${cutoffMs}000000`;
  const points = await db.deleteFrom('telemetry_points').where('at_ms', '<', cutoffMs).executeTakeFirst();
  const spans = await db.deleteFrom('telemetry_spans').where('start_ns', '<', cutoffNs).executeTakeFirst();
  const logs = await db.deleteFrom('telemetry_logs').where('time_ns', '<', cutoffNs).executeTakeFirst();
  return Number(points.numDeletedRows) + Number(spans.numDeletedRows) + Number(logs.numDeletedRows);
}
