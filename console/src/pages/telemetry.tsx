import { useState } from 'preact/hooks';
import { get } from '../api';
import { Card, ErrorBox, Field, LineChart, Loading, Page, fmtDate, fmtNumber, useLoad, valueOf } from '../ui';

const RANGES = ['15m', '30m', '1h', '2h', '6h', '1d', '7d', '30d'];
const COUNTERS = [
  'gateway_requests_total',
  'gateway_blocked_total',
  'dome_input_requests_total',
  'dome_input_flagged_total',
  'dome_output_requests_total',
  'dome_output_flagged_total',
];
const LATENCIES = ['gateway_request_duration_seconds', 'dome_input_latency_seconds', 'dome_output_latency_seconds'];

interface Span {
  id: string;
  parent: string | null;
  name: string;
  service: string;
  start: number;
  end: number;
}

/** The spans of an OTLP trace (Tempo's `batches`), with start and end in milliseconds. */
export function spansOf(batches: any[]): Span[] {
  const spans: Span[] = [];
  for (const batch of batches ?? []) {
    const service = (batch.resource?.attributes ?? []).find((a: any) => a.key === 'service.name')?.value?.stringValue ?? '';
    for (const scope of [...(batch.scopeSpans ?? []), ...(batch.instrumentationLibrarySpans ?? [])]) {
      for (const span of scope.spans ?? []) {
        spans.push({
          id: span.spanId,
          parent: span.parentSpanId || null,
          name: span.name,
          service,
          start: Number(span.startTimeUnixNano) / 1e6,
          end: Number(span.endTimeUnixNano) / 1e6,
        });
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

function Waterfall({ traceId }: { traceId: string }) {
  const trace = useLoad(() => get(`/v1/telemetry/traces/${traceId}`), [traceId]);
  if (trace.loading) return <Loading what="Loading the trace" />;
  if (trace.error) return <ErrorBox error={trace.error} />;
  const spans = spansOf(trace.data?.batches ?? []);
  if (spans.length === 0) return <p class="muted">The trace has no span.</p>;
  const start = Math.min(...spans.map((s) => s.start));
  const total = Math.max(1e-6, Math.max(...spans.map((s) => s.end)) - start);
  const depth = (span: Span): number => {
    let d = 0;
    let parent = span.parent;
    while (parent && d < 20) {
      const p = spans.find((s) => s.id === parent);
      if (!p) break;
      parent = p.parent;
      d++;
    }
    return d;
  };
  return (
    <ol class="waterfall" aria-label={`Trace ${traceId}: ${spans.length} spans over ${fmtNumber(total)} ms`}>
      {spans.map((span) => {
        const left = ((span.start - start) / total) * 100;
        const width = Math.max(0.5, ((span.end - span.start) / total) * 100);
        return (
          <li key={span.id}>
            <span class="span-name" style={{ paddingLeft: `${depth(span) * 12}px` }}>
              {span.name} <span class="muted small">{span.service}</span>
            </span>
            <span class="span-track">
              <span class="span-bar" style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }} />
            </span>
            <span class="span-time">{fmtNumber(span.end - span.start)} ms</span>
          </li>
        );
      })}
    </ol>
  );
}

function Counters({ range }: { range: string }) {
  const [metric, setMetric] = useState(COUNTERS[0] as string);
  const total = useLoad(() => get(`/v1/telemetry/counters/${metric}/total`, { time_range: range }), [metric, range]);
  const series = useLoad(() => get(`/v1/telemetry/counters/${metric}/time_series`, { time_range: range }), [metric, range]);
  return (
    <>
      <Field label="Counter">
        {(id) => (
          <select id={id} value={metric} onChange={(e) => setMetric(valueOf(e))}>
            {COUNTERS.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={total.error ?? series.error} />
      {total.data ? <p class="metric">{fmtNumber(total.data.total_count)}</p> : null}
      {series.data ? (
        <LineChart
          title={`${metric} over ${range}`}
          series={(series.data.series ?? []).map((s: any, i: number) => ({
            name: s.labels?.agent_configuration_id ?? `series ${i + 1}`,
            points: (s.points ?? []).map((p: any) => ({ t: p.timestamp, v: p.value })),
          }))}
        />
      ) : null}
    </>
  );
}

function Latency({ range }: { range: string }) {
  const [metric, setMetric] = useState(LATENCIES[0] as string);
  const data = useLoad(() => get(`/v1/telemetry/latency/${metric}`, { time_range: range, percentiles: '0.5,0.95,0.99' }), [metric, range]);
  return (
    <>
      <Field label="Latency">
        {(id) => (
          <select id={id} value={metric} onChange={(e) => setMetric(valueOf(e))}>
            {LATENCIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={data.error} />
      {data.data ? (
        <LineChart
          title={`${metric} percentiles`}
          unit=" s"
          series={(data.data as any[]).map((s) => ({ name: s.percentile, points: (s.values ?? []).map((p: any) => ({ t: p.timestamp, v: p.value })) }))}
        />
      ) : null}
    </>
  );
}

function Logs({ range }: { range: string }) {
  const [search, setSearch] = useState('');
  const [level, setLevel] = useState('');
  const [submitted, setSubmitted] = useState({ search: '', level: '' });
  const logs = useLoad(
    () => get('/v1/telemetry/logs', { time_range: range, search: submitted.search || undefined, level: submitted.level || undefined, limit: 100 }),
    [range, submitted],
  );
  const entries = ((logs.data?.streams ?? []) as any[]).flatMap((s) => (s.entries ?? []).map((e: any) => ({ ...e, labels: s.labels }))).slice(0, 100);
  return (
    <>
      <form class="filters" role="search" onSubmit={(e) => (e.preventDefault(), setSubmitted({ search, level }))}>
        <Field label="Search logs">{(id) => <input id={id} type="search" value={search} onInput={(e) => setSearch(valueOf(e))} />}</Field>
        <Field label="Level">
          {(id) => (
            <select id={id} value={level} onChange={(e) => setLevel(valueOf(e))}>
              <option value="">Any</option>
              <option>info</option>
              <option>warn</option>
              <option>error</option>
            </select>
          )}
        </Field>
        <button type="submit">Search</button>
      </form>
      <ErrorBox error={logs.error} />
      <ul class="plain log">
        {entries.map((entry, i) => (
          <li key={i}>
            <time>{fmtDate(entry.timestamp / 1e9)}</time> {entry.line}
          </li>
        ))}
        {logs.data && entries.length === 0 ? <li class="muted">No log line in this range.</li> : null}
      </ul>
    </>
  );
}

function Traces({ range }: { range: string }) {
  const [minMs, setMinMs] = useState('');
  const [submitted, setSubmitted] = useState('');
  const traces = useLoad(() => get('/v1/telemetry/traces', { time_range: range, limit: 20, min_duration_ms: submitted || undefined }), [range, submitted]);
  const [open, setOpen] = useState<string | null>(null);
  return (
    <>
      <form class="filters" role="search" onSubmit={(e) => (e.preventDefault(), setSubmitted(minMs))}>
        <Field label="Slower than (ms)">{(id) => <input id={id} type="number" min={0} value={minMs} onInput={(e) => setMinMs(valueOf(e))} />}</Field>
        <button type="submit">Search traces</button>
      </form>
      <ErrorBox error={traces.error} />
      <ul class="plain">
        {(traces.data?.traces ?? []).map((t: any) => (
          <li key={t.trace_id}>
            <button type="button" class="link" aria-expanded={open === t.trace_id} onClick={() => setOpen(open === t.trace_id ? null : t.trace_id)}>
              {t.root_trace_name ?? t.trace_id}
            </button>{' '}
            <span class="muted">
              {t.root_service_name} · {fmtNumber(t.duration_ms)} ms · {t.start_time_unix_nano ? fmtDate(t.start_time_unix_nano / 1e9) : ''}
            </span>
            {open === t.trace_id ? <Waterfall traceId={t.trace_id} /> : null}
          </li>
        ))}
        {traces.data && (traces.data.traces ?? []).length === 0 ? <li class="muted">No trace in this range.</li> : null}
      </ul>
    </>
  );
}

export function TelemetryPage() {
  const [range, setRange] = useState('1h');
  return (
    <Page title="Telemetry">
      <Field label="Time range">
        {(id) => (
          <select id={id} value={range} onChange={(e) => setRange(valueOf(e))}>
            {RANGES.map((r) => (
              <option key={r}>{r}</option>
            ))}
          </select>
        )}
      </Field>
      <div class="grid2">
        <Card title="Counters">
          <Counters range={range} />
        </Card>
        <Card title="Latency">
          <Latency range={range} />
        </Card>
        <Card title="Logs">
          <Logs range={range} />
        </Card>
        <Card title="Traces">
          <Traces range={range} />
        </Card>
      </div>
    </Page>
  );
}
