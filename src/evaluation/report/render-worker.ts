/** The worker thread of workerReportRenderer (renderer.ts): renders the reports it is sent, one message at a time. */
import { parentPort } from 'node:worker_threads';
import { renderEvaluationHtml } from './html.js';
import { renderEvaluationPdf } from './pdf.js';
import { renderCampaign, type WorkerRequest } from './renderer.js';

const port = parentPort;
if (port === null) throw new Error('render-worker.js runs as a worker thread');

const bytesOf = (pdf: Buffer) => new Uint8Array(pdf.buffer, pdf.byteOffset, pdf.byteLength);

port.on('message', (message: WorkerRequest) => {
  void (async () => {
    try {
      if (message.kind === 'campaign') {
        const out = await renderCampaign(message.model, message.format);
        port.postMessage(typeof out === 'string' ? { id: message.id, html: out } : { id: message.id, pdf: bytesOf(out) });
        return;
      }
      const html = renderEvaluationHtml(message.model);
      const pdf = await renderEvaluationPdf(message.model);
      port.postMessage({ id: message.id, html, pdf: bytesOf(pdf) });
    } catch (error) {
      port.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) });
    }
  })();
});
