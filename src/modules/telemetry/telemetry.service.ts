import { gunzipSync } from 'node:zlib';
import type { Deps } from '../../deps.js';
import { AppError, invalid, notFound } from '../../http/errors.js';
import { buildLogQuery, QueryLanguageError } from '../../telemetry/logql.js';
import { batchOf, CumulativeState, decodeProtobuf, OtlpError, type Signal } from '../../telemetry/otlp.js';
import { parseDuration, TIME_RANGES, type PointFilters, type StoredSpan, type TimeRange, type Window } from '../../telemetry/query.js';
import { authorize, requireAnywhere, resolveTeam, type Principal } from '../auth/permissions.js';
import * as repo from './telemetry.repo.js';
import type { CounterSeriesQuery, CounterTotalQuery, LatencyQuery, LogsQuery, MetricLabels, TraceSearchQuery } from './telemetry.schemas.js';

const DEFAULT_PERCENTILES = [0.5, 0.9, 0.95, 0.99];
/** Points of a counter's time series over any time range. */
const SERIES_STEPS = 60;
const MAX_LATENCY_WINDOWS = 10_000;
/** Largest OTLP body once decompressed. */
const MAX_OTLP_BYTES = 64 * 1024 * 1024;

const given = (value: string | null | undefined) => (value === null || value === undefined || value === '' ? undefined : value);

function percentileList(text: string | null | undefined): number[] {
  if (given(text) === undefined) return DEFAULT_PERCENTILES;
  const values = text!.split(',').map((part) => Number(part.trim()));
  if (values.length > 20 || values.some((v) => !Number.isFinite(v) || v <= 0 || v > 100)) {
    throw invalid(['query', 'percentiles'], 'percentiles are a comma-separated list of numbers in (0, 1] (or percents in (1, 100])');
  }
  return values.map((v) => (v > 1 ? v / 100 : v));
}
const percentileName = (p: number) => `P${Number((p * 100).toFixed(4))}`;

/** A span as Tempo's OTLP/JSON batches carry it. */
function otlpSpan(span: StoredSpan) {
  const value = (v: string | number | boolean) =>
    typeof v === 'string' ? { stringValue: v } : typeof v === 'boolean' ? { boolValue: v } : Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  return {
    traceId: span.traceId,
    spanId: span.spanId,
    ...(span.parentSpanId === null ? {} : { parentSpanId: span.parentSpanId }),
    name: span.name,
    kind: `SPAN_KIND_${span.kind.toUpperCase()}`,
    startTimeUnixNano: span.startNs,
    endTimeUnixNano: span.endNs,
    attributes: Object.entries(span.attributes).map(([key, v]) => ({ key, value: value(v) })),
    status: { code: `STATUS_CODE_${span.status.toUpperCase()}`, ...(span.statusMessage === null ? {} : { message: span.statusMessage }) },
  };
}

