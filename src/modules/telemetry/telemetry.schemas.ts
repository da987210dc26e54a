import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../../http/schemas.js';

/**
 * The reference's six telemetry operations (tags Dome, Telemetry) and Warden's OTLP receiver
 * (docs/telemetry.md). Parameter names, defaults and bounds are the reference's.
 */

const TeamId = () => Type.Optional(Uuid({ description: "Team ID (the caller's primary team when omitted)" }));
const Filter = (description: string) => Type.Optional(Nullable(Type.String({ maxLength: 255, description })));
const TIME_RANGE_VALUES = ['15m', '30m', '1h', '2h', '6h', '1d', '7d', '30d'] as const;
const TimeRange = (def: string, description: string) =>
  Type.Optional(Type.Unsafe<(typeof TIME_RANGE_VALUES)[number]>({ type: 'string', enum: [...TIME_RANGE_VALUES], description, default: def }));
const Direction = Type.Unsafe<'forward' | 'backward'>({ type: 'string', enum: ['forward', 'backward'] });

export const MetricNameParams = Type.Object({ metric_name: Type.String({ maxLength: 255, title: 'Metric Name' }) });
export const TraceIdParams = Type.Object({ trace_id: Type.String({ maxLength: 64, title: 'Trace Id' }) });

const RANGE = 'Time range: 15m, 30m, 1h, 2h, 6h, 1d, 7d, 30d';

export const CounterTotalQuery = Type.Object({
  time_range: TimeRange('1d', RANGE),
  evaluation_id: Filter('Filter by evaluation ID'),
  test_id: Filter('Filter by test ID'),
  probe_id: Filter('Filter by probe ID'),
  agent_configuration_id: Filter('Filter by agent configuration ID'),
  team_id: TeamId(),
});
export type CounterTotalQuery = Static<typeof CounterTotalQuery>;

export const CounterSeriesQuery = Type.Object({
  time_range: TimeRange('1d', RANGE),
  evaluation_id: Filter('Filter by evaluation ID'),
  agent_configuration_id: Filter('Filter by agent configuration ID'),
  team_id: TeamId(),
});
export type CounterSeriesQuery = Static<typeof CounterSeriesQuery>;

export const LatencyQuery = Type.Object({
  time_range: TimeRange('1h', RANGE),
  time_window: Type.Optional(Type.String({ maxLength: 16, default: '1m', description: "Time window for aggregation (e.g., '1m', '5m', '15m')" })),
  percentiles: Filter("Comma-separated list of percentiles to query (e.g., '0.5,0.95'). If not specified, defaults to [0.5, 0.9, 0.95, 0.99]"),
  evaluation_id: Filter('Filter by evaluation ID'),
  test_id: Filter('Filter by test ID'),
  probe_id: Filter('Filter by probe ID'),
  agent_configuration_id: Filter('Filter by agent configuration ID'),
  team_id: TeamId(),
});
export type LatencyQuery = Static<typeof LatencyQuery>;

export const LogsQuery = Type.Object({
  time_range: TimeRange('1h', 'Window to pull logs for'),
  service_name: Filter('Filter by service_name label'),
  level: Filter('Filter by level label'),
  job: Filter('Filter by job label'),
  exporter: Filter('Filter by exporter label'),
  agent_configuration_id: Filter('Restrict to a specific agent configuration id'),
  evaluation_id: Filter('Restrict logs to an evaluation id'),
  test_id: Filter('Restrict logs to a test id'),
  probe_id: Filter('Restrict logs to a probe id'),
  search: Type.Optional(Nullable(Type.String({ maxLength: 1000, description: 'Substring search applied via LogQL pipeline' }))),
  logql: Type.Optional(Nullable(Type.String({ maxLength: 4000, description: 'Advanced LogQL expression (overrides generated selector when provided)' }))),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 5000, default: 200, description: 'Maximum log lines to return' })),
  direction: Type.Optional(Type.Unsafe<'forward' | 'backward'>({ type: 'string', enum: ['forward', 'backward'], default: 'backward',
    description: 'Return order for log entries' })),
  team_id: TeamId(),
});
export type LogsQuery = Static<typeof LogsQuery>;

export const TraceSearchQuery = Type.Object({
  time_range: TimeRange('1h', 'Window to search for traces'),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 20, description: 'Maximum number of traces to return' })),
  service_name: Filter('Filter by root service'),
  agent_configuration_id: Filter('Filter by agent id'),
  min_duration_ms: Type.Optional(Nullable(Type.Integer({ description: 'Lower bound on trace duration (ms)' }))),
  max_duration_ms: Type.Optional(Nullable(Type.Integer({ description: 'Upper bound on trace duration (ms)' }))),
  query: Type.Optional(Nullable(Type.String({ maxLength: 4000, description: 'Advanced TraceQL query' }))),
  team_id: TeamId(),
});
export type TraceSearchQuery = Static<typeof TraceSearchQuery>;

