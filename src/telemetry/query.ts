import { sql, type Kysely } from 'kysely';
import { Type } from 'typebox';
import type { Dialect } from '../db/database.js';
import { decodeJsonColumn } from '../db/json-columns.js';
import type { DB } from '../db/schema.js';
import { logMatcher, parseLogQuery, QueryLanguageError } from './logql.js';
import { parseTraceQuery, type TraceCondition } from './traceql.js';

/** Filters of the metric operations: each one a label the point must carry with that value. */
export interface PointFilters {
  agent_configuration_id?: string | undefined;
  evaluation_id?: string | undefined;
  campaign_id?: string | undefined;
  /** Labels without a column of their own (test_id, probe_id): matched in the JSON. */
  other?: Readonly<Record<string, string>> | undefined;
}

export interface Window {
  fromMs: number;
  toMs: number;
}

/** The reference's `time_range` values. */
export const TIME_RANGES = { '15m': 900, '30m': 1800, '1h': 3600, '2h': 7200, '6h': 21_600, '1d': 86_400, '7d': 604_800, '30d': 2_592_000 } as const;
export type TimeRange = keyof typeof TIME_RANGES;

/** `1m`, `30s`, `2h`, `1d` → milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const match = /^(\d+)(s|m|h|d)$/.exec(text.trim());
  if (match === null || Number(match[1]) === 0) return null;
  return Number(match[1]) * { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 's' | 'm' | 'h' | 'd'];
}

function pointQuery(db: Kysely<DB>, teamId: string, name: string, window: Window, filters: PointFilters) {
  let query = db
    .selectFrom('telemetry_points')
    .where('team_id', '=', teamId)
    .where('name', '=', name)
    .where('at_ms', '>=', window.fromMs)
    .where('at_ms', '<=', window.toMs);
  if (filters.agent_configuration_id !== undefined) query = query.where('agent_configuration_id', '=', filters.agent_configuration_id);
  if (filters.evaluation_id !== undefined) query = query.where('evaluation_id', '=', filters.evaluation_id);
  if (filters.campaign_id !== undefined) query = query.where('campaign_id', '=', filters.campaign_id);
  return query;
}

/** Stored labels and attributes: what Warden writes (strings) and what OTLP carries (numbers, booleans). */
const Attributes = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]));
const Samples = Type.Array(Type.Number());
const Buckets = Type.Object({ bounds: Type.Array(Type.Number()), counts: Type.Array(Type.Number()) });
const SummaryQuantiles = Type.Object({ quantiles: Type.Array(Type.Number()), values: Type.Array(Type.Number()) });

/** Labels as the filters and matchers compare them: every value as text. */
function labelsOf(text: string, column: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const [key, value] of Object.entries(decodeJsonColumn(Attributes, text, column))) labels[key] = String(value);
  return labels;
}

const labelsMatch = (labels: string, other: PointFilters['other']) => {
  if (other === undefined || Object.keys(other).length === 0) return true;
  const parsed = labelsOf(labels, 'telemetry_points.labels');
  return Object.entries(other).every(([key, value]) => parsed[key] === value);
};
const hasOther = (filters: PointFilters) => filters.other !== undefined && Object.keys(filters.other).length > 0;

/** Kinds of point that hold observations: their count and sum answer `X_count` and `X_sum` (distributionPart). */
const DISTRIBUTIONS = ['samples', 'histogram', 'summary'] as const;

/**
 * A counter name that reads a distribution's part, as Prometheus names them: `X_count` (how many
 * observations histogram or summary X took) and `X_sum` (their sum); null for other names.
 */
function distributionPart(name: string): { base: string; column: 'count' | 'value' } | null {
  const match = /^(.+)_(count|sum)$/.exec(name);
  return match === null ? null : { base: match[1]!, column: match[2] === 'count' ? 'count' : 'value' };
}

/** The sum of one column of the points of `kinds` in the window. */
async function columnTotal(
  db: Kysely<DB>,
  teamId: string,
  name: string,
  kinds: readonly DB['telemetry_points']['kind'][],
  column: 'count' | 'value',
  window: Window,
  filters: PointFilters,
): Promise<number> {
  const query = pointQuery(db, teamId, name, window, filters).where('kind', 'in', kinds);
  if (hasOther(filters)) {
    const rows = await query.select(['value', 'count', 'labels']).execute();
    return rows.filter((r) => labelsMatch(r.labels, filters.other)).reduce((sum, r) => sum + Number(r[column]), 0);
  }
  const row = await query.select((eb) => eb.fn.sum<number | string | null>(column).as('total')).executeTakeFirst();
  return Number(row?.total ?? 0);
}