export function createTelemetryService(deps: Pick<Deps, 'db' | 'dialect' | 'now'>) {
  // Exporters stamp their series' start with their real clocks: compared with this process's real start.
  const cumulative = new CumulativeState(BigInt(Date.now()) * 1_000_000n);

  /** The team a read acts on, after the permission check (another team's data answers 404). */
  const readTeam = (principal: Principal, teamId: string | undefined) => {
    requireAnywhere(principal, 'telemetry:read');
    const team = resolveTeam(principal, teamId);
    authorize(principal, 'telemetry:read', team, 'Team');
    return team;
  };
  const windowOf = (range: TimeRange | undefined, fallback: TimeRange): Window => {
    const toMs = (deps.now() + 1) * 1000;
    return { fromMs: toMs - TIME_RANGES[range ?? fallback] * 1000, toMs };
  };
  type LabelQuery = { agent_configuration_id?: string | null; evaluation_id?: string | null; test_id?: string | null; probe_id?: string | null };
  const filtersOf = (q: LabelQuery): PointFilters => {
    const other: Record<string, string> = {};
    if (given(q.test_id)) other.test_id = q.test_id!;
    if (given(q.probe_id)) other.probe_id = q.probe_id!;
    return { agent_configuration_id: given(q.agent_configuration_id), evaluation_id: given(q.evaluation_id), other };
  };
  const labelsOf = (team: string, q: { agent_configuration_id?: string | null; evaluation_id?: string | null }): MetricLabels => ({
    team_id: team,
    agent_id: given(q.agent_configuration_id) ?? null,
    evaluation_id: given(q.evaluation_id) ?? null,
  });
  const queryLanguage = <T>(loc: string[], run: () => Promise<T>): Promise<T> =>
    run().catch((error: unknown) => {
      if (error instanceof QueryLanguageError) throw invalid(loc, `${error.message} (Warden answers a subset: docs/telemetry.md)`, 'value_error');
      throw error;
    });

  return {
    async counterTotal(principal: Principal, metric: string, q: CounterTotalQuery) {
      const team = readTeam(principal, q.team_id);
      const total = await repo.counterTotal(deps.db, team, metric, windowOf(q.time_range, '1d'), filtersOf(q));
      return { metric, total_count: total, labels: labelsOf(team, q) };
    },

    async counterSeries(principal: Principal, metric: string, q: CounterSeriesQuery) {
      const team = readTeam(principal, q.team_id);
      const window = windowOf(q.time_range, '1d');
      const step = Math.ceil((window.toMs - window.fromMs) / SERIES_STEPS);
      const series = await repo.counterSeries(deps.db, team, metric, window, step, filtersOf(q));
      return {
        metric,
        series: series.map((s) => ({ labels: { ...labelsOf(team, q), agent_id: s.agentConfigurationId }, points: s.points })),
        labels: labelsOf(team, q),
      };
    },

    async latency(principal: Principal, metric: string, q: LatencyQuery) {
      const team = readTeam(principal, q.team_id);
      const timeWindow = q.time_window ?? '1m';
      const step = parseDuration(timeWindow);
      if (step === null) throw invalid(['query', 'time_window'], 'time_window is a whole number with a unit s, m, h or d, such as 1m or 15m');
      const window = windowOf(q.time_range, '1h');
      if ((window.toMs - window.fromMs) / step > MAX_LATENCY_WINDOWS) {
        throw invalid(['query', 'time_window'], `time_window is too small for the time range: at most ${MAX_LATENCY_WINDOWS} windows`);
      }
      const percentiles = percentileList(q.percentiles);
      const series = await repo.latencyPercentiles(deps.db, team, metric, window, step, percentiles, filtersOf(q));
      return series.map((s) => ({ metric_name: metric, time_window: timeWindow, percentile: percentileName(s.percentile), values: s.values }));
    },

    async logs(principal: Principal, q: LogsQuery) {
      const team = readTeam(principal, q.team_id);
      const window = windowOf(q.time_range, '1h');
      const query =
        given(q.logql) ??
        buildLogQuery(
          {
            service_name: given(q.service_name),
            level: given(q.level),
            job: given(q.job),
            exporter: given(q.exporter),
            agent_configuration_id: given(q.agent_configuration_id),
            evaluation_id: given(q.evaluation_id),
            test_id: given(q.test_id),
            probe_id: given(q.probe_id),
          },
          given(q.search),
        );
      const direction = q.direction ?? 'backward';
      const [fromNs, toNs] = [BigInt(window.fromMs) * 1_000_000n, BigInt(window.toMs) * 1_000_000n];
      const { streams, next } = await queryLanguage(['query', 'logql'], () => repo.queryLogs(deps.db, team, query, { fromNs, toNs }, q.limit ?? 200,
        direction));
      return { query, direction, start_ns: Number(fromNs), end_ns: Number(toNs), streams, next_timestamp: next };
    },

    async searchTraces(principal: Principal, q: TraceSearchQuery) {
      const team = readTeam(principal, q.team_id);
      const window = windowOf(q.time_range, '1h');
      const traces = await queryLanguage(['query', 'query'], () =>
        repo.searchTraces(deps.db, deps.dialect, team, {
          window: { fromNs: BigInt(window.fromMs) * 1_000_000n, toNs: BigInt(window.toMs) * 1_000_000n },
          limit: q.limit ?? 20,
          serviceName: given(q.service_name),
          agentConfigurationId: given(q.agent_configuration_id),
          minDurationMs: q.min_duration_ms ?? undefined,
          maxDurationMs: q.max_duration_ms ?? undefined,
          traceql: given(q.query),
        }),
      );
      return {
        traces: traces.map((t) => ({
          trace_id: t.traceId,
          root_service_name: t.rootServiceName,
          root_trace_name: t.rootTraceName,
          start_time_unix_nano: t.startNs,
          duration_ms: t.durationMs,
        })),
        metrics: { inspectedTraces: traces.length, inspectedBytes: null, completedJobs: 1, totalJobs: 1 },
      };
    },

    /** One trace of the team as OTLP batches (one per service); another team's trace answers 404. */
    async trace(principal: Principal, traceId: string, teamId: string | undefined) {
      const team = readTeam(principal, teamId);
      const id = traceId.toLowerCase();
      if (!/^[0-9a-f]{32}$/.test(id)) throw notFound('Trace');
      const spans = await repo.traceSpans(deps.db, team, id);
      if (spans.length === 0) throw notFound('Trace');
      const byService = new Map<string, StoredSpan[]>();
      for (const span of spans) byService.set(span.serviceName, [...(byService.get(span.serviceName) ?? []), span]);
      const batches = [...byService.entries()].map(([service, list]) => ({
        resource: { attributes: [{ key: 'service.name', value: { stringValue: service } }] },
        scopeSpans: [{ scope: { name: 'warden' }, spans: list.map(otlpSpan) }],
      }));
      return { trace_id: id, trace_id_base64: Buffer.from(id, 'hex').toString('base64'), batches };
    },

    /**
     * An OTLP/HTTP export (protobuf or JSON, gzip or not) stored for the key's team, written
     * before the answer (the exporter retries on failure). Answers what was not taken and why,
     * which the route reports as OTLP's partialSuccess.
     */
    async ingest(principal: Principal, signal: Signal, body: Buffer, contentType: string, encoding: string | undefined, teamId: string | undefined) {
      requireAnywhere(principal, 'telemetry:write');
      const team = resolveTeam(principal, teamId);
      authorize(principal, 'telemetry:write', team, 'Team');
      let bytes = body;
      if (encoding !== undefined && encoding !== 'identity') {
        if (encoding !== 'gzip') throw new AppError('unsupported_media_type', `Content-Encoding ${encoding} is not supported: send gzip or none`);
        try {
          bytes = gunzipSync(body, { maxOutputLength: MAX_OTLP_BYTES });
        } catch {
          throw new AppError('bad_request', 'The body is not valid gzip, or is larger than 64 MiB once decompressed');
        }
      }
      let request: Record<string, unknown>;
      try {
        request = contentType.includes('json') ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>) : decodeProtobuf(signal, bytes);
      } catch (error) {
        if (error instanceof OtlpError) throw new AppError('bad_request', error.message);
        throw new AppError('bad_request', `The body is not valid OTLP/JSON for ${signal}`);
      }
      if (typeof request !== 'object' || request === null) throw new AppError('bad_request', `The body is not valid OTLP/JSON for ${signal}`);
      const { batch, rejected, reason } = batchOf(signal, request, team, cumulative, BigInt(deps.now()) * 1_000_000_000n);
      await repo.writeTelemetry(deps.db, deps.dialect, batch);
      return { rejected, reason };
    },
  };
}

export type TelemetryService = ReturnType<typeof createTelemetryService>;
