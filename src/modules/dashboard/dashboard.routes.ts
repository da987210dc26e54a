import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.js';
import { DashboardQuery, DashboardResponse } from './dashboard.schemas.js';
import type { DashboardService } from './dashboard.service.js';

const { 400: e400, 401: e401, 403: e403, 404: e404, 422: e422 } = errorResponses;

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/v1/dashboard/trust',
    {
      schema: {
        tags: ['Agent Environment', 'dashboard'],
        summary: 'The trust dashboard of your team: agents by stage, time to trust, time in stage, protection and latest scores',
        querystring: DashboardQuery,
        response: { 200: DashboardResponse, 400: e400, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dashboard.trust(request.principal, request.query.team_id),
  );
};
