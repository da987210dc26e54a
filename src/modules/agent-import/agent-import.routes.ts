import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses } from '../../http/schemas.js';
import { AgentCreateQuery } from '../agents/agents.schemas.js';
import { UnifiedImportRequest, UnifiedImportResponse, UnifiedValidationResponse } from './agent-import.schemas.js';
import type { AgentImportService } from './agent-import.service.js';

const tags = ['Agent Environment', 'agent-import'];

export const agentImportRoutes: FastifyPluginAsyncTypebox<{ agentImport: AgentImportService }> = async (app, { agentImport }) => {
  app.post(
    '/v1/agent-configurations/import/validate',
    {
      schema: {
        tags,
        summary: 'Check an import without saving: what is wrong, the access level, and the agent card found',
        body: UnifiedImportRequest,
        response: responses({ 200: UnifiedValidationResponse }, 401, 403, 422),
      },
    },
    async (request) => agentImport.validate(request.principal, request.body),
  );

  app.post(
    '/v1/agent-configurations/import',
    {
      schema: {
        tags,
        summary: 'Import an agent from exactly one of agent_url (black box), agent_card (grey box) or source_code (white box)',
        querystring: AgentCreateQuery,
        body: UnifiedImportRequest,
        response: responses({ 201: UnifiedImportResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await agentImport.import(request.principal, request.query.team_id, request.body)),
  );
};