/** Each gauge series' latest value in the window (a series: one set of labels). */
async function latestGauges(db: Kysely<DB>, teamId: string, name: string, window: Window, filters: PointFilters) {
  const ranked = pointQuery(db, teamId, name, window, filters)
    .where('kind', '=', 'gauge')
    .select(['value', 'labels', sql<number>`row_number() over (partition by labels order by at_ms desc)`.as('newest')]);
  const rows = await db.selectFrom(ranked.as('ranked')).select(['value', 'labels']).where('newest', '=', 1).execute();
  return rows.filter((r) => labelsMatch(r.labels, filters.other)).map((r) => Number(r.value));
}

/**
 * A counter's total in the window: the sum of its increases, plus each gauge series' latest
 * value (a gauge's total is its current value, summed over its series), plus, for `X_count` and
 * `X_sum`, the observations of the histogram or summary X.
 */
export async function counterTotal(db: Kysely<DB>, teamId: string, name: string, window: Window, filters: PointFilters): Promise<number> {
  let total = await columnTotal(db, teamId, name, ['sum'], 'value', window, filters);
  for (const value of await latestGauges(db, teamId, name, window, filters)) total += value;
  const part = distributionPart(name);
  if (part !== null) total += await columnTotal(db, teamId, part.base, DISTRIBUTIONS, part.column, window, filters);
  return total;
}

export interface Series {
  agentConfigurationId: string | null;
  /** One point per step, oldest first: the step's end (epoch seconds) and the sum in it. */
  points: Array<{ timestamp: number; value: number }>;
}

/** Per gauge series (by labels), its latest value in each step (undefined: none in that step). */
type GaugeSteps = Map<string, Array<number | undefined>>;

/** Per step, the sum of the gauge series' values held from each series' first point on; null before any. */
function heldGauges(series: GaugeSteps | undefined, steps: number): Array<number | null> {
  const out = new Array<number | null>(steps).fill(null);
  for (const values of series?.values() ?? []) {
    let held: number | undefined;
    for (let i = 0; i < steps; i++) {
      held = values[i] ?? held;
      if (held !== undefined) out[i] = (out[i] ?? 0) + held;
    }
  }
  return out;
}

/**
 * A counter's increases summed per step, one series per agent configuration (steps without data
 * are 0); a gauge's value per step instead, held from its first point in the window on (steps
 * before it are left out), summed over its series; `X_count` and `X_sum` as in counterTotal.
 */
export async function counterSeries(db: Kysely<DB>, teamId: string, name: string, window: Window, stepMs: number, filters: PointFilters): Promise<Series[]> {
  const rows = await pointQuery(db, teamId, name, window, filters).where('kind', 'in', ['sum', 'gauge']).select(['at_ms', 'kind', 'value', 'labels',
    'agent_configuration_id']).orderBy('at_ms').execute();
  const part = distributionPart(name);
  const parts = part === null ? [] : await pointQuery(db, teamId, part.base, window, filters).where('kind', 'in', DISTRIBUTIONS).select(['at_ms',
    'value', 'count', 'labels', 'agent_configuration_id']).execute();
  const steps = Math.max(1, Math.ceil((window.toMs - window.fromMs) / stepMs));
  const stepOf = (atMs: number | string) => Math.min(steps - 1, Math.floor((Number(atMs) - window.fromMs) / stepMs));
  const sums = new Map<string | null, number[]>();
  const gauges = new Map<string | null, GaugeSteps>();
  const add = (agent: string | null, atMs: number | string, value: number) => {
    const values = sums.get(agent) ?? new Array<number>(steps).fill(0);
    sums.set(agent, values);
    values[stepOf(atMs)]! += value;
  };
  for (const row of rows) {
    if (!labelsMatch(row.labels, filters.other)) continue;
    if (row.kind !== 'gauge') {
      add(row.agent_configuration_id, row.at_ms, Number(row.value));
      continue;
    }
    const series = gauges.get(row.agent_configuration_id) ?? new Map<string, Array<number | undefined>>();
    gauges.set(row.agent_configuration_id, series);
    const values = series.get(row.labels) ?? [];
    series.set(row.labels, values);
    values[stepOf(row.at_ms)] = Number(row.value);
  }
  for (const row of parts) if (labelsMatch(row.labels, filters.other)) add(row.agent_configuration_id, row.at_ms, Number(row[part!.column]));
  const agents = new Set([...sums.keys(), ...gauges.keys()]);
  return [...agents].map((agentConfigurationId) => {
    const added = sums.get(agentConfigurationId);
    const held = heldGauges(gauges.get(agentConfigurationId), steps);
    const points: Series['points'] = [];
    for (let i = 0; i < steps; i++) {
      if (added === undefined && held[i] === null) continue;
      points.push({ timestamp: Math.floor((window.fromMs + (i + 1) * stepMs) / 1000), value: (added?.[i] ?? 0) + (held[i] ?? 0) });
    }
    return { agentConfigurationId, points };
  });
}

