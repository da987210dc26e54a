import type { MetricPoint, TelemetryBatch } from './store.js';
import type { LogEntry, SpanRecord, Telemetry, TelemetryLabels } from './types.js';

type Entry =
  | { type: 'count'; name: string; labels: TelemetryLabels; teamId: string; value: number; atMs: number }
  | { type: 'observe'; name: string; labels: TelemetryLabels; teamId: string; value: number; atMs: number }
  | { type: 'span'; span: SpanRecord }
  | { type: 'log'; entry: LogEntry };

export interface RecorderOptions {
  /** Writes one batch (src/telemetry/store.ts, writeTelemetry). */
  write(batch: TelemetryBatch): Promise<void>;
  /** Records held at most between two flushes; past it the oldest are dropped (and counted). Default 100,000. */
  capacity?: number | undefined;
  /**
   * How often the buffer is written, in ms (default 100). Records that waited a whole second
   * outlived two young-generation collections at 1,000 gateway calls a second and were copied to
   * the old generation, whose collections then paused every call (bench/README.md, "Gateway: the
   * old generation's pauses"); written within 100 ms they die young.
   */
  flushMs?: number | undefined;
  /**
   * Records turned into one batch at a time (default 250): a flush writes the buffer slice by
   * slice, letting the event loop turn between slices, so that a second of gateway traffic is
   * not gathered, encoded and handed to the database in one piece (that held every request for
   * 10–20 ms once a second at 1,000 calls a second: the gateway's p99).
   */
  sliceRecords?: number | undefined;
  /** Epoch milliseconds. */
  nowMs?: (() => number) | undefined;
  /** A failed write (the batch is lost, and counted in `failed`). */
  onError?: ((error: unknown) => void) | undefined;
  /** Periodic pruning: called every `pruneEveryMs` (default one hour) when given. */
  prune?: (() => Promise<unknown>) | undefined;
  pruneEveryMs?: number | undefined;
}

export interface RecorderStats {
  /** Records accepted by the recorder since it started. */
  recorded: number;
  /** Records dropped because the buffer was full (the oldest go first). */
  dropped: number;
  /** Records written to the store. */
  written: number;
  /** Records lost in a failed write. */
  failed: number;
}

export interface Recorder extends Telemetry {
  /** Writes what is buffered now (waits for a flush in progress first). */
  flush(): Promise<void>;
  /** Stops the timers and writes what is left. */
  close(): Promise<void>;
  stats(): RecorderStats;
}

const seriesKey = (name: string, teamId: string, labels: TelemetryLabels) =>
  `${teamId}\u0000${name}\u0000${JSON.stringify(Object.entries(labels).sort(([a], [b]) => (a < b ? -1 : 1)))}`;

/**
 * Telemetry written in batches off the request path (issue 29): every method stores the record
 * in a bounded ring and returns; a timer drains the ring into one batch. A full ring drops its
 * oldest record and counts it: a caller never waits and never fails because of telemetry.
 * A flush writes the ring in slices of `sliceRecords`; each slice sums the counts of one series
 * into one point, and keeps a series' observations together in one point (exact percentiles,
 * one row instead of one per call).
 */
