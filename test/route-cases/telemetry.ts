import { randomBytes } from 'node:crypto';
import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the telemetry operations and the OTLP receiver
 * (test/helpers/route-table.ts). Team A's member owns the trace `prepare` sends.
 */
const A = (ctx: Ctx) => ctx.world.teamA;

const spans = (traceId: string) => ({
  resourceSpans: [
    {
      resource: { attributes: [{ key: 'service.name', value: { stringValue: 'matrix' } }] },
      scopeSpans: [{ spans: [{ traceId, spanId: randomBytes(8).toString('hex'), name: 'chat gpt-4o', startTimeUnixNano: `${Date.now()}000000`,
        endTimeUnixNano: `${Date.now() + 5}000000` }] }],
    },
  ],
});

async function trace(ctx: Ctx): Promise<string> {
  const traceId = randomBytes(16).toString('hex');
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/otlp/v1/traces?team_id=${A(ctx).id}`,
    headers: { authorization: `Bearer ${A(ctx).member.token}` },
    payload: spans(traceId),
  });
  if (res.statusCode !== 200) throw new Error(`OTLP traces → ${res.statusCode}: ${res.body}`);
  return traceId;
}

const read = (url: string, path: string = url): RouteCase => ({
  method: 'GET',
  url,
  needs: 'telemetry:read',
  expect: { member: 200 },
  prepare: async (ctx) => ({ url: `${path}?team_id=${A(ctx).id}` }),
});

const otlp = (signal: string, body: unknown): RouteCase => ({
  method: 'POST',
  url: `/v1/otlp/v1/${signal}`,
  needs: 'telemetry:write',
  expect: { member: 200 },
  prepare: async (ctx) => ({ url: `/v1/otlp/v1/${signal}?team_id=${A(ctx).id}`, body }),
});

export const TELEMETRY_ROUTE_CASES: RouteCase[] = [
  read('/v1/telemetry/counters/:metric_name/total', '/v1/telemetry/counters/gateway_requests_total/total'),
  read('/v1/telemetry/counters/:metric_name/time_series', '/v1/telemetry/counters/gateway_requests_total/time_series'),
  read('/v1/telemetry/latency/:metric_name', '/v1/telemetry/latency/gateway_request_duration_seconds'),
  read('/v1/telemetry/logs'),
  read('/v1/telemetry/traces'),
  {
    method: 'GET',
    url: '/v1/telemetry/traces/:trace_id',
    needs: 'telemetry:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/telemetry/traces/${await trace(ctx)}?team_id=${A(ctx).id}` }),
  },
  otlp('traces', spans(randomBytes(16).toString('hex'))),
  otlp('metrics', { resourceMetrics: [] }),
  otlp('logs', { resourceLogs: [] }),
];
