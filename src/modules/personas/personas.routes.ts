import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { responses, IdParams, Nullable } from '../../http/schemas.js';
import {
  CreateFromPresetRequest,
  Persona,
  PersonaCreate,
  PersonaListQuery,
  PersonaListResponse,
  PersonaUpdate,
  PresetIdParams,
  PresetListQuery,
  TeamScopeQuery,
} from './personas.schemas.js';
import type { PersonaService } from './personas.service.js';

const tags = ['Agent Environment', 'personas'];
const NoContent = Type.Null({ description: 'Deleted' });

export const personaRoutes: FastifyPluginAsyncTypebox<{ personas: PersonaService }> = async (app, { personas }) => {
  app.post(
    '/v1/personas/',
    {
      schema: {
        tags,
        summary: 'Create a persona (persona:write on the team_id of the body)',
        body: PersonaCreate,
        response: responses({ 201: Persona }, 401, 403, 404, 409, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await personas.create(request.principal, request.body)),
  );

  app.get(
    '/v1/personas/',
    {
      schema: {
        tags,
        summary: "List a team's personas",
        querystring: PersonaListQuery,
        response: responses({ 200: PersonaListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => personas.list(request.principal, request.query),
  );

  app.get(
    '/v1/personas/presets/',
    {
      schema: {
        tags,
        summary: 'List the system preset personas',
        querystring: PresetListQuery,
        response: responses({ 200: PersonaListResponse }, 400, 401, 403, 404, 422),
      },
    },
    async (request) => personas.listPresets(request.principal, request.query),
  );

  // The body is optional (the reference): an empty body sent as application/json is no body
  // (app.ts), as in the reference service.
  app.post(
    '/v1/personas/from-preset/:preset_id',
    {
      schema: {
        tags,
        summary: 'Create a team persona from a system preset',
        params: PresetIdParams,
        querystring: TeamScopeQuery,
        body: Nullable(CreateFromPresetRequest),
        response: responses({ 201: Persona }, 400, 401, 403, 404, 422),
      },
    },
    async (request, reply) =>
      reply
        .code(201)
        .send(await personas.createFromPreset(request.principal, request.params.preset_id, request.body?.name_override, request.query.team_id)),
  );

  app.get(
    '/v1/personas/:id',
    {
      schema: {
        tags,
        summary: 'Get a persona (a team persona or a system preset)',
        params: IdParams,
        querystring: TeamScopeQuery,
        response: responses({ 200: Persona }, 401, 403, 404, 422),
      },
    },
    async (request) => personas.get(request.principal, request.params.id, request.query.team_id),
  );

  app.put(
    '/v1/personas/:id',
    {
      schema: {
        tags,
        summary: 'Update a persona (absent fields are left as they are)',
        params: IdParams,
        body: PersonaUpdate,
        response: responses({ 200: Persona }, 401, 403, 404, 422),
      },
    },
    async (request) => personas.update(request.principal, request.params.id, request.body),
  );

  app.delete(
    '/v1/personas/:id',
    {
      schema: {
        tags,
        summary: 'Delete a persona',
        params: IdParams,
        response: responses({ 204: NoContent }, 401, 403, 404, 422),
      },
    },
    async (request, reply) => {
      await personas.remove(request.principal, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
