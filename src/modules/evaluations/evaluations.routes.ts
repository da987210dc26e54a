import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { REPORT_HEADER_CSP } from '../../evaluation/report/html.js';
import { responses } from '../../http/schemas.js';
import {
  CompletedListQuery,
  CreateEvaluationRequest,
  CreateEvaluationResponse,
  EvaluationIdParams,
  EvaluationListAll,
  EvaluationListQuery,
  EvaluationListResponse,
  EvaluationStatusResponse,
  EvaluationSummaryListResponse,
  EvaluationSummaryResponse,
  GenerateReportQuery,
  GenerateReportResponse,
  HarnessListQuery,
  HarnessListResponse,
  HtmlBody,
  LogsQuery,
  PdfBody,
  ReportQuery,
  ResultsQuery,
  ResultsResponse,
  StringMap,
  SummaryListQuery,
  TeamScopeQuery,
} from './evaluations.schemas.js';
import type { EvaluationService } from './evaluations.service.js';
import type { ReportService } from './reports.service.js';
import type { ResultService } from './results.service.js';

const evaluationTags = ['Diamond', 'evaluations'];
const resultTags = ['Diamond', 'evaluation-results'];
const summaryTags = ['Diamond', 'evaluation-summaries'];
const NoContent = Type.Null({ description: 'Deleted' });

const sendHtml = (reply: FastifyReply, report: { html: string; fileName: string }) =>
  reply
    .header('content-type', 'text/html; charset=utf-8')
    .header('content-disposition', `inline; filename="${report.fileName}"`)
    .header('content-security-policy', REPORT_HEADER_CSP)
    .send(report.html);

const sendPdf = (reply: FastifyReply, report: { pdf: Buffer; fileName: string }) =>
  reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${report.fileName}"`).send(report.pdf);

export interface EvaluationRouteServices {
  evaluations: EvaluationService;
  results: ResultService;
  reports: ReportService;
}