/**
 * The weighted value at quantile `q` (0..1) of `points` sorted by value: the smallest value whose
 * cumulative weight reaches q of the total (the nearest-rank method).
 */
export function quantile(points: ReadonlyArray<readonly [number, number]>, q: number): number {
  const total = points.reduce((sum, [, weight]) => sum + weight, 0);
  if (total === 0) return 0;
  const rank = Math.max(q * total, Number.MIN_VALUE);
  let seen = 0;
  for (const [value, weight] of points) {
    seen += weight;
    if (seen >= rank) return value;
  }
  return points[points.length - 1]![0];
}

/**
 * A histogram's buckets as weighted values: each bucket's observations count at its upper
 * bound (the overflow bucket at the last bound), as Prometheus' histogram_quantile would at the
 * bucket's end.
 */
function bucketPoints(histogram: { bounds: number[]; counts: number[] }): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  histogram.counts.forEach((count, i) => {
    if (count <= 0) return;
    const bound = histogram.bounds[i] ?? histogram.bounds[histogram.bounds.length - 1] ?? 0;
    out.push([bound, count]);
  });
  return out;
}

export interface LatencySeries {
  percentile: number;
  values: Array<{ timestamp: number; value: number }>;
}

interface Quantiles {
  quantiles: number[];
  values: number[];
}

/**
 * A quantile that summaries reported (their own, not computed: a summary's quantiles cannot be
 * merged or interpolated faithfully): the highest of the series' latest values; null when no
 * series reported that quantile.
 */
function summaryQuantile(summaries: ReadonlyMap<string, Quantiles>, q: number): number | null {
  let highest: number | null = null;
  for (const summary of summaries.values()) {
    const i = summary.quantiles.findIndex((reported) => Math.abs(reported - q) < 1e-9);
    if (i >= 0 && (highest === null || summary.values[i]! > highest)) highest = summary.values[i]!;
  }
  return highest;
}

/**
 * Latency percentiles per time window: raw observations exactly, histograms (explicit or
 * exponential) at their buckets' upper bounds, and, in a window without either, the quantiles
 * summaries reported. Windows without a value are left out.
 */
export async function latencyPercentiles(
  db: Kysely<DB>,
  teamId: string,
  name: string,
  window: Window,
  stepMs: number,
  percentiles: readonly number[],
  filters: PointFilters,
): Promise<LatencySeries[]> {
  const rows = await pointQuery(db, teamId, name, window, filters).where('kind', 'in', DISTRIBUTIONS).select(['at_ms', 'kind', 'data',
    'labels']).orderBy('at_ms').execute();
  const steps = new Map<number, { points: Array<[number, number]>; summaries: Map<string, Quantiles> }>();
  for (const row of rows) {
    if (row.data === null || !labelsMatch(row.labels, filters.other)) continue;
    const index = Math.floor((Number(row.at_ms) - window.fromMs) / stepMs);
    const step = steps.get(index) ?? { points: [] as Array<[number, number]>, summaries: new Map<string, Quantiles>() };
    steps.set(index, step);
    if (row.kind === 'samples') for (const value of decodeJsonColumn(Samples, row.data, 'telemetry_points.data')) step.points.push([value, 1]);
    else if (row.kind === 'histogram') step.points.push(...bucketPoints(decodeJsonColumn(Buckets, row.data, 'telemetry_points.data')));
    // Rows come oldest first: a series' latest summary stays.
    else step.summaries.set(row.labels, decodeJsonColumn(SummaryQuantiles, row.data, 'telemetry_points.data'));
  }
  const ordered = [...steps.entries()].sort(([a], [b]) => a - b);
  for (const [, step] of ordered) step.points.sort(([a], [b]) => a - b);
  return percentiles.map((percentile) => ({
    percentile,
    values: ordered.flatMap(([index, step]) => {
      const value = step.points.length > 0 ? quantile(step.points, percentile) : summaryQuantile(step.summaries, percentile);
      return value === null ? [] : [{ timestamp: Math.floor((window.fromMs + (index + 1) * stepMs) / 1000), value }];
    }),
  }));
}

