/** The worker thread of workerReportRenderer (renderer.ts): renders the reports it is sent, one message at a time. */
import { parentPort } from 'node:worker_threads';
import type { EvaluationReportModel } from '../types.js';
import { renderEvaluationHtml } from './html.js';
import { renderEvaluationPdf } from './pdf.js';

const port = parentPort;
if (port === null) throw new Error('render-worker.js runs as a worker thread');

port.on('message', (message: { id: number; model: EvaluationReportModel }) => {
  void (async () => {
    try {
      const html = renderEvaluationHtml(message.model);
      const pdf = await renderEvaluationPdf(message.model);
      const bytes = new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);
      port.postMessage({ id: message.id, html, pdf: bytes });
    } catch (error) {
      port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
