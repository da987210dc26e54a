import { useState } from 'preact/hooks';
import { get, itemsOf } from '../api';
import { useApp } from '../context';
import { Link, useLocation } from '../router';
import { AgentSelect, Badge, Card, ErrorBox, Field, LineChart, Loading, Page, fmtDate, fmtNumber, useLoad, valueOf } from '../ui';

const RANGES = ['15m', '30m', '1h', '2h', '6h', '1d', '7d', '30d'];
/** The latency operation's window per range: about 60 windows, as the counters' 60 steps (the API allows 10,000 at most). */
const WINDOWS: Record<string, string> = { '15m': '15s', '30m': '30s', '1h': '1m', '2h': '2m', '6h': '6m', '1d': '24m', '7d': '168m', '30d': '12h' };
const COUNTERS: [string, string][] = [
  ['gateway_requests_total', 'Gateway calls'],
  ['gateway_blocked_total', 'Gateway calls blocked by a guard'],
  ['dome_input_flagged_total', 'Inputs flagged by a guard'],
  ['dome_output_flagged_total', 'Outputs flagged by a guard'],
  ['dome_input_requests_total', 'Inputs scanned'],
  ['dome_output_requests_total', 'Outputs scanned'],
  ['agent_requests_total', 'Evaluation and red-team calls to agents'],
  ['agent_errors_total', 'Failed calls to agents'],
];
const LATENCIES: [string, string][] = [
  ['gateway_request_duration_seconds', 'Gateway call duration'],
  ['gateway_time_to_first_byte_seconds', 'Gateway time to first byte (streamed)'],
  ['agent_request_duration_seconds', 'Evaluation and red-team call duration'],
  ['dome_input_latency_seconds', 'Input guard scan'],
  ['dome_output_latency_seconds', 'Output guard scan'],
];
const PERCENTILES = '0.5,0.95,0.99';

interface Filters {
  range: string;
  /** An agent's id, or '' for every agent of the team. */
  agent: string;
  team: string | null;
  agentName: (id: string | null | undefined) => string;
}

type Attribute = { key: string; value: Record<string, unknown> };

/** An OTLP attribute value as text (`stringValue`, `intValue`, `boolValue`…). */
function attributeText(value: Record<string, unknown> | undefined): string {
  if (!value) return '';
  const inner = Object.values(value)[0];
  if (inner && typeof inner === 'object') return JSON.stringify(inner);
  return String(inner);
}

export interface Span {
  id: string;
  parent: string | null;
  name: string;
  service: string;
  start: number;
  end: number;
  error: boolean;
  attributes: [string, string][];
}

/** The spans of an OTLP trace (Tempo's `batches`), with start and end in milliseconds. */
export function spansOf(batches: any[]): Span[] {
  const spans: Span[] = [];
  for (const batch of batches ?? []) {
    const service = attributeText((batch.resource?.attributes ?? []).find((a: Attribute) => a.key === 'service.name')?.value);
    for (const scope of [...(batch.scopeSpans ?? []), ...(batch.instrumentationLibrarySpans ?? [])]) {
      for (const span of scope.spans ?? []) {
        spans.push({
          id: span.spanId,
          parent: span.parentSpanId || null,
          name: span.name,
          service,
          start: Number(span.startTimeUnixNano) / 1e6,
          end: Number(span.endTimeUnixNano) / 1e6,
          error: span.status?.code === 'STATUS_CODE_ERROR' || span.status?.code === 2,
          attributes: ((span.attributes ?? []) as Attribute[]).map((a) => [a.key, attributeText(a.value)]),
        });
      }
    }
  }
  return spans.sort((a, b) => a.start - b.start);
}