export interface LogStream {
  labels: Record<string, string>;
  entries: Array<{ timestamp: number; line: string }>;
}

/** Rows read per round while filtering logs in order; a query reads at most MAX_LOG_ROWS_SCANNED. */
const LOG_PAGE = 2000;
const MAX_LOG_ROWS_SCANNED = 200_000;

/**
 * Log lines of the window matching a LogQL query (src/telemetry/logql.ts), newest first
 * (`backward`) or oldest first, at most `limit`, grouped into streams by their labels.
 * `next` is the timestamp to continue from when the limit cut the answer.
 */
export async function queryLogs(
  db: Kysely<DB>,
  teamId: string,
  logql: string,
  window: { fromNs: bigint; toNs: bigint },
  limit: number,
  direction: 'forward' | 'backward',
): Promise<{ streams: LogStream[]; next: number | null }> {
  const matcher = logMatcher(parseLogQuery(logql));
  const streams = new Map<string, LogStream>();
  let found = 0;
  let scanned = 0;
  let last: bigint | null = null;
  let cursor = null as { ns: string; skip: number } | null;
  let next: number | null = null;
  while (found < limit && scanned < MAX_LOG_ROWS_SCANNED) {
    let query = db
      .selectFrom('telemetry_logs')
      .select(['time_ns', 'body', 'labels'])
      .where('team_id', '=', teamId)
      .where('time_ns', '>=', String(window.fromNs))
      .where('time_ns', '<=', String(window.toNs));
    if (cursor !== null) query = query.where('time_ns', direction === 'backward' ? '<=' : '>=', cursor.ns);
    const order = direction === 'backward' ? 'desc' : 'asc';
    const rows: Array<{ time_ns: number | string; body: string; labels: string }> = await query.orderBy('time_ns',
      order).limit(LOG_PAGE).offset(cursor?.skip ?? 0).execute();
    for (const row of rows) {
      scanned++;
      const labels = labelsOf(row.labels, 'telemetry_logs.labels');
      if (!matcher.labels(labels) || !matcher.line(row.body)) continue;
      if (found === limit) {
        next = Number(row.time_ns);
        break;
      }
      const key = row.labels;
      const stream = streams.get(key) ?? { labels, entries: [] };
      streams.set(key, stream);
      stream.entries.push({ timestamp: Number(row.time_ns), line: row.body });
      found++;
    }
    if (rows.length < LOG_PAGE || next !== null) break;
    // The next page starts at the last row's time, skipping the rows of that time already read.
    const lastNs: bigint = BigInt(rows[rows.length - 1]!.time_ns);
    const sameTime: number = rows.filter((r) => BigInt(r.time_ns) === lastNs).length;
    cursor = { ns: String(lastNs), skip: last === lastNs ? (cursor?.skip ?? 0) + sameTime : sameTime };
    last = lastNs;
  }
  return { streams: [...streams.values()], next };
}

export interface TraceSummary {
  traceId: string;
  rootServiceName: string | null;
  rootTraceName: string | null;
  startNs: number;
  durationMs: number;
}

export interface TraceSearch {
  window: { fromNs: bigint; toNs: bigint };
  limit: number;
  serviceName?: string | undefined;
  agentConfigurationId?: string | undefined;
  minDurationMs?: number | undefined;
  maxDurationMs?: number | undefined;
  traceql?: string | undefined;
}

/** A span attribute in the stored JSON, compared on each engine's own JSON functions. */
function attributeCondition(dialect: Dialect, condition: Extract<TraceCondition, { field: 'attribute' }>) {
  const path = `$.${JSON.stringify(condition.key)}`;
  const op = sql.raw(condition.op === '=' ? '=' : '<>');
  if (dialect === 'sqlite') {
    const value = typeof condition.value === 'boolean' ? (condition.value ? 1 : 0) : condition.value;
    return sql<boolean>`json_extract(attributes, ${path}) ${op} ${value}`;
  }
  return sql<boolean>`(attributes::jsonb -> ${condition.key}) ${op} ${JSON.stringify(condition.value)}::jsonb`;
}

const STATUS = new Set(['ok', 'error', 'unset']);

