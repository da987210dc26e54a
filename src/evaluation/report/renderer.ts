import { Worker } from 'node:worker_threads';
import type { EvaluationReportModel } from '../types.js';
import { renderEvaluationHtml } from './html.js';
import type { CampaignReportModel } from './campaign-model.js';
import { renderCampaignHtml } from './campaign-html.js';

export interface RenderedReport {
  html: string;
  pdf: Buffer;
}

/** Renders an evaluation's HTML and PDF reports (docs/evaluations.md, "Reports") and a campaign's (docs/redteam.md, "Reports"). */
export interface ReportRenderer {
  render(model: EvaluationReportModel): Promise<RenderedReport>;
  /** One format of a campaign's report: the HTML page (a string) or the PDF. */
  renderCampaign(model: CampaignReportModel, format: 'html' | 'pdf'): Promise<string | Buffer>;
  close(): Promise<void>;
}

/**
 * The PDF writers (pdfkit, fontkit and the fonts' tables: tens of MB) load where a PDF is first
 * made, the worker thread in the service: the main thread that answers requests never holds them.
 */
const evaluationPdf = async (model: EvaluationReportModel) => (await import('./pdf.js')).renderEvaluationPdf(model);
const campaignPdf = async (model: CampaignReportModel) => (await import('./campaign-pdf.js')).renderCampaignPdf(model);

/** A campaign report in one format, on the calling thread (both renderers and the worker use it). */
export async function renderCampaign(model: CampaignReportModel, format: 'html' | 'pdf'): Promise<string | Buffer> {
  return format === 'html' ? renderCampaignHtml(model) : campaignPdf(model);
}

/**
 * Renders on the calling thread: the reports of a large evaluation then hold the event loop for
 * as long as they take (up to seconds). For embedding Warden's app and for the in-process tests;
 * the service (runtime.ts) renders in a worker thread instead.
 */
export const inProcessReportRenderer: ReportRenderer = {
  render: async (model) => ({ html: renderEvaluationHtml(model), pdf: await evaluationPdf(model) }),
  renderCampaign,
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

/** What the worker is sent: an evaluation's model (both formats) or a campaign's (one format). */
export type WorkerRequest =
  | { id: number; kind: 'evaluation'; model: EvaluationReportModel }
  | { id: number; kind: 'campaign'; model: CampaignReportModel; format: 'html' | 'pdf' };

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * Renders in a worker thread (render-worker.ts), so that building a report never blocks the event
 * loop that answers requests. The worker starts with a report and stops once none waits (its heap
 * is given back: reports are rare, starting one costs tens of milliseconds off the loop). Reports
 * queue in the worker; a worker that dies fails what it held, and the next report starts a new one.
 */
export function workerReportRenderer(): ReportRenderer {
  let worker: Worker | undefined;
  let nextId = 0;
  const waiting = new Map<number, { resolve(reply: WorkerReply): void; reject(error: Error): void }>();

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
      if (reply.error !== undefined || (reply.html === undefined && reply.pdf === undefined)) {
        entry.reject(new Error(`The report could not be rendered: ${reply.error ?? 'no output'}`));
      } else entry.resolve(reply);
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

  function send(request: WithoutId<WorkerRequest>): Promise<WorkerReply> {
    worker ??= start();
    const id = nextId++;
    const current = worker;
    return new Promise<WorkerReply>((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      current.postMessage({ ...request, id });
    }).finally(() => {
      if (waiting.size > 0 || worker !== current) return;
      worker = undefined;
      void current.terminate();
    });
  }

  const toBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

  return {
    async render(model) {
      const reply = await send({ kind: 'evaluation', model });
      if (reply.html === undefined || reply.pdf === undefined) throw new Error('The report could not be rendered: no output');
      return { html: reply.html, pdf: toBuffer(reply.pdf) };
    },
    async renderCampaign(model, format) {
      const reply = await send({ kind: 'campaign', model, format });
      if (format === 'html' && reply.html !== undefined) return reply.html;
      if (format === 'pdf' && reply.pdf !== undefined) return toBuffer(reply.pdf);
      throw new Error('The report could not be rendered: no output');
    },
    async close() {
      const current = worker;
      worker = undefined;
      if (current !== undefined) await current.terminate();
      failAll(new Error('The report renderer was closed'));
    },
  };
}
