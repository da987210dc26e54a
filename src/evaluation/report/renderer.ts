import { Worker } from 'node:worker_threads';
import type { EvaluationReportModel } from '../types.js';
import { renderEvaluationHtml } from './html.js';
import { renderEvaluationPdf } from './pdf.js';

export interface RenderedReport {
  html: string;
  pdf: Buffer;
}

/** Renders an evaluation's HTML and PDF reports (docs/evaluations.md, "Reports"). */
export interface ReportRenderer {
  render(model: EvaluationReportModel): Promise<RenderedReport>;
  close(): Promise<void>;
}

/**
 * Renders on the calling thread: the reports of a large evaluation then hold the event loop for
 * as long as they take (up to seconds). For embedding Warden's app and for the in-process tests;
 * the service (runtime.ts) renders in a worker thread instead.
 */
export const inProcessReportRenderer: ReportRenderer = {
  render: async (model) => ({ html: renderEvaluationHtml(model), pdf: await renderEvaluationPdf(model) }),
  close: async () => undefined,
};

/** A worker thread's heap bound: a report's model is bounded (a few failures per probe), this is ample. */
const WORKER_HEAP_MB = 128;

interface WorkerReply {
  id: number;
  html?: string;
  pdf?: Uint8Array;
  error?: string;
}

/**
 * Renders in a worker thread (render-worker.ts), so that building a report never blocks the event
 * loop that answers requests. The worker starts with a report and stops once none waits (its heap
 * is given back: reports are rare, starting one costs tens of milliseconds off the loop). Reports
 * queue in the worker; a worker that dies fails what it held, and the next report starts a new one.
 */
export function workerReportRenderer(): ReportRenderer {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(report: RenderedReport): void; reject(error: Error): void }>();

  function failAll(error: Error): void {
    for (const entry of waiting.values()) entry.reject(error);
    waiting.clear();
  }

  function start(): Worker {
    const started = new Worker(new URL('./render-worker.js', import.meta.url), { resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB } });
    started.on('message', (reply: WorkerReply) => {
      const entry = waiting.get(reply.id);
      if (entry === undefined) return;
      waiting.delete(reply.id);
      if (reply.error !== undefined || reply.html === undefined || reply.pdf === undefined) {
        entry.reject(new Error(`The report could not be rendered: ${reply.error ?? 'no output'}`));
      } else entry.resolve({ html: reply.html, pdf: Buffer.from(reply.pdf.buffer, reply.pdf.byteOffset, reply.pdf.byteLength) });
    });
    started.on('error', (error) => {
      if (worker !== started) return;
      worker = undefined;
      failAll(new Error(`The report renderer failed: ${error.message}`));
    });
    started.on('exit', () => {
      if (worker !== started) return; // stopped once idle, or replaced
      worker = undefined;
      failAll(new Error('The report renderer stopped'));
    });
    return started;
  }

  return {
    render(model) {
      worker ??= start();
      const id = nextId++;
      const current = worker;
      return new Promise<RenderedReport>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        current.postMessage({ id, model });
      }).finally(() => {
        if (waiting.size > 0 || worker !== current) return;
        worker = undefined;
        void current.terminate();
      });
    },
    async close() {
      const current = worker;
      worker = undefined;
      if (current !== undefined) await current.terminate();
      failAll(new Error('The report renderer was closed'));
    },
  };
}