export const evaluationRoutes: FastifyPluginAsyncTypebox<EvaluationRouteServices> = async (app, { evaluations, results, reports }) => {
  app.post(
    '/v1/evaluations/',
    {
      schema: {
        tags: evaluationTags,
        summary: 'Start an evaluation: a background job sends the harnesses\' prompts to the agent and scores its answers',
        body: CreateEvaluationRequest,
        response: responses({ 202: CreateEvaluationResponse }, 400, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(202).send(await evaluations.create(request.principal, request.body)),
  );

  app.get(
    '/v1/evaluations/',
    {
      schema: {
        tags: evaluationTags,
        summary: "The caller's evaluations (running and ended), newest first",
        querystring: EvaluationListQuery,
        response: responses({ 200: EvaluationListAll }, 401, 403, 404, 422),
      },
    },
    async (request) => evaluations.list(request.principal, request.query),
  );

  app.get(
    '/v1/evaluations/:evaluation_id',
    {
      schema: {
        tags: evaluationTags,
        summary: 'An evaluation\'s status, progress ("120 of 400 prompts") and, once completed, per-harness scores',
        params: EvaluationIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: EvaluationStatusResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => evaluations.get(request.principal, request.params.evaluation_id, request.query.team_id),
  );

  app.delete(
    '/v1/evaluations/:evaluation_id',
    {
      schema: {
        tags: evaluationTags,
        summary: 'Delete an evaluation, its results and reports (a running one stops)',
        params: EvaluationIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: StringMap('Response Delete Evaluation') }, 401, 403, 404, 422),
      },
    },
    async (request) => evaluations.remove(request.principal, request.params.evaluation_id, request.query.team_id),
  );

  app.post(
    '/v1/evaluations/:evaluation_id/cancel',
    {
      schema: {
        tags: evaluationTags,
        summary: 'Cancel a running evaluation: it stops sending at once and keeps what it stored',
        params: EvaluationIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: StringMap('Response Cancel Evaluation') }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => evaluations.cancel(request.principal, request.params.evaluation_id, request.query.team_id),
  );

  app.get(
    '/v1/evaluations/:evaluation_id/logs',
    {
      schema: {
        tags: evaluationTags,
        summary: "The run's log: { logs: one line per entry, oldest first }",
        params: EvaluationIdParams,
        querystring: LogsQuery,
        response: responses({ 200: StringMap('Response Get Evaluation Logs') }, 401, 403, 404, 422),
      },
    },
    async (request) => evaluations.logs(request.principal, request.params.evaluation_id, request.query.team_id, request.query.limit),
  );

  app.get(
    '/v1/evaluations/:evaluation_id/html',
    {
      schema: {
        tags: evaluationTags,
        summary: 'The HTML trust report of an ended evaluation (completed, failed or cancelled; self-contained, charts as inline SVG)',
        params: EvaluationIdParams,
        querystring: ReportQuery,
        response: responses({ 200: HtmlBody }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => sendHtml(reply, await reports.html(request.principal, request.params.evaluation_id, request.query.team_id)),
  );

  app.get(
    '/v1/evaluations/:evaluation_id/pdf',
    {
      schema: {
        tags: evaluationTags,
        summary: 'The PDF trust report of an ended evaluation (completed, failed or cancelled; vector charts)',
        params: EvaluationIdParams,
        querystring: ReportQuery,
        response: responses({ 200: PdfBody }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => sendPdf(reply, await reports.pdf(request.principal, request.params.evaluation_id, request.query.team_id)),
  );

  app.post(
    '/v1/evaluations/:evaluation_id/report',
    {
      schema: {
        tags: evaluationTags,
        summary: 'Render both reports now (cached until force_regenerate=true) and answer where to get them',
        params: EvaluationIdParams,
        querystring: GenerateReportQuery,
        response: responses({ 200: GenerateReportResponse }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => reports.generate(request.principal, request.params.evaluation_id, request.query.team_id, request.query.force_regenerate),
  );

  // ------------------------------------------------------------------ evaluation-results

  app.get(
    '/v1/evaluation-results/',
    {
      schema: {
        tags: resultTags,
        summary: "A team's completed evaluations, newest first",
        querystring: CompletedListQuery,
        response: responses({ 200: EvaluationListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => results.completed(request.principal, request.query),
  );

  app.get(
    '/v1/evaluation-results/:evaluation_id/results',
    {
      schema: {
        tags: resultTags,
        summary: 'One row per prompt (prompt, response, detector scores, passed, reason) and the scores',
        params: EvaluationIdParams,
        querystring: ResultsQuery,
        response: responses({ 200: ResultsResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => results.results(request.principal, request.params.evaluation_id, request.query),
  );

  app.get(
    '/v1/evaluation-results/:evaluation_id/report',
    {
      schema: {
        tags: resultTags,
        summary: 'The PDF report (as GET /v1/evaluations/{id}/pdf)',
        params: EvaluationIdParams,
        querystring: ReportQuery,
        response: responses({ 200: PdfBody }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => sendPdf(reply, await reports.pdf(request.principal, request.params.evaluation_id, request.query.team_id)),
  );

  app.get(
    '/v1/evaluation-results/:evaluation_id/report.html',
    {
      schema: {
        tags: resultTags,
        summary: 'The HTML report (as GET /v1/evaluations/{id}/html)',
        params: EvaluationIdParams,
        querystring: ReportQuery,
        response: responses({ 200: HtmlBody }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => sendHtml(reply, await reports.html(request.principal, request.params.evaluation_id, request.query.team_id)),
  );

  // ------------------------------------------------------------------ evaluation-summaries

  app.get(
    '/v1/evaluation-summaries/',
    {
      schema: {
        tags: summaryTags,
        summary: "A team's evaluation summaries (scores and metadata), newest first, with filters",
        querystring: SummaryListQuery,
        response: responses({ 200: EvaluationSummaryListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => results.summaries(request.principal, request.query),
  );

  app.get(
    '/v1/evaluation-summaries/latest-by-agent',
    {
      schema: {
        tags: summaryTags,
        summary: "Each agent's newest completed evaluation summary",
        querystring: TeamScopeQuery,
        response: responses({ 200: EvaluationSummaryListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => results.latestByAgent(request.principal, request.query.team_id),
  );

  app.get(
    '/v1/evaluation-summaries/:evaluation_id',
    {
      schema: {
        tags: summaryTags,
        summary: 'An evaluation summary',
        params: EvaluationIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: EvaluationSummaryResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => results.summary(request.principal, request.params.evaluation_id, request.query.team_id),
  );

  app.delete(
    '/v1/evaluation-summaries/:evaluation_id',
    {
      schema: {
        tags: summaryTags,
        summary: 'Remove a summary (the evaluation, its results and reports stay)',
        params: EvaluationIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await results.deleteSummary(request.principal, request.params.evaluation_id, request.query.team_id);
      return reply.code(204).send(null);
    },
  );

  // ------------------------------------------------------------------ harnesses

  app.get(
    '/v1/harnesses/',
    {
      schema: {
        tags: ['Diamond', 'harnesses'],
        summary: 'The standard harnesses (global, read-only): name, pillar, scenarios, prompts',
        querystring: HarnessListQuery,
        response: responses({ 200: HarnessListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => results.harnesses(request.principal, request.query.team_id),
  );
};
