// Shared pieces of every page: loading an answer, an error box with the API's message, paging,
// labelled fields, dates in the browser's locale, scores with their intervals, and small SVG charts.
import type { ComponentChildren, JSX } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { moved } from './router';

export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): { data: T | undefined; error: string | null; loading: boolean; reload: () => void } {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  useEffect(() => {
    let live = true;
    setLoading(true);
    load().then(
      (value) => {
        if (!live) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (!live) return;
        setError(err instanceof Error ? err.message : String(err));
        setLoading(false);
      },
    );
    return () => {
      live = false;
    };
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Runs an action: `busy` while it runs, its error's message, a success note. */
export function useAction(): {
  busy: boolean;
  error: string | null;
  note: string | null;
  run: (action: () => Promise<string | void>) => Promise<boolean>;
  clear: () => void;
} {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const run = useCallback(async (action: () => Promise<string | void>) => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      const message = await action();
      if (message) setNote(message);
      return true;
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      return false;
    } finally {
      setBusy(false);
    }
  }, []);
  return { busy, error, note, run, clear: () => (setError(null), setNote(null)) };
}

/** Calls `tick` every `ms` while `active`: live progress of evaluations and campaigns. */
export function usePoll(active: boolean, tick: () => void, ms = 1000): void {
  const saved = useRef(tick);
  saved.current = tick;
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => saved.current(), ms);
    return () => clearInterval(id);
  }, [active, ms]);
}

export function ErrorBox({ error }: { error: string | null | undefined }) {
  if (!error) return null;
  return (
    <p class="error" role="alert">
      {error}
    </p>
  );
}

export function Note({ note }: { note: string | null | undefined }) {
  if (!note) return null;
  return (
    <p class="note" role="status">
      {note}
    </p>
  );
}

export function Loading({ what = 'Loading' }: { what?: string }) {
  return (
    <p class="muted" role="status" aria-live="polite">
      {what}…
    </p>
  );
}

export function Page(props: { title: string; children: ComponentChildren; actions?: ComponentChildren }) {
  const title = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    document.title = `${props.title} · Warden`;
  }, [props.title]);
  // After a move within the console, the new page's heading takes the focus (as a page load
  // would put a screen reader at the top), so the keyboard starts from the page, not the menu.
  useEffect(() => {
    if (moved.yet) title.current?.focus({ preventScroll: true });
  }, []);
  return (
    <section class="page" aria-labelledby="page-title">
      <header class="page-head">
        <h1 id="page-title" tabIndex={-1} ref={title}>
          {props.title}
        </h1>
        {props.actions ? <div class="actions">{props.actions}</div> : null}
      </header>
      {props.children}
    </section>
  );
}

export function Card(props: { title?: string; children: ComponentChildren; class?: string }) {
  return (
    <section class={`card ${props.class ?? ''}`}>
      {props.title ? <h2>{props.title}</h2> : null}
      {props.children}
    </section>
  );
}

let fieldCounter = 0;
/** A label tied to its control by id (axe: every control has a name). */
export function Field(props: { label: string; hint?: string; children: (id: string) => JSX.Element }) {
  const id = useRef(`f${++fieldCounter}`).current;
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      {props.children(id)}
      {props.hint ? <small class="muted">{props.hint}</small> : null}
    </div>
  );
}

/**
 * The agent picker of the start forms and the filters: its agents by name; `any` names the
 * choice of no agent in particular (a filter), absent when one must be chosen.
 */
