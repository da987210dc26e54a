/**
 * The one run pipeline of the jobs that send work to agents (evaluations, red-team campaigns:
 * docs/architecture.md, "Where a unit goes"). A feature supplies only what differs: its units
 * (planned), how one unit is sent and turned into rows, and how a batch of rows is stored
 * (./batches.ts). The pipeline sends the units with the concurrency setting (the agent's rate
 * ceiling applies on top, paced, in the connector), holds a unit back when the agent still
 * answers 429 or asks to wait long (./dispatch.ts), stores rows in batches only while the
 * record still runs this job, and stops every call in flight when the job's signal aborts, a
 * write fails, or the record stopped running.
 */
import { setMaxListeners } from 'node:events';
import type { BatchWriter } from './batches.js';
import { dispatch, rateLimitOutcome, type SendOutcome } from './dispatch.js';
import type { JobContext } from './types.js';

/** What the pipeline gives the sending of one unit. */
export interface UnitScope {
  /** Aborts when the run stops, and when the unit is held back (the rest of it would be wasted). */
  signal: AbortSignal;
  /** The unit was rate-limited too often: an answer still 429 now counts (an error row). */
  lastTry: boolean;
  /**
   * To be called with every failed call to the agent: true when the unit is held back (the agent
   * still answered 429: it goes back to the end of the line; or it asked to wait long: the job
   * gives its slot back and sends it again when it resumes). Nothing of a held-back unit is
   * stored, whatever `send` answers after; false when the failure counts.
   */
  holdsBack(failure: { status?: number | undefined; retryAfterMs?: number | undefined }): boolean;
}

export interface PipelineOptions<U, R> {
  context: Pick<JobContext, 'signal' | 'deferFor'>;
  /** The units still to send (those already stored skipped), in plan order. */
  units: readonly U[];
  /** Units in flight at most. */
  concurrency: number;
  /** Sends one unit and answers its rows; null when it stopped (the run's signal). */
  send(unit: U, scope: UnitScope): Promise<R[] | null>;
  /**
   * Looks at a unit's rows once they are handed to the writer (a log line, a fail-fast rule);
   * throwing stops the run with that error, keeping what was written.
   */
  check?(rows: readonly R[]): void;
  /** Where rows go: the feature's batch writer (createBatchWriter). */
  writer: Pick<BatchWriter<R>, 'add' | 'flush' | 'close' | 'stopped'>;
  /** Dispatch's clock and pause (tests). */
  pauseMs?: number;
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
}

/**
 * Runs the units through to stored rows. Resolves once every unit is stored (or the run
 * stopped: see the job's signal and `writer.stopped`); throws the first error of a unit, a
 * check or a write. The writer is flushed and closed.
 */
export async function runPipeline<U, R>(options: PipelineOptions<U, R>): Promise<void> {
  const { context, writer } = options;
  // Stops the senders when the job is aborted, when a write or a check fails, or when the record stopped running.
  const local = new AbortController();
  const sending = AbortSignal.any([context.signal, local.signal]);
  // Every call in flight listens to it (several listeners each): not a leak.
  setMaxListeners(0, sending);

  async function send(unit: U, lastTry: boolean): Promise<SendOutcome<R[]>> {
    const attempt = new AbortController();
    const signal = AbortSignal.any([sending, attempt.signal]);
    setMaxListeners(0, signal);
    let held: 'rate-limited' | null | undefined;
    const scope: UnitScope = {
      signal,
      lastTry,
      holdsBack(failure) {
        if (held === undefined) {
          held = rateLimitOutcome(failure, lastTry, context.deferFor);
          if (held !== undefined) attempt.abort();
        }
        return held !== undefined;
      },
    };
    let rows: R[] | null;
    try {
      rows = await options.send(unit, scope);
    } catch (error) {
      if (held !== undefined || sending.aborted) return held ?? null;
      throw error;
    }
    if (held !== undefined) return held;
    if (rows === null || sending.aborted) return null;
    return rows;
  }

  let checkFailed = false;
  try {
    await dispatch<U, R[]>({
      units: options.units,
      concurrency: options.concurrency,
      signal: sending,
      send,
      accept: async (rows) => {
        try {
          await writer.add(rows);
        } catch (error) {
          local.abort();
          throw error;
        }
        try {
          options.check?.(rows);
        } catch (error) {
          local.abort();
          checkFailed = true;
          throw error;
        }
      },
      // The record ended under us (cancelled, deleted): the calls in flight are aborted too.
      stopped: () => {
        if (writer.stopped) local.abort();
        return writer.stopped;
      },
      ...(options.pauseMs !== undefined ? { pauseMs: options.pauseMs } : {}),
      ...(options.sleep !== undefined ? { sleep: options.sleep } : {}),
      ...(options.now !== undefined ? { now: options.now } : {}),
    });
    await writer.flush();
  } catch (error) {
    // A failed check (a dead agent): what was sent is kept, so that the failed run's report shows it.
    if (checkFailed) await writer.flush().catch(() => undefined);
    throw error;
  } finally {
    writer.close();
  }
}