/** Traces of the window with a span meeting the TraceQL conditions and the filters, newest first. */
export async function searchTraces(db: Kysely<DB>, dialect: Dialect, teamId: string, search: TraceSearch): Promise<TraceSummary[]> {
  const conditions = search.traceql === undefined || search.traceql.trim() === '' ? [] : parseTraceQuery(search.traceql);
  for (const c of conditions) {
    if (c.field === 'status' && !STATUS.has(c.value)) throw new QueryLanguageError(`status is ok, error or unset; got ${JSON.stringify(c.value)}`);
  }
  let matching = db
    .selectFrom('telemetry_spans')
    .select('trace_id')
    .where('team_id', '=', teamId)
    .where('start_ns', '>=', String(search.window.fromNs))
    .where('start_ns', '<=', String(search.window.toNs));
  if (search.agentConfigurationId !== undefined) matching = matching.where('agent_configuration_id', '=', search.agentConfigurationId);
  for (const c of conditions) {
    if (c.field === 'attribute') matching = matching.where(attributeCondition(dialect, c));
    else if (c.field === 'duration') matching = matching.where('duration_ns', c.op === '!=' ? '<>' : c.op, String(c.ns));
    else {
      const column = c.field === 'service' ? 'service_name' : c.field;
      matching = matching.where(column, c.op === '=' ? '=' : '<>', c.value);
    }
  }
  let traces = db
    .selectFrom('telemetry_spans')
    .select((eb) => ['trace_id', eb.fn.min<number | string>('start_ns').as('start_ns'), eb.fn.max<number | string>('end_ns').as('end_ns')])
    .where('team_id', '=', teamId)
    .where('trace_id', 'in', matching)
    .groupBy('trace_id');
  if (search.minDurationMs !== undefined) traces = traces.having(sql`max(end_ns) - min(start_ns)`, '>=', String(BigInt(search.minDurationMs) * 1_000_000n));
  if (search.maxDurationMs !== undefined) traces = traces.having(sql`max(end_ns) - min(start_ns)`, '<=', String(BigInt(search.maxDurationMs) * 1_000_000n));
  if (search.serviceName !== undefined) {
    traces = traces.where('trace_id', 'in', (eb) =>
      eb.selectFrom('telemetry_spans').select('trace_id').where('team_id', '=', teamId).where('parent_span_id', 'is', null).where('service_name', '=',
        search.serviceName!),
    );
  }
  const rows = await traces.orderBy(sql`min(start_ns)`, 'desc').limit(search.limit).execute();
  if (rows.length === 0) return [];
  const roots = await db
    .selectFrom('telemetry_spans')
    .select(['trace_id', 'name', 'service_name', 'start_ns'])
    .where('team_id', '=', teamId)
    .where(
      'trace_id',
      'in',
      rows.map((r) => r.trace_id),
    )
    .where('parent_span_id', 'is', null)
    .orderBy('start_ns', 'asc')
    .execute();
  const rootOf = new Map<string, { name: string; service_name: string }>();
  for (const root of roots) if (!rootOf.has(root.trace_id)) rootOf.set(root.trace_id, root);
  return rows.map((row) => {
    const root = rootOf.get(row.trace_id);
    const [start, end] = [BigInt(row.start_ns), BigInt(row.end_ns)];
    return {
      traceId: row.trace_id,
      rootServiceName: root?.service_name ?? null,
      rootTraceName: root?.name ?? null,
      startNs: Number(start),
      durationMs: Number(end - start) / 1e6,
    };
  });
}

export interface StoredSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: string;
  startNs: string;
  endNs: string;
  status: string;
  statusMessage: string | null;
  serviceName: string;
  attributes: Record<string, string | number | boolean>;
}

/** Every span of one trace of the team, oldest first; empty when the team has none of it. */
export async function traceSpans(db: Kysely<DB>, teamId: string, traceId: string): Promise<StoredSpan[]> {
  const rows = await db.selectFrom('telemetry_spans').selectAll().where('team_id', '=', teamId).where('trace_id', '=', traceId).orderBy('start_ns',
    'asc').limit(10_000).execute();
  return rows.map((r) => ({
    traceId: r.trace_id,
    spanId: r.span_id,
    parentSpanId: r.parent_span_id,
    name: r.name,
    kind: r.kind,
    startNs: BigInt(r.start_ns).toString(),
    endNs: BigInt(r.end_ns).toString(),
    status: r.status,
    statusMessage: r.status_message,
    serviceName: r.service_name,
    attributes: decodeJsonColumn(Attributes, r.attributes, 'telemetry_spans.attributes'),
  }));
}
