/** The evaluation report renderers: pure functions of an EvaluationReportModel. */
export { renderEvaluationHtml, REPORT_CSP, REPORT_HEADER_CSP } from './html.js';
export { renderEvaluationPdf } from './pdf.js';
export { verdictOf, VERDICT_LABEL, type Verdict } from './content.js';
