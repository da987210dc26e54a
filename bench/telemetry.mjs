// `npm run bench` (telemetry part, issue 29): OTLP/HTTP ingest of spans on SQLite, and the
// recorder under a burst of records. Runs the built service (dist/) in this process on a fresh
// SQLite file, listens on loopback and sends pre-encoded protobuf batches from the SDK's
// serializer with BENCH_OTLP_SENDERS concurrent senders. Prints spans/s and the recorder's
// counts (recorded, written, dropped); nothing here asserts a timing (bench/README.md).
//
// Environment (all optional):
//   BENCH_OTLP_SPANS    spans sent in total (default 200,000)
//   BENCH_OTLP_BATCH    spans per request (default 1,000: the SDK's BatchSpanProcessor sends up to 512)
//   BENCH_OTLP_SENDERS  concurrent requests (default 4)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { ProtobufTraceSerializer } from '@opentelemetry/otlp-transformer';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { buildApp } from '../dist/app.js';
import { deriveKeys } from '../dist/crypto/keys.js';
import { openDatabase } from '../dist/db/database.js';
import { migrateToLatest } from '../dist/db/migrations/index.js';
import { TABLE_CACHING } from '../dist/modules/tables.js';
import { createRecorder } from '../dist/telemetry/recorder.js';
import { writeTelemetry } from '../dist/telemetry/store.js';
import { batchOf, CumulativeState, decodeProtobuf } from '../dist/telemetry/otlp.js';

const TOTAL = Number(process.env.BENCH_OTLP_SPANS ?? 200_000);
const BATCH = Number(process.env.BENCH_OTLP_BATCH ?? 1000);
const SENDERS = Number(process.env.BENCH_OTLP_SENDERS ?? 4);
const began = Date.now();
const log = (message) => console.log(`[${((Date.now() - began) / 1000).toFixed(0).padStart(4)} s] ${message}`);

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'warden-bench-telemetry-'));
const database = openDatabase({ dialect: 'sqlite', filename: path.join(dir, 'warden.db') }, { tables: TABLE_CACHING });
await migrateToLatest(database.db, database.dialect);
const recorder = createRecorder({ write: (batch) => writeTelemetry(database.db, database.dialect, batch) });
const app = await buildApp({
  database,
  keys: deriveKeys('bench-secret-key-that-is-long-enough-0123456789'),
  dataDir: dir,
  passwordHashCost: 10,
  tokenTtlSeconds: 3600,
  telemetry: recorder,
});
const admin = { email: 'bench@warden.local', password: 'bench-password' };
await app.services.identity.bootstrapAdmin(admin);
const token = (await app.inject({ method: 'POST', url: '/v1/auth/jwt/login', payload: admin })).json().access_token;
const key = (await app.inject({ method: 'POST', url: '/v1/api-keys/', headers: { authorization: `Bearer ${token}` }, payload: { name: 'bench',
  permissions: ['telemetry:write'] } })).json().key;
const address = await app.listen({ port: 0, host: '127.0.0.1' });

/** A span as the SDK's serializer reads it (sdk-trace-base's ReadableSpan). */
const resource = resourceFromAttributes({ 'service.name': 'bench-agent' });
function span(traceId, i, nowMs) {
  const start = [Math.floor(nowMs / 1000), (nowMs % 1000) * 1e6 + i];
  return {
    name: i === 0 ? 'invoke_agent bench' : `chat gpt-4o`,
    kind: i === 0 ? 1 : 2,
    spanContext: () => ({ traceId, spanId: randomBytes(8).toString('hex'), traceFlags: 1 }),
    parentSpanContext: undefined,
    startTime: start,
    endTime: [start[0], start[1] + 1_000_000],
    duration: [0, 1_000_000],
    status: { code: 1 },
    attributes: { 'gen_ai.operation.name': 'chat', 'gen_ai.request.model': 'gpt-4o', 'gen_ai.usage.input_tokens': 42, agent_configuration_id: 'bench' },
    links: [],
    events: [],
    ended: true,
    resource,
    instrumentationScope: { name: 'bench' },
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}
const requests = [];
const now = Date.now();
for (let sent = 0; sent < TOTAL; sent += BATCH) {
  const spans = [];
  for (let i = 0; i < BATCH; i++) spans.push(span(randomBytes(16).toString('hex'), i % 4, now));
  requests.push(ProtobufTraceSerializer.serializeRequest(spans));
}
log(`encoded ${requests.length} requests of ${BATCH} spans (${(requests[0].length / 1024).toFixed(0)} KiB each)`);

let next = 0;
let failures = 0;
const startedAt = performance.now();
await Promise.all(
  Array.from({ length: SENDERS }, async () => {
    while (next < requests.length) {
      const body = requests[next++];
      const res = await fetch(`${address}/v1/otlp/v1/traces`, { method: 'POST', headers: { authorization: `Bearer ${key}`,
        'content-type': 'application/x-protobuf' }, body });
      if (res.status !== 200) failures++;
      await res.arrayBuffer();
    }
  }),
);
const seconds = (performance.now() - startedAt) / 1000;
const stored = Number((await database.db.selectFrom('telemetry_spans').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
const rate = Math.round(stored / seconds);
log(`OTLP ingest on SQLite: ${stored} spans stored in ${seconds.toFixed(2)} s = ${rate} spans/s (target ≥ 20,000), ${failures} failed requests`);

// The same batches without HTTP: decoding and the batch writer alone (what a faster transport could reach).
const direct = performance.now();
const state = new CumulativeState(0n);
for (const body of requests.slice(0, Math.min(requests.length, 50))) {
  const { batch } = batchOf('traces', decodeProtobuf('traces', body), 'bench-team', state, 0n);
  await writeTelemetry(database.db, database.dialect, batch);
}
const directSpans = Math.min(requests.length, 50) * BATCH;
const directRate = Math.round(directSpans / ((performance.now() - direct) / 1000));
log(`decode + write without HTTP: ${directRate} spans/s (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores)`);

// The recorder at 1,000 gateway calls a second (count + observe + span per call), then the count of what was lost.
const CALLS_PER_SECOND = 1000;
const SECONDS = 5;
let burstMs = 0;
for (let second = 0; second < SECONDS; second++) {
  for (let tick = 0; tick < 10; tick++) {
    const tickStart = performance.now();
    for (let i = 0; i < CALLS_PER_SECOND / 10; i++) {
      const labels = { agent_configuration_id: `agent-${i % 10}` };
      recorder.count('gateway_requests_total', labels, 'bench-team');
      recorder.observe('gateway_request_duration_seconds', 0.001 * (i % 50), labels, 'bench-team');
      recorder.span({ traceId: randomBytes(16).toString('hex'), spanId: randomBytes(8).toString('hex'), name: 'chat gpt-4o',
        startNs: BigInt(now) * 1_000_000n, endNs: BigInt(now) * 1_000_000n + 1000n, status: 'ok', serviceName: 'warden', attributes: labels,
          teamId: 'bench-team' });
    }
    burstMs += performance.now() - tickStart;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
const CALLS = CALLS_PER_SECOND * SECONDS;
await recorder.close();
const stats = recorder.stats();
const perCall = ((burstMs * 1000) / CALLS).toFixed(2);
log(`recorder: ${stats.recorded} records in ${burstMs.toFixed(0)} ms of recording calls (${perCall} µs per gateway call)`);
log(`recorder: written ${stats.written}, dropped ${stats.dropped}, failed ${stats.failed}`);

await app.close();
await database.close();
fs.rmSync(dir, { recursive: true, force: true });
