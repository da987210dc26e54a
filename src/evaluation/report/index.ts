/**
 * The evaluation report renderers: pure functions of an EvaluationReportModel. The service imports
 * the modules it needs directly (renderer.ts loads the PDF writers only where a PDF is made).
 */
export { renderEvaluationHtml, REPORT_CSP, REPORT_HEADER_CSP } from './html.js';
export { renderEvaluationPdf } from './pdf.js';
export { verdictOf, VERDICT_LABEL, type Verdict } from './content.js';
