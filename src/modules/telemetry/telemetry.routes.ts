import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { exportResponse, exportResponseJson, type Signal } from '../../telemetry/otlp.js';
import {
  CounterSeriesQuery,
  CounterTotalQuery,
  CounterTotalResponse,
  LatencyQuery,
  LatencyResponse,
  LogsQuery,
  LogsQueryResponse,
  MetricNameParams,
  MetricQueryResponse,
  OtlpExportResponse,
  TeamScopeQuery,
  TraceDetailResponse,
  TraceIdParams,
  TraceSearchQuery,
  TraceSearchResponse,
} from './telemetry.schemas.js';
import type { TelemetryService } from './telemetry.service.js';

const tags = ['Dome', 'Telemetry'];
/** Largest OTLP body as sent (gzip or not); decompressed, 64 MiB at most (telemetry.service.ts). */
const OTLP_BODY_LIMIT = 16 * 1024 * 1024;
const PROTOBUF_TYPES = ['application/x-protobuf', 'application/protobuf'];

export const telemetryRoutes: FastifyPluginAsyncTypebox<{ telemetry: TelemetryService }> = async (app, { telemetry }) => {
  app.get(
    '/v1/telemetry/counters/:metric_name/total',
    {
      schema: {
        tags,
        summary: "A counter's total over the time range (docs/telemetry.md)",
        params: MetricNameParams,
        querystring: CounterTotalQuery,
        response: responses({ 200: CounterTotalResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.counterTotal(request.principal, request.params.metric_name, request.query),
  );

  app.get(
    '/v1/telemetry/counters/:metric_name/time_series',
    {
      schema: {
        tags,
        summary: "A counter's increases per step (60 steps over the time range), one series per agent configuration",
        params: MetricNameParams,
        querystring: CounterSeriesQuery,
        response: responses({ 200: MetricQueryResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.counterSeries(request.principal, request.params.metric_name, request.query),
  );

  app.get(
    '/v1/telemetry/latency/:metric_name',
    {
      schema: {
        tags,
        summary: "A latency histogram's percentiles per time window, in the metric's unit (seconds)",
        params: MetricNameParams,
        querystring: LatencyQuery,
        response: responses({ 200: LatencyResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.latency(request.principal, request.params.metric_name, request.query),
  );

  app.get(
    '/v1/telemetry/logs',
    {
      schema: {
        tags,
        summary: 'Log lines as Loki-shaped streams; a LogQL subset (docs/telemetry.md, "LogQL")',
        querystring: LogsQuery,
        response: responses({ 200: LogsQueryResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.logs(request.principal, request.query),
  );

  app.get(
    '/v1/telemetry/traces',
    {
      schema: {
        tags,
        summary: 'Trace search, newest first; a TraceQL subset (docs/telemetry.md, "TraceQL")',
        querystring: TraceSearchQuery,
        response: responses({ 200: TraceSearchResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.searchTraces(request.principal, request.query),
  );

  app.get(
    '/v1/telemetry/traces/:trace_id',
    {
      schema: {
        tags,
        summary: 'One trace as OTLP batches (one per service)',
        params: TraceIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: TraceDetailResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => telemetry.trace(request.principal, request.params.trace_id, request.query.team_id),
  );

  // The OTLP/HTTP receiver: bodies are read as bytes here (protobuf or JSON, maybe gzip) and decoded by the service.
  await app.register(async (otlp) => {
    otlp.removeAllContentTypeParsers();
    otlp.addContentTypeParser([...PROTOBUF_TYPES, 'application/json'], { parseAs: 'buffer', bodyLimit: OTLP_BODY_LIMIT }, (_request, body,
      done) => done(null, body));
    for (const signal of ['traces', 'metrics', 'logs'] as const satisfies readonly Signal[]) {
      otlp.post(
        `/v1/otlp/v1/${signal}`,
        {
          bodyLimit: OTLP_BODY_LIMIT,
          schema: {
            tags: ['Telemetry'],
            summary: `OTLP/HTTP ${signal} receiver (protobuf or JSON, gzip): stored for the key's team (permission telemetry:write)`,
            querystring: TeamScopeQuery,
            response: responses({ 200: OtlpExportResponse }, 400, 401, 403, 404, [413, 'The body is larger than 16 MiB'], 415, 422),
          },
        },
        async (request, reply) => {
          const contentType = String(request.headers['content-type'] ?? '');
          const encoding = request.headers['content-encoding'];
          const { rejected, reason } = await telemetry.ingest(request.principal, signal, request.body as Buffer, contentType, encoding,
            (request.query as { team_id?: string }).team_id);
          if (contentType.includes('json')) return exportResponseJson(signal, rejected, reason);
          // Protobuf in, protobuf out.
          return reply.type('application/x-protobuf').send(exportResponse(rejected, reason));
        },
      );
    }
  });
};
