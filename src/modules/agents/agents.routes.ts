import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { responses, IdParams } from '../../http/schemas.js';
import {
  Agent,
  AgentConfigListResponse,
  AgentCreate,
  AgentCreateQuery,
  AgentGetQuery,
  AgentLifecycleUpdate,
  AgentListQuery,
  AgentUpdate,
  LifecycleHistory,
  LifecycleHistoryQuery,
} from './agents.schemas.js';
import type { AgentService } from './agents.service.js';
import { AgentEvaluationConfig } from './agents.views.js';

const tags = ['Agent Environment', 'agent-configurations'];

export const agentRoutes: FastifyPluginAsyncTypebox<{ agents: AgentService }> = async (app, { agents }) => {
  app.post(
    '/v1/agent-configurations/',
    {
      schema: {
        tags,
        summary: 'Register an agent',
        querystring: AgentCreateQuery,
        body: AgentCreate,
        response: responses({ 201: Agent }, 400, 401, 403, 404, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await agents.create(request.principal, request.query.team_id, request.body)),
  );

  app.get(
    '/v1/agent-configurations/',
    {
      // Answered from memory until the next commit, per credential and URL (docs/caching.md).
      config: { cacheable: true },
      schema: {
        tags,
        summary: "List your team's agents",
        querystring: AgentListQuery,
        response: responses({ 200: AgentConfigListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => agents.list(request.principal, request.query),
  );

  app.get(
    '/v1/agent-configurations/:id',
    {
      schema: {
        tags,
        summary: 'Get an agent',
        params: IdParams,
        querystring: AgentGetQuery,
        response: responses({ 200: Agent }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.get(request.principal, request.params.id, request.query.include_scores),
  );

  app.put(
    '/v1/agent-configurations/:id',
    {
      schema: {
        tags,
        summary: "Update an agent's configuration (absent fields are left as they are)",
        params: IdParams,
        body: AgentUpdate,
        response: responses({ 200: Agent }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.update(request.principal, request.params.id, request.body),
  );

  app.put(
    '/v1/agent-configurations/:id/archive',
    {
      schema: {
        tags,
        summary: 'Archive an agent',
        params: IdParams,
        response: responses({ 200: Agent }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.archive(request.principal, request.params.id),
  );

  app.put(
    '/v1/agent-configurations/:id/lifecycle',
    {
      schema: {
        tags,
        summary: "Move an agent's trust lifecycle stage ('hardened' captures trusted_at and ttt_days)",
        params: IdParams,
        body: AgentLifecycleUpdate,
        response: responses({ 200: Agent }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.updateLifecycle(request.principal, request.params.id, request.body.trust_stage),
  );

  app.get(
    '/v1/agent-configurations/:id/evaluation-config',
    {
      schema: {
        tags,
        summary: 'What an evaluation needs to call the agent (its api key masked)',
        params: IdParams,
        response: responses({ 200: AgentEvaluationConfig }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.evaluationConfig(request.principal, request.params.id),
  );

  app.get(
    '/v1/agent-configurations/:id/lifecycle/history',
    {
      schema: {
        tags,
        summary: "An agent's trust stage changes, oldest first (who, when, from, to)",
        params: IdParams,
        querystring: LifecycleHistoryQuery,
        response: responses({ 200: LifecycleHistory }, 401, 403, 404, 422),
      },
    },
    async (request) => agents.lifecycleHistory(request.principal, request.params.id, request.query.limit, request.query.offset),
  );
};
