import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { REPORT_HEADER_CSP } from '../../evaluation/report/html.js';
import { responses } from '../../http/schemas.js';
import {
  CampaignIdParams,
  CampaignListQuery,
  CampaignListResponse,
  CampaignResultsQuery,
  CampaignStatusResponse,
  CreateCampaignRequest,
  CreateCampaignResponse,
  DownloadQuery,
  LogsQuery,
  RedteamResult,
  ReportQuery,
  StringMap,
  TeamScopeQuery,
  ToolList,
} from './redteam.schemas.js';
import type { RedteamService } from './redteam.service.js';
import type { ResultService } from './results.service.js';

const tags = ['Red Team', 'redteam'];

/** The results as a file, in the format asked for (docs/redteam.md, "Downloads"). */
const ResultsFile = Type.Unsafe<string>({
  description: 'The results as a file: results_diamond_security_{campaign_id}.json, .jsonl or .csv',
  content: {
    'application/json': { schema: { type: 'object', additionalProperties: true } },
    'application/x-ndjson': { schema: { type: 'string' } },
    'text/csv': { schema: { type: 'string' } },
  },
});

/** The campaign's report: an HTML page or a PDF (docs/redteam.md, "Reports"). */
const ReportFile = Type.Unsafe<string | Buffer>({
  description: 'The report: warden-redteam-report-{campaign_id}.html or .pdf',
  content: {
    'text/html': { schema: { type: 'string' } },
    'application/pdf': { schema: { type: 'string', format: 'binary' } },
  },
});

export const redteamRoutes: FastifyPluginAsyncTypebox<{ redteam: RedteamService; results: ResultService }> = async (app, { redteam, results }) => {
  app.get(
    '/v1/tools',
    {
      schema: {
        tags,
        summary: 'The red-team tools this installation runs and the attack categories each covers',
        response: responses({ 200: ToolList }, 401, 403),
      },
    },
    async (request) => redteam.tools(request.principal),
  );

  app.post(
    '/v1/campaigns',
    {
      schema: {
        tags,
        summary: 'Start a red-team campaign against an agent of the registry (agent_id) or an endpoint (agent_url); answers at once',
        body: CreateCampaignRequest,
        response: responses({ 202: CreateCampaignResponse }, 400, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(202).send(await redteam.create(request.principal, request.body)),
  );

  app.get(
    '/v1/campaigns',
    {
      schema: {
        tags,
        summary: "Campaigns of the caller's teams (or of team_id), newest first",
        querystring: CampaignListQuery,
        response: responses({ 200: CampaignListResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => redteam.list(request.principal, request.query),
  );

  app.get(
    '/v1/campaigns/:campaign_id',
    {
      schema: {
        tags,
        summary: "A campaign's status and progress",
        params: CampaignIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: CampaignStatusResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => redteam.get(request.principal, request.params.campaign_id, request.query.team_id),
  );

  app.delete(
    '/v1/campaigns/:campaign_id',
    {
      schema: {
        tags,
        summary: 'Delete a campaign and its findings (a running one stops)',
        params: CampaignIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: StringMap('Response Delete Campaign') }, 401, 403, 404, 422),
      },
    },
    async (request) => redteam.remove(request.principal, request.params.campaign_id, request.query.team_id),
  );

  app.get(
    '/v1/campaigns/:campaign_id/results',
    {
      schema: {
        tags,
        summary: 'The findings and summary (a campaign still running answers those so far)',
        params: CampaignIdParams,
        querystring: CampaignResultsQuery,
        response: responses({ 200: RedteamResult }, 401, 403, 404, 422),
      },
    },
    async (request) => results.results(request.principal, request.params.campaign_id, request.query.team_id, request.query.offset),
  );

  app.get(
    '/v1/campaigns/:campaign_id/results/download',
    {
      schema: {
        tags,
        summary: 'The results as a file: JSON (the results), JSONL or CSV (one finding a line)',
        params: CampaignIdParams,
        querystring: DownloadQuery,
        produces: ['application/json', 'application/x-ndjson', 'text/csv'],
        response: responses({ 200: ResultsFile }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      const file = await results.download(request.principal, request.params.campaign_id, request.query.team_id, request.query.format);
      return reply
        .header('content-type', file.contentType)
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .send(file.body);
    },
  );

  app.get(
    '/v1/campaigns/:campaign_id/report',
    {
      schema: {
        tags,
        summary:
          'The campaign report (an addition): verdict, top risks, success rates, successful attacks, OWASP / ATLAS mapping, suggested Dome configuration',
        params: CampaignIdParams,
        querystring: ReportQuery,
        produces: ['text/html', 'application/pdf'],
        response: responses({ 200: ReportFile }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => {
      const format = request.query.format;
      const report = await results.report(request.principal, request.params.campaign_id, request.query.team_id, format);
      if (format === 'pdf') {
        return reply.header('content-type', 'application/pdf').header('content-disposition', `attachment; filename="${report.fileName}"`).send(report.body);
      }
      return reply
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-disposition', `inline; filename="${report.fileName}"`)
        .header('content-security-policy', REPORT_HEADER_CSP)
        .send(report.body);
    },
  );

  app.get(
    '/v1/campaigns/:campaign_id/logs',
    {
      schema: {
        tags,
        summary: "The campaign's log (its last lines), as text",
        params: CampaignIdParams,
        querystring: LogsQuery,
        response: responses({ 200: StringMap('Response Get Campaign Logs') }, 401, 403, 404, 422),
      },
    },
    async (request) => redteam.logs(request.principal, request.params.campaign_id, request.query.team_id, request.query.limit),
  );

  app.post(
    '/v1/campaigns/:campaign_id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel a campaign that has not ended (its findings so far stay)',
        params: CampaignIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: StringMap('Response Cancel Campaign') }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => redteam.cancel(request.principal, request.params.campaign_id, request.query.team_id),
  );
};
