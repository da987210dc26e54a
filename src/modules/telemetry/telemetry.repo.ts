/**
 * Telemetry's storage is the engine's (src/telemetry/store.ts and query.ts: the tables of
 * migration 0013, the one batch writer, the queries); this module reaches it through here.
 */
export { writeTelemetry } from '../../telemetry/store.js';
export { counterSeries, counterTotal, latencyPercentiles, queryLogs, searchTraces, traceSpans } from '../../telemetry/query.js';