export function createRecorder(options: RecorderOptions): Recorder {
  const capacity = Math.max(1, options.capacity ?? 100_000);
  const nowMs = options.nowMs ?? Date.now;
  const ring: Array<Entry | undefined> = new Array<Entry | undefined>(capacity);
  let head = 0; // oldest
  let size = 0;
  const stats: RecorderStats = { recorded: 0, dropped: 0, written: 0, failed: 0 };
  let running: Promise<void> | null = null;

  const push = (entry: Entry) => {
    stats.recorded++;
    if (size === capacity) {
      ring[head] = undefined;
      head = (head + 1) % capacity;
      size--;
      stats.dropped++;
    }
    ring[(head + size) % capacity] = entry;
    size++;
  };

  const slice = Math.max(1, options.sliceRecords ?? 250);

  /** The oldest `records` records as one batch. */
  const drain = (records: number): TelemetryBatch => {
    const points = new Map<string, MetricPoint>();
    const batch: TelemetryBatch = { points: [], spans: [], logs: [] };
    for (let i = 0; i < records; i++) {
      const index = (head + i) % capacity;
      const entry = ring[index]!;
      ring[index] = undefined;
      if (entry.type === 'span') batch.spans.push(entry.span);
      else if (entry.type === 'log') batch.logs.push(entry.entry);
      else {
        const key = `${entry.type}\u0000${seriesKey(entry.name, entry.teamId, entry.labels)}`;
        let point = points.get(key);
        if (point === undefined) {
          point = { teamId: entry.teamId, name: entry.name, atMs: entry.atMs, labels: entry.labels, kind: entry.type === 'count' ? 'sum' : 'samples',
            value: 0, count: 0 };
          if (entry.type === 'observe') point.samples = [];
          points.set(key, point);
        }
        point.value += entry.value;
        point.count += 1;
        point.atMs = Math.max(point.atMs, entry.atMs);
        if (entry.type === 'observe') (point.samples as number[]).push(entry.value);
      }
    }
    head = (head + records) % capacity;
    size -= records;
    batch.points = [...points.values()];
    return batch;
  };

  /** Writes what is buffered when it starts, slice by slice (records pushed meanwhile wait for the next flush). */
  const flushOnce = async () => {
    let left = size;
    while (left > 0) {
      const records = Math.min(left, slice);
      left -= records;
      const batch = drain(records);
      try {
        await options.write(batch);
        stats.written += records;
      } catch (error) {
        stats.failed += records;
        options.onError?.(error);
      }
      // A full ring drops its oldest records while a slice is written: those were counted in `left`.
      left = Math.min(left, size);
      if (left > 0) await new Promise((resolve) => setImmediate(resolve));
    }
  };

  const flush = async (): Promise<void> => {
    while (running) await running;
    running = flushOnce().finally(() => {
      running = null;
    });
    await running;
  };

  const timer = setInterval(() => {
    if (running === null) void flush();
  }, options.flushMs ?? 100);
  timer.unref();
  let pruning = false;
  const pruneTimer =
    options.prune === undefined
      ? undefined
      : setInterval(() => {
          if (pruning) return;
          pruning = true;
          options.prune!()
            .catch((error: unknown) => options.onError?.(error))
            .finally(() => {
              pruning = false;
            });
        }, options.pruneEveryMs ?? 3_600_000);
  pruneTimer?.unref();

  const finite = (value: number) => (Number.isFinite(value) ? value : 0);
  return {
    count(name, labels, teamId, value = 1) {
      push({ type: 'count', name, labels, teamId, value: finite(value), atMs: nowMs() });
    },
    observe(name, seconds, labels, teamId) {
      push({ type: 'observe', name, labels, teamId, value: finite(seconds), atMs: nowMs() });
    },
    span(span) {
      push({ type: 'span', span });
    },
    log(entry) {
      push({ type: 'log', entry });
    },
    flush,
    async close() {
      clearInterval(timer);
      if (pruneTimer) clearInterval(pruneTimer);
      await flush();
    },
    stats: () => ({ ...stats }),
  };
}

/**
 * Epoch milliseconds on Warden's clock (`Deps.now`, whole seconds) with the real clock's
 * milliseconds: the real time in the service, the test clock's seconds in tests.
 */
export const clockMs = (now: () => number) => () => now() * 1000 + (Date.now() % 1000);

/** Records into every one of `sinks` (the store and, with OTEL_EXPORTER_OTLP_ENDPOINT, the exporter). */
export function fanOut(...sinks: Telemetry[]): Telemetry {
  return {
    count: (name, labels, teamId, value) => sinks.forEach((s) => s.count(name, labels, teamId, value)),
    observe: (name, seconds, labels, teamId) => sinks.forEach((s) => s.observe(name, seconds, labels, teamId)),
    span: (span) => sinks.forEach((s) => s.span(span)),
    log: (entry) => sinks.forEach((s) => s.log(entry)),
  };
}
