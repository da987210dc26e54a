import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.js';
import type { DetectionService } from './detections.service.js';
import {
  AgentConstraints,
  AgentDomeConfigResponse,
  AgentIdParams,
  AgentTeamQuery,
  ConfigIdParams,
  DefaultDomeConfig,
  DetectionIdParams,
  DetectionRequest,
  DetectionResponse,
  DomeConfigCreate,
  DomeConfigListQuery,
  DomeConfigListResponse,
  DomeConfigPatch,
  DomeConfigResponse,
  DomeConfigUpdate,
  RegisterDomeRequest,
  RegisterDomeResponse,
  ScanRequest,
  ScanResponse,
  TeamScopeQuery,
  WebhookHeaders,
} from './dome.schemas.js';
import type { DomeService } from './dome.service.js';

const { 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 } = errorResponses;
const tags = ['Dome', 'dome-configs'];
const NoContent = Type.Null({ description: 'Deleted' });

export const domeRoutes: FastifyPluginAsyncTypebox<{ dome: DomeService; detections: DetectionService }> = async (app, { dome, detections }) => {
  app.post(
    '/v1/dome-configs',
    {
      schema: {
        tags,
        summary: 'Save a Dome configuration (the default one when config_body is absent), validated',
        querystring: TeamScopeQuery,
        body: DomeConfigCreate,
        response: { 201: DomeConfigResponse, 400: e400, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request, reply) => reply.code(201).send(await dome.create(request.principal, request.query.team_id, request.body)),
  );

  app.get(
    '/v1/dome-configs',
    {
      schema: {
        tags,
        summary: "List a team's Dome configurations, oldest first",
        querystring: DomeConfigListQuery,
        response: { 200: DomeConfigListResponse, 400: e400, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.list(request.principal, request.query),
  );

  app.get(
    '/v1/dome-configs/:config_id',
    {
      schema: {
        tags,
        summary: 'A Dome configuration',
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        response: { 200: DomeConfigResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.get(request.principal, request.params.config_id, request.query.team_id),
  );

  app.put(
    '/v1/dome-configs/:config_id',
    {
      schema: {
        tags,
        summary: "Replace a Dome configuration's body (validated; an applied one takes effect at once)",
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        body: DomeConfigUpdate,
        response: { 200: DomeConfigResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.replace(request.principal, request.params.config_id, request.query.team_id, request.body.config_body),
  );

  app.patch(
    '/v1/dome-configs/:config_id',
    {
      schema: {
        tags,
        summary: 'Set or clear the Dome instance URL',
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        body: DomeConfigPatch,
        response: { 200: DomeConfigResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.patch(request.principal, request.params.config_id, request.query.team_id, request.body.dome_instance_url),
  );

  app.delete(
    '/v1/dome-configs/:config_id',
    {
      schema: {
        tags,
        summary: 'Delete a Dome configuration (agents that applied it lose it)',
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        response: { 204: NoContent, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request, reply) => {
      await dome.remove(request.principal, request.params.config_id, request.query.team_id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/v1/dome-configs/:config_id/apply',
    {
      schema: {
        tags,
        summary: 'Apply a configuration to the agent it is bound to (protection_status: configured)',
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        response: { 200: DomeConfigResponse, 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
      },
    },
    async (request) => dome.apply(request.principal, request.params.config_id, request.query.team_id),
  );

  app.post(
    '/v1/dome-configs/:config_id/scan',
    {
      schema: {
        tags,
        summary: "Run the configuration's input or output guards on a text (Dome's scan result)",
        params: ConfigIdParams,
        querystring: TeamScopeQuery,
        body: ScanRequest,
        response: { 200: ScanResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.scan(request.principal, request.params.config_id, request.query.team_id, request.body.direction, request.body.text),
  );

  app.get(
    '/v1/default-dome-config',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The default Dome configuration: flags prompt injections and jailbreaks (no credential needed)',
        response: { 200: DefaultDomeConfig },
      },
    },
    async () => dome.defaultConfig(),
  );

  app.get(
    '/v1/agent-configurations/:agent_id/dome-configs',
    {
      schema: {
        tags: ['Agent Environment', 'agent-configurations'],
        summary: 'The Dome configuration the agent uses: the one applied to it, else the newest bound to it',
        params: AgentIdParams,
        querystring: AgentTeamQuery,
        response: { 200: AgentDomeConfigResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.agentConfig(request.principal, request.params.agent_id, request.query.team_id),
  );

  app.get(
    '/v1/agents/:agent_id/constraints',
    {
      schema: {
        tags: ['Agent Environment', 'Trust Runtime'],
        summary: "The agent's trust constraints (the guards applied to it), as the SDK's Trust Runtime reads them at boot",
        params: AgentIdParams,
        response: { 200: AgentConstraints, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.constraints(request.principal, request.params.agent_id),
  );

  app.post(
    '/v1/webhooks/register-dome',
    {
      config: { credentialHeader: 'x-webhook-api-key' },
      schema: {
        tags: ['Dome', 'webhooks'],
        summary: 'A Dome instance registers for an agent (API key in X-Webhook-Api-Key or as a Bearer token; idempotent)',
        headers: WebhookHeaders,
        body: RegisterDomeRequest,
        response: { 200: RegisterDomeResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => dome.registerDome(request.principal, request.body),
  );

  app.post(
    '/v1/detections',
    {
      schema: {
        tags: ['Dome', 'detections'],
        summary: 'Run one guard method on each input (answered COMPLETED at once)',
        querystring: TeamScopeQuery,
        body: DetectionRequest,
        response: { 201: DetectionResponse, 400: e400, 401: e401, 403: e403, 404: e404, 409: e409, 422: e422 },
      },
    },
    async (request, reply) => reply.code(201).send(await detections.create(request.principal, request.query.team_id, request.body)),
  );

  app.get(
    '/v1/detections/:detection_id',
    {
      schema: {
        tags: ['Dome', 'detections'],
        summary: 'A detection and its outputs',
        params: DetectionIdParams,
        response: { 200: DetectionResponse, 401: e401, 403: e403, 404: e404, 422: e422 },
      },
    },
    async (request) => detections.get(request.principal, request.params.detection_id),
  );
};