export function AgentSelect(props: {
  agents: ReadonlyArray<{ id: string; agent_name: string }>;
  value: string;
  onChange: (id: string) => void;
  any?: string | undefined;
  required?: boolean | undefined;
}) {
  return (
    <Field label="Agent">
      {(id) => (
        <select id={id} value={props.value} onChange={(e) => props.onChange(valueOf(e))} required={props.required}>
          {props.any !== undefined ? <option value="">{props.any}</option> : null}
          {props.agents.map((a) => (
            <option key={a.id} value={a.id}>
              {a.agent_name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

export function Pager(props: { offset: number; limit: number; shown: number; total?: number | undefined; onChange: (offset: number) => void }) {
  const { offset, limit, shown, total } = props;
  const hasNext = total !== undefined ? offset + shown < total : shown >= limit;
  if (offset === 0 && !hasNext) return total !== undefined ? <p class="muted">{total} in all</p> : null;
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={offset === 0} onClick={() => props.onChange(Math.max(0, offset - limit))}>
        Previous
      </button>
      <span>
        {shown === 0 ? 0 : offset + 1}–{offset + shown}
        {total !== undefined ? ` of ${total}` : ''}
      </span>
      <button type="button" disabled={!hasNext} onClick={() => props.onChange(offset + limit)}>
        Next
      </button>
    </nav>
  );
}

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
/** Epoch seconds in the browser's locale and time zone. */
export function fmtDate(epochSeconds: number | null | undefined): string {
  if (epochSeconds === null || epochSeconds === undefined) return '—';
  return dateFormat.format(new Date(epochSeconds * 1000));
}

const numberFormat = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });
export function fmtNumber(value: number | null | undefined): string {
  return value === null || value === undefined || Number.isNaN(value) ? '—' : numberFormat.format(value);
}

export interface Interval {
  low?: number | null;
  high?: number | null;
  lower?: number | null;
  upper?: number | null;
  ci_low?: number | null;
  ci_high?: number | null;
}

/** An interval as the API gives it (several names in use), or null. */
export function intervalOf(value: unknown): [number, number] | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const nested = (v.interval ?? v.ci ?? v.wilson) as unknown;
  if (Array.isArray(nested) && typeof nested[0] === 'number' && typeof nested[1] === 'number') return [nested[0], nested[1]];
  if (nested && typeof nested === 'object') return intervalOf(nested);
  for (const [lo, hi] of [
    ['low', 'high'],
    ['lower', 'upper'],
    ['ci_low', 'ci_high'],
  ] as const) {
    if (typeof v[lo] === 'number' && typeof v[hi] === 'number') return [v[lo] as number, v[hi] as number];
  }
  return null;
}

export function Score(props: { value: number | string | null | undefined; interval?: [number, number] | null; n?: number | null | undefined }) {
  const value = typeof props.value === 'string' ? Number(props.value) : props.value;
  if (value === null || value === undefined || Number.isNaN(value)) return <span class="muted">—</span>;
  return (
    <span class="score">
      <strong>{value.toFixed(2)}</strong>
      {props.interval ? (
        <span class="muted">
          {' '}
          (95% {props.interval[0].toFixed(2)}–{props.interval[1].toFixed(2)})
        </span>
      ) : null}
      {props.n ? <span class="muted"> n={props.n}</span> : null}
    </span>
  );
}

export interface Bar {
  label: string;
  value: number;
  interval?: [number, number] | null;
}

/**
 * Horizontal bars in SVG, with the numbers in a text alternative (role="img" + label). A bar's
 * interval is drawn as a whisker and printed beside its value, `0.33 (0.18–0.53)`.
 */
export function BarChart(props: { title: string; bars: Bar[]; max?: number; format?: (v: number) => string }) {
  const format = props.format ?? ((v: number) => fmtNumber(v));
  const max = props.max ?? Math.max(1, ...props.bars.map((b) => b.interval?.[1] ?? b.value));
  const text = (bar: Bar) => (bar.interval ? `${format(bar.value)} (${format(bar.interval[0])}–${format(bar.interval[1])})` : format(bar.value));
  const withIntervals = props.bars.some((b) => b.interval);
  const rowHeight = 26;
  const labelWidth = 130;
  const width = 460;
  const plot = width - labelWidth - (withIntervals ? 130 : 60);
  const height = Math.max(rowHeight, props.bars.length * rowHeight) + 4;
  const summary = props.bars.map((b) => `${b.label} ${text(b)}`).join(', ');
  if (props.bars.length === 0) return <p class="muted">No data for {props.title.toLowerCase()} yet.</p>;
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-label={`${props.title}: ${summary}`} preserveAspectRatio="xMinYMin meet">
        {props.bars.map((bar, i) => {
          const y = i * rowHeight + 4;
          const w = max > 0 ? Math.max(0, (bar.value / max) * plot) : 0;
          const right = bar.interval && max > 0 ? Math.max(w, (bar.interval[1] / max) * plot) : w;
          return (
            <g key={bar.label}>
              <text x={labelWidth - 6} y={y + 14} text-anchor="end" class="chart-label">
                {bar.label.length > 18 ? `${bar.label.slice(0, 17)}…` : bar.label}
              </text>
              <rect x={labelWidth} y={y} width={w} height={rowHeight - 8} class="chart-bar" rx="2" />
              {bar.interval ? (
                <g class="chart-interval">
                  <line
                    x1={labelWidth + (bar.interval[0] / max) * plot}
                    x2={labelWidth + (bar.interval[1] / max) * plot}
                    y1={y + (rowHeight - 8) / 2}
                    y2={y + (rowHeight - 8) / 2}
                  />
                  <line x1={labelWidth + (bar.interval[0] / max) * plot} x2={labelWidth + (bar.interval[0] / max) * plot} y1={y + 3} y2={y + rowHeight - 11} />
                  <line x1={labelWidth + (bar.interval[1] / max) * plot} x2={labelWidth + (bar.interval[1] / max) * plot} y1={y + 3} y2={y + rowHeight - 11} />
                </g>
              ) : null}
              <text x={labelWidth + right + 6} y={y + 14} class="chart-value">
                {text(bar)}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

/** Lines over time (telemetry series), x in epoch seconds; points other than zero are dots too, so a series of one point shows. */
export function LineChart(props: {
  title: string;
  series: { name: string; points: { t: number; v: number }[] }[];
  unit?: string;
  format?: (v: number) => string;
}) {
  const all = props.series.flatMap((s) => s.points);
  if (all.length === 0) return <p class="muted">No data points for {props.title.toLowerCase()} in this range.</p>;
  const format = props.format ?? ((v: number) => `${fmtNumber(v)}${props.unit ?? ''}`);
  const width = 560;
  const height = 200;
  const pad = 40;
  const minT = Math.min(...all.map((p) => p.t));
  const maxT = Math.max(...all.map((p) => p.t));
  const maxV = Math.max(1e-9, ...all.map((p) => p.v));
  // One instant only: the dots sit in the middle rather than on the left edge.
  const x = (t: number) => (maxT === minT ? width / 2 : pad + ((t - minT) / (maxT - minT)) * (width - pad * 2));
  const y = (v: number) => height - pad - (v / maxV) * (height - pad * 2);
  const latest = props.series.map((s) => `${s.name} ${s.points.length ? format(s.points[s.points.length - 1]!.v) : '—'}`).join(', ');
  return (
    <figure class="chart">
      <figcaption>{props.title}</figcaption>
      <svg
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={`${props.title} from ${fmtDate(minT)} to ${fmtDate(maxT)}: ${all.length} points, highest ${format(maxV)}; latest ${latest}`}
      >
        <line x1={pad} x2={width - pad} y1={height - pad} y2={height - pad} class="chart-axis" />
        <line x1={pad} x2={pad} y1={pad / 2} y2={height - pad} class="chart-axis" />
        <text x={pad - 4} y={pad / 2 + 4} text-anchor="end" class="chart-label">
          {format(maxV)}
        </text>
        <text x={pad - 4} y={height - pad + 4} text-anchor="end" class="chart-label">
          0
        </text>
        <text x={pad} y={height - 12} class="chart-label">
          {fmtDate(minT)}
        </text>
        {maxT !== minT ? (
          <text x={width - pad} y={height - 12} text-anchor="end" class="chart-label">
            {fmtDate(maxT)}
          </text>
        ) : null}
        {props.series.map((s, i) => (
          <g key={s.name} class={`chart-series-${i % 4}`}>
            {s.points.length > 1 ? <polyline class="chart-line" points={s.points.map((p) => `${x(p.t).toFixed(1)},${y(p.v).toFixed(1)}`).join(' ')} /> : null}
            {s.points
              .filter((p) => s.points.length <= 3 || p.v !== 0)
              .map((p) => (
                <circle key={p.t} cx={x(p.t).toFixed(1)} cy={y(p.v).toFixed(1)} r="3" class="chart-dot" />
              ))}
          </g>
        ))}
      </svg>
      {props.series.length > 1 || props.series[0]?.name ? (
        <ul class="legend" aria-hidden="true">
          {props.series.map((s, i) => (
            <li key={s.name}>
              <span class={`swatch chart-series-${i % 4}`} /> {s.name}
            </li>
          ))}
        </ul>
      ) : null}
    </figure>
  );
}

/** A bar of progress with its numbers (evaluations, campaigns). */
export function Progress(props: { done: number | null | undefined; total: number | null | undefined; label: string }) {
  const total = props.total ?? 0;
  const done = props.done ?? 0;
  return (
    <div class="progress-wrap">
      <progress max={total || 1} value={total ? done : undefined} aria-label={props.label} />
      <span class="muted">{total ? `${done} of ${total}` : props.label}</span>
    </div>
  );
}

export function Badge({ children, tone }: { children: ComponentChildren; tone?: 'good' | 'bad' | 'warn' | 'info' }) {
  return <span class={`badge ${tone ?? ''}`}>{children}</span>;
}

/** A table that may scroll sideways on a narrow screen: a named region the keyboard can reach and scroll (axe: scrollable-region-focusable). */
export function TableWrap(props: { label: string; children: ComponentChildren }) {
  return (
    <div class="table-wrap" tabIndex={0} role="region" aria-label={props.label}>
      {props.children}
    </div>
  );
}

/** A duration given in days, in the unit a person would say it in: 40 s, 12 min, 5.5 h, 3.2 days. */
export function fmtDays(days: number | null | undefined): string {
  if (days === null || days === undefined || Number.isNaN(days)) return '—';
  const seconds = days * 86400;
  if (seconds < 60) return `${Math.round(seconds)} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  if (seconds < 86400) return `${oneDecimal.format(seconds / 3600)} h`;
  return `${oneDecimal.format(days)} days`;
}
const oneDecimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });

/** The value of the input, select or textarea an event came from. */
export const valueOf = (event: Event): string => (event.target as HTMLInputElement).value;
export const checkedOf = (event: Event): boolean => (event.target as HTMLInputElement).checked;
