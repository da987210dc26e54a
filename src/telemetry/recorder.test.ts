import { describe, expect, it } from 'vitest';
import { createRecorder } from './recorder.js';
import type { TelemetryBatch } from './store.js';

const span = (i: number) => ({
  traceId: i.toString(16).padStart(32, '0'),
  spanId: i.toString(16).padStart(16, '0'),
  name: `s${i}`,
  startNs: 1n,
  endNs: 2n,
  status: 'ok' as const,
  serviceName: 'warden',
  attributes: {},
  teamId: 't',
});

describe('the telemetry recorder', () => {
  it('never waits for a write: recording returns while a write hangs, and a full ring drops the oldest and counts them', async () => {
    const batches: TelemetryBatch[] = [];
    let release: () => void = () => {};
    const hanging = new Promise<void>((resolve) => (release = resolve));
    const recorder = createRecorder({ capacity: 3, flushMs: 60_000, write: async (b) => (batches.push(b), hanging) });
    recorder.span(span(0));
    const flushing = recorder.flush();
    for (let i = 1; i <= 5; i++) recorder.span(span(i)); // the write hangs; these go to the ring
    expect(recorder.stats()).toMatchObject({ recorded: 6, dropped: 2 });
    release();
    await flushing;
    await recorder.flush();
    expect(batches.map((b) => b.spans.map((s) => s.name))).toEqual([['s0'], ['s3', 's4', 's5']]);
    expect(recorder.stats()).toMatchObject({ written: 4, failed: 0 });
    await recorder.close();
  });

  it('sums the counts of a series and keeps its observations together in one point per flush', async () => {
    const batches: TelemetryBatch[] = [];
    const recorder = createRecorder({ flushMs: 60_000, nowMs: () => 5000, write: async (b) => void batches.push(b) });
    recorder.count('gateway_requests_total', { agent_configuration_id: 'a' }, 't');
    recorder.count('gateway_requests_total', { agent_configuration_id: 'a' }, 't', 2);
    recorder.count('gateway_requests_total', { agent_configuration_id: 'b' }, 't');
    recorder.observe('gateway_request_duration_seconds', 0.1, { agent_configuration_id: 'a' }, 't');
    recorder.observe('gateway_request_duration_seconds', 0.3, { agent_configuration_id: 'a' }, 't');
    await recorder.close();
    const points = batches[0]!.points;
    expect(points).toHaveLength(3);
    expect(points.find((p) => p.kind === 'sum' && p.labels.agent_configuration_id === 'a')).toMatchObject({ value: 3, count: 2, atMs: 5000 });
    expect(points.find((p) => p.kind === 'samples')).toMatchObject({ samples: [0.1, 0.3], count: 2 });
  });

  it('writes a large buffer slice by slice, letting the event loop turn between slices, and loses nothing', async () => {
    const batches: TelemetryBatch[] = [];
    let turns = 0;
    const turnsAtWrite: number[] = [];
    const recorder = createRecorder({ flushMs: 60_000, sliceRecords: 100, write: async (b) => void (batches.push(b), turnsAtWrite.push(turns)) });
    for (let i = 0; i < 1000; i++) recorder.span(span(i));
    let spinning = true;
    const spin = () => {
      turns++;
      if (spinning) setImmediate(spin);
    };
    setImmediate(spin);
    await recorder.flush();
    spinning = false;
    expect(batches.map((b) => b.spans.length)).toEqual(Array.from({ length: 10 }, () => 100));
    expect(batches.flatMap((b) => b.spans.map((s) => s.name))).toEqual(Array.from({ length: 1000 }, (_, i) => `s${i}`));
    // Written in one piece, no turn of the loop would come between the slices.
    for (let i = 1; i < turnsAtWrite.length; i++) expect(turnsAtWrite[i]).toBeGreaterThan(turnsAtWrite[i - 1]!);
    expect(recorder.stats()).toMatchObject({ recorded: 1000, written: 1000, dropped: 0 });
    await recorder.close();
  });

  it('counts the records of a failed write as failed and goes on', async () => {
    const errors: unknown[] = [];
    let fail = true;
    const recorder = createRecorder({ flushMs: 60_000, onError: (e) => errors.push(e), write: async () => { if (fail) throw new Error('disk full'); } });
    recorder.count('x', {}, 't');
    await recorder.flush();
    fail = false;
    recorder.count('x', {}, 't');
    await recorder.close();
    expect(recorder.stats()).toMatchObject({ recorded: 2, failed: 1, written: 1 });
    expect(errors).toHaveLength(1);
  });
});