function Waterfall({ traceId, team }: { traceId: string; team: string | null }) {
  const trace = useLoad(() => get(`/v1/telemetry/traces/${traceId}`, { team_id: team }), [traceId, team]);
  const [selected, setSelected] = useState<string | null>(null);
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
  const chosen = spans.find((s) => s.id === selected);
  return (
    <div class="nested">
      <ol class="waterfall" aria-label={`Trace ${traceId}: ${spans.length} spans over ${fmtNumber(total)} ms`}>
        {spans.map((span) => {
          const left = ((span.start - start) / total) * 100;
          const width = Math.max(0.5, ((span.end - span.start) / total) * 100);
          return (
            <li key={span.id}>
              <span class="span-name" style={{ paddingLeft: `${depth(span) * 12}px` }}>
                <button type="button" class="link" aria-pressed={selected === span.id} onClick={() => setSelected(selected === span.id ? null : span.id)}>
                  {span.name}
                </button>{' '}
                <span class="muted small">{span.service}</span>
              </span>
              <span class="span-track" aria-hidden="true">
                <span class={`span-bar${span.error ? ' error' : ''}`} style={{ left: `${left}%`, width: `${Math.min(width, 100 - left)}%` }} />
              </span>
              <span class="span-time">{fmtNumber(span.end - span.start)} ms</span>
            </li>
          );
        })}
      </ol>
      {chosen ? (
        <dl class="attributes" aria-label={`Attributes of ${chosen.name}`}>
          {chosen.attributes.map(([key, value]) => (
            <div key={key}>
              <dt>{key}</dt>
              <dd>{value}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <p class="muted small">Choose a span to see its attributes.</p>
      )}
    </div>
  );
}

function Counters({ filters }: { filters: Filters }) {
  const { range, agent, team } = filters;
  const [metric, setMetric] = useState(COUNTERS[0]![0]);
  const scope = { time_range: range, agent_configuration_id: agent || undefined, team_id: team };
  const total = useLoad(() => get(`/v1/telemetry/counters/${metric}/total`, scope), [metric, range, agent, team]);
  const series = useLoad(() => get(`/v1/telemetry/counters/${metric}/time_series`, scope), [metric, range, agent, team]);
  const label = COUNTERS.find(([name]) => name === metric)?.[1] ?? metric;
  return (
    <>
      <Field label="Counter">
        {(id) => (
          <select id={id} value={metric} onChange={(e) => setMetric(valueOf(e))}>
            {COUNTERS.map(([name, text]) => (
              <option key={name} value={name}>
                {text} ({name})
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={total.error ?? series.error} />
      {total.data ? (
        <p>
          <span class="metric">{fmtNumber(total.data.total_count)}</span> <span class="muted">in the last {range}</span>
        </p>
      ) : null}
      {series.data ? (
        <LineChart
          title={`${label} per step, last ${range}`}
          series={((series.data.series ?? []) as any[])
            .filter((s) => (s.points ?? []).some((p: any) => p.value !== 0))
            .map((s, i) => ({
              name: filters.agentName(s.labels?.agent_id) || `series ${i + 1}`,
              points: (s.points ?? []).map((p: any) => ({ t: p.timestamp, v: p.value })),
            }))}
        />
      ) : null}
    </>
  );
}

function Latency({ filters }: { filters: Filters }) {
  const { range, agent, team } = filters;
  const [metric, setMetric] = useState(LATENCIES[0]![0]);
  const data = useLoad(
    () =>
      get(`/v1/telemetry/latency/${metric}`, {
        time_range: range,
        time_window: WINDOWS[range],
        percentiles: PERCENTILES,
        agent_configuration_id: agent || undefined,
        team_id: team,
      }),
    [metric, range, agent, team],
  );
  const label = LATENCIES.find(([name]) => name === metric)?.[1] ?? metric;
  return (
    <>
      <Field label="Latency">
        {(id) => (
          <select id={id} value={metric} onChange={(e) => setMetric(valueOf(e))}>
            {LATENCIES.map(([name, text]) => (
              <option key={name} value={name}>
                {text} ({name})
              </option>
            ))}
          </select>
        )}
      </Field>
      <ErrorBox error={data.error} />
      {data.data ? (
        <LineChart
          title={`${label}: percentiles per ${WINDOWS[range]}, last ${range}`}
          unit=" ms"
          // The API answers seconds; milliseconds read better for calls of a few ms.
          series={(data.data as any[]).map((s) => ({ name: s.percentile, points: (s.values ?? []).map((p: any) => ({ t: p.timestamp, v: p.value * 1000 })) }))}
        />
      ) : null}
    </>
  );
}

const LOG_PAGE = 50;

function Logs({ filters }: { filters: Filters }) {
  const { range, agent, team } = filters;
  const [search, setSearch] = useState('');
  const [level, setLevel] = useState('');
  const [submitted, setSubmitted] = useState({ search: '', level: '' });
  const [limit, setLimit] = useState(LOG_PAGE);
  const logs = useLoad(
    () =>
      get('/v1/telemetry/logs', {
        time_range: range,
        search: submitted.search || undefined,
        level: submitted.level || undefined,
        agent_configuration_id: agent || undefined,
        limit,
        team_id: team,
      }),
    [range, agent, team, submitted, limit],
  );
  // Streams group lines by their labels; a person reads them newest first across streams.
  const entries = ((logs.data?.streams ?? []) as any[])
    .flatMap((s) => (s.entries ?? []).map((e: any) => ({ ...e, labels: s.labels ?? {} })))
    .sort((a, b) => b.timestamp - a.timestamp);
  const more = typeof logs.data?.next_timestamp === 'number' && limit < 5000;
  return (
    <>
      <form
        class="filters"
        role="search"
        aria-label="Logs"
        onSubmit={(e) => {
          e.preventDefault();
          setLimit(LOG_PAGE);
          setSubmitted({ search, level });
        }}
      >
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
          <li key={`${entry.timestamp}-${i}`}>
            <time>{fmtDate(entry.timestamp / 1e9)}</time>{' '}
            <Badge tone={entry.labels.level === 'error' ? 'bad' : entry.labels.level === 'warn' ? 'warn' : undefined}>{entry.labels.level ?? 'log'}</Badge>{' '}
            {!agent && entry.labels.agent_configuration_id ? <span class="muted">{filters.agentName(entry.labels.agent_configuration_id)}: </span> : null}
            {entry.line}
          </li>
        ))}
        {logs.data && entries.length === 0 ? <li class="muted">No log line in this range.</li> : null}
      </ul>
      {logs.data ? (
        <p class="muted small">
          {entries.length} lines, newest first{more ? '; older ones in the range too' : ''}.{' '}
          {more ? (
            <button type="button" class="small" disabled={logs.loading} onClick={() => setLimit(Math.min(5000, limit + LOG_PAGE * 2))}>
              Show older lines
            </button>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

const TRACE_PAGE = 20;

function Traces({ filters }: { filters: Filters }) {
  const { range, agent, team } = filters;
  const [minMs, setMinMs] = useState('');
  const [traceql, setTraceql] = useState('');
  const [submitted, setSubmitted] = useState({ minMs: '', traceql: '' });
  const [limit, setLimit] = useState(TRACE_PAGE);
  const traces = useLoad(
    () =>
      get('/v1/telemetry/traces', {
        time_range: range,
        limit,
        min_duration_ms: submitted.minMs || undefined,
        query: submitted.traceql || undefined,
        agent_configuration_id: agent || undefined,
        team_id: team,
      }),
    [range, agent, team, submitted, limit],
  );
  const [open, setOpen] = useState<string | null>(null);
  const rows = (traces.data?.traces ?? []) as any[];
  return (
    <>
      <form
        class="filters"
        role="search"
        aria-label="Traces"
        onSubmit={(e) => {
          e.preventDefault();
          setLimit(TRACE_PAGE);
          setSubmitted({ minMs, traceql });
        }}
      >
        <Field label="Slower than (ms)">{(id) => <input id={id} type="number" min={0} value={minMs} onInput={(e) => setMinMs(valueOf(e))} />}</Field>
        <Field label="TraceQL (optional)" hint='e.g. { .warden.blocked = true }'>
          {(id) => <input id={id} value={traceql} maxLength={4000} onInput={(e) => setTraceql(valueOf(e))} />}
        </Field>
        <button type="submit">Search traces</button>
      </form>
      <ErrorBox error={traces.error} />
      <ul class="plain">
        {rows.map((t) => (
          <li key={t.trace_id}>
            <button type="button" class="link" aria-expanded={open === t.trace_id} onClick={() => setOpen(open === t.trace_id ? null : t.trace_id)}>
              {t.root_trace_name ?? t.trace_id}
            </button>{' '}
            <span class="muted">
              {t.root_service_name} · {fmtNumber(t.duration_ms)} ms · {t.start_time_unix_nano ? fmtDate(Number(t.start_time_unix_nano) / 1e9) : ''}
            </span>
            {open === t.trace_id ? <Waterfall traceId={t.trace_id} team={team} /> : null}
          </li>
        ))}
        {traces.data && rows.length === 0 ? <li class="muted">No trace in this range.</li> : null}
      </ul>
      {traces.data ? (
        <p class="muted small">
          {rows.length} traces, newest first.{' '}
          {rows.length >= limit && limit < 200 ? (
            <button type="button" class="small" disabled={traces.loading} onClick={() => setLimit(Math.min(200, limit + TRACE_PAGE))}>
              Show older traces
            </button>
          ) : null}
        </p>
      ) : null}
    </>
  );
}

export function TelemetryPage() {
  const { team } = useApp();
  const { query } = useLocation();
  const [range, setRange] = useState('1h');
  const [agent, setAgent] = useState(query.get('agent') ?? '');
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000 }), [team]);
  const names = new Map<string, string>(itemsOf(agents.data).map((a) => [a.id as string, a.agent_name as string]));
  const agentName = (id: string | null | undefined) => (id ? (names.get(id) ?? id.slice(0, 8)) : '');
  const filters: Filters = { range, agent, team, agentName };
  return (
    <Page title="Telemetry">
      <p class="muted">
        What Warden recorded of the calls it made and guarded: the gateway (<code>/v1/gateway/&#123;agent&#125;/…</code>), guard scans,
        evaluations and red-team campaigns.{' '}
        {agent ? <Link href={`/agents/${agent}`}>{agentName(agent)}'s page</Link> : null}
      </p>
      <form class="filters" aria-label="Telemetry scope" onSubmit={(e) => e.preventDefault()}>
        <Field label="Time range">
          {(id) => (
            <select id={id} value={range} onChange={(e) => setRange(valueOf(e))}>
              {RANGES.map((r) => (
                <option key={r} value={r}>
                  last {r}
                </option>
              ))}
            </select>
          )}
        </Field>
        <AgentSelect agents={itemsOf(agents.data)} value={agent} onChange={setAgent} any="Every agent of the team" />
      </form>
      <div class="grid2">
        <Card title="Counters">
          <Counters filters={filters} />
        </Card>
        <Card title="Latency">
          <Latency filters={filters} />
        </Card>
        <Card title="Logs">
          <Logs filters={filters} />
        </Card>
        <Card title="Traces">
          <Traces filters={filters} />
        </Card>
      </div>
    </Page>
  );
}
