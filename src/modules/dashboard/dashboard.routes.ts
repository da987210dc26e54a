import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { DashboardQuery, DashboardResponse } from './dashboard.schemas.js';
import type { DashboardService } from './dashboard.service.js';

export const dashboardRoutes: FastifyPluginAsyncTypebox<{ dashboard: DashboardService }> = async (app, { dashboard }) => {
  app.get(
    '/v1/dashboard/trust',
    {
      schema: {
        tags: ['Agent Environment', 'dashboard'],
        summary: 'The trust dashboard of your team: agents by stage, time to trust, time in stage, protection and latest scores',
        querystring: DashboardQuery,
        response: responses({ 200: DashboardResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => dashboard.trust(request.principal, request.query.team_id),
  );
};
