import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import {
  CancelResponse,
  CustomHarness,
  CustomHarnessCreate,
  CustomHarnessListQuery,
  CustomHarnessListResponse,
  CustomHarnessResponse,
  HarnessIdParams,
  HarnessPromptsResponse,
  TeamScopeQuery,
} from './custom-harnesses.schemas.js';
import type { CustomHarnessService } from './custom-harnesses.service.js';

const tags = ['Diamond', 'custom-harnesses'];
const NoContent = Type.Null({ description: 'Deleted' });

export const customHarnessRoutes: FastifyPluginAsyncTypebox<{ customHarnesses: CustomHarnessService }> = async (app, { customHarnesses }) => {
  app.post(
    '/v1/custom-harnesses/',
    {
      schema: {
        tags,
        summary: "Create a custom harness (draft); a job writes its prompts from the agent's purpose, the personas and the policies' approved rules",
        querystring: TeamScopeQuery,
        body: CustomHarnessCreate,
        response: responses({ 201: CustomHarness }, 400, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await customHarnesses.create(request.principal, request.query.team_id, request.body)),
  );

  app.get(
    '/v1/custom-harnesses/',
    {
      schema: {
        tags,
        summary: "A team's custom harnesses, newest first",
        querystring: CustomHarnessListQuery,
        response: responses({ 200: CustomHarnessListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => customHarnesses.list(request.principal, request.query),
  );

  app.get(
    '/v1/custom-harnesses/:harness_id',
    {
      schema: {
        tags,
        summary: 'A custom harness and its generation workflow',
        params: HarnessIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: CustomHarnessResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => customHarnesses.get(request.principal, request.params.harness_id, request.query.team_id),
  );

  app.delete(
    '/v1/custom-harnesses/:harness_id',
    {
      schema: {
        tags,
        summary: 'Delete a custom harness and its prompts (a generation in progress stops)',
        params: HarnessIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await customHarnesses.remove(request.principal, request.params.harness_id, request.query.team_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/custom-harnesses/:harness_id/cancel',
    {
      schema: {
        tags,
        summary: 'Cancel the generation of a draft harness (it ends failed)',
        params: HarnessIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: CancelResponse }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => customHarnesses.cancel(request.principal, request.params.harness_id, request.query.team_id),
  );

  app.get(
    '/v1/custom-harnesses/:harness_id/prompts',
    {
      schema: {
        tags,
        summary: 'The prompts of a custom harness, each with its pass criteria and lineage (empty while a draft)',
        params: HarnessIdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: HarnessPromptsResponse }, 401, 403, 404, 422),
      },
    },
    async (request) => customHarnesses.prompts(request.principal, request.params.harness_id, request.query.team_id),
  );
};
