import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses } from '../../http/schemas.js';
import {
  Policy,
  PolicyCreate,
  PolicyListQuery,
  PolicyListResponse,
  PolicyParams,
  PolicyUpdate,
  PresetCopyQuery,
  PresetListQuery,
  PresetParams,
  TeamQuery,
} from './policies.schemas.js';
import type { PolicyService } from './policies.service.js';

const tags = ['Agent Environment', 'policies'];
const NoContent = Type.Null({ description: 'Deleted' });

export const policyRoutes: FastifyPluginAsyncTypebox<{ policies: PolicyService }> = async (app, { policies }) => {
  app.post(
    '/v1/policies/',
    {
      schema: {
        tags,
        summary: 'Create a policy (in your primary team, or the team_id given)',
        querystring: TeamQuery,
        body: PolicyCreate,
        response: responses({ 201: Policy }, 400, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await policies.create(request.principal, request.query.team_id, request.body)),
  );

  app.get(
    '/v1/policies/',
    {
      schema: {
        tags,
        summary: "List your team's policies",
        querystring: PolicyListQuery,
        response: responses({ 200: PolicyListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => policies.list(request.principal, request.query),
  );

  app.get(
    '/v1/policies/presets/',
    {
      schema: {
        tags,
        summary: 'List the system preset policies',
        querystring: PresetListQuery,
        response: responses({ 200: PolicyListResponse }, 401, 403, 422),
      },
    },
    async (request) => policies.listPresets(request.principal, request.query),
  );

  app.post(
    '/v1/policies/presets/:preset_id/copy',
    {
      schema: {
        tags,
        summary: 'Copy a preset, with its rules (as drafts), into your primary team',
        params: PresetParams,
        querystring: PresetCopyQuery,
        response: responses({ 201: Policy }, 400, 401, 403, 404, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await policies.copyPreset(request.principal, request.params.preset_id, request.query)),
  );

  app.get(
    '/v1/policies/:policy_id',
    { schema: { tags, summary: 'Get a policy (or a preset)', params: PolicyParams, response: responses({ 200: Policy }, 401, 403, 404, 422) } },
    async (request) => policies.get(request.principal, request.params.policy_id),
  );

  app.patch(
    '/v1/policies/:policy_id',
    {
      schema: {
        tags,
        summary: 'Update a policy (status "active" needs every rule approved)',
        params: PolicyParams,
        body: PolicyUpdate,
        response: responses({ 200: Policy }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => policies.update(request.principal, request.params.policy_id, request.body),
  );

  app.delete(
    '/v1/policies/:policy_id',
    {
      schema: {
        tags,
        summary: 'Delete a policy, its rules and its file',
        params: PolicyParams,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await policies.remove(request.principal, request.params.policy_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/policies/:policy_id/activate',
    {
      schema: {
        tags,
        summary: 'Activate a policy (every rule must be approved)',
        params: PolicyParams,
        response: responses({ 200: Policy }, 401, 403, 404, 409, 422),
      },
    },
    async (request) => policies.activate(request.principal, request.params.policy_id),
  );
};