export const TeamScopeQuery = Type.Object({ team_id: TeamId() });

const Str = (description: string) => Type.Optional(Nullable(Type.String({ description })));
export const MetricLabels = Type.Object(
  {
    agent_id: Str('Agent ID (same as agent_configuration_id)'),
    deployment_environment: Str('Deployment environment (e.g., production, staging)'),
    exported_job: Str('Exported job identifier'),
    job: Str('Job name (e.g., otel-collector)'),
    service_name: Str('Service name (e.g., vijil.dome)'),
    service_namespace: Str('Service namespace'),
    service_version: Str('Service version'),
    team_id: Str('Team ID'),
    user_id: Str('User ID'),
    evaluation_id: Str('Evaluation ID filter'),
  },
  { title: 'MetricLabels' },
);
export type MetricLabels = Static<typeof MetricLabels>;

export const CounterTotalResponse = Type.Object(
  { metric: Type.String(), total_count: Type.Number(), labels: Type.Optional(MetricLabels) },
  { title: 'CounterTotalResponse' },
);
const DataPoint = Type.Object({ timestamp: Type.Integer(), value: Type.Number() }, { title: 'DataPoint' });
const TimeSeries = Type.Object({ labels: Type.Optional(MetricLabels), points: Type.Array(DataPoint) }, { title: 'TimeSeries' });
export const MetricQueryResponse = Type.Object(
  { metric: Type.String(), series: Type.Array(TimeSeries), labels: Type.Optional(MetricLabels) },
  { title: 'MetricQueryResponse' },
);
const TimeSeriesPoint = Type.Object({ timestamp: Type.Integer(), value: Type.Number() }, { title: 'TimeSeriesPoint' });
const LatencyOverTimeResponse = Type.Object(
  { metric_name: Type.String(), time_window: Type.String(), percentile: Type.String(), values: Type.Array(TimeSeriesPoint) },
  { title: 'LatencyOverTimeResponse' },
);
export const LatencyResponse = Type.Array(LatencyOverTimeResponse, { title: 'Response Get Latency Over Time V1 Telemetry Latency  Metric Name  Get' });

const LogEntryResponse = Type.Object({ timestamp: Type.Integer(), line: Type.String() }, { title: 'LogEntryResponse' });
const LogStreamResponse = Type.Object(
  { labels: Type.Record(Type.String(), Type.String()), entries: Type.Array(LogEntryResponse) },
  { title: 'LogStreamResponse' },
);
export const LogsQueryResponse = Type.Object(
  {
    query: Type.String(),
    direction: Direction,
    start_ns: Type.Integer(),
    end_ns: Type.Integer(),
    streams: Type.Array(LogStreamResponse),
    next_timestamp: Type.Optional(Nullable(Type.Integer())),
  },
  { title: 'LogsQueryResponse' },
);

const TraceSummaryResponse = Type.Object(
  {
    trace_id: Type.String(),
    root_service_name: Type.Optional(Nullable(Type.String())),
    root_trace_name: Type.Optional(Nullable(Type.String())),
    start_time_unix_nano: Type.Optional(Nullable(Type.Integer())),
    duration_ms: Type.Optional(Nullable(Type.Number())),
  },
  { title: 'TraceSummaryResponse' },
);
const TraceSearchMetricsResponse = Type.Object(
  {
    inspectedTraces: Type.Optional(Nullable(Type.Integer())),
    inspectedBytes: Type.Optional(Nullable(Type.String())),
    completedJobs: Type.Optional(Nullable(Type.Integer())),
    totalJobs: Type.Optional(Nullable(Type.Integer())),
  },
  { title: 'TraceSearchMetricsResponse' },
);
export const TraceSearchResponse = Type.Object(
  { traces: Type.Array(TraceSummaryResponse), metrics: Type.Optional(Nullable(TraceSearchMetricsResponse)) },
  { title: 'TraceSearchResponse' },
);
export const TraceDetailResponse = Type.Object(
  {
    trace_id: Type.String(),
    trace_id_base64: Type.String(),
    batches: Type.Array(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'TraceDetailResponse' },
);

/** OTLP's Export*ServiceResponse: empty when everything was taken; partialSuccess says what was not. */
export const OtlpExportResponse = Type.Object(
  {
    partialSuccess: Type.Optional(
      Type.Object({
        rejectedSpans: Type.Optional(Type.Integer()),
        rejectedDataPoints: Type.Optional(Type.Integer()),
        rejectedLogRecords: Type.Optional(Type.Integer()),
        errorMessage: Type.Optional(Type.String()),
      }),
    ),
  },
  { title: 'OtlpExportResponse' },
);
