import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { bearerToken } from '../../http/auth.js';
import { responses, IdParams } from '../../http/schemas.js';
import { ApiKey, ApiKeyCreate, ApiKeyCreated, ApiKeyList, ChangePasswordRequest, Detail, LoginRequest, TokenResponse } from './auth.schemas.js';
import type { AuthService } from './auth.service.js';

export const authTokenRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  const tags = ['Teams', 'auth'];
  app.post(
    '/v1/auth/jwt/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Log in with email and password',
        body: LoginRequest,
        response: responses({ 200: TokenResponse }, 401, 422, 429),
      },
    },
    async (request) => auth.login(request.body.email, request.body.password, request.ip),
  );

  app.post(
    '/v1/auth/jwt/logout',
    {
      config: { beforePasswordChange: true },
      schema: { tags, summary: 'End the current session', response: responses({ 200: Detail }, 400, 401) },
    },
    async (request) => auth.logout(request.principal),
  );

  app.post(
    '/v1/auth/jwt/refresh',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Exchange a valid or recently expired token for a fresh one',
        response: responses({ 200: TokenResponse }, 401),
      },
    },
    async (request) => auth.refresh(bearerToken(request)),
  );

  app.post(
    '/v1/auth/change-password',
    {
      config: { beforePasswordChange: true },
      schema: {
        tags,
        summary: 'Change your password (ends your other sessions)',
        body: ChangePasswordRequest,
        response: responses({ 200: TokenResponse }, 400, 401, 403, 422),
      },
    },
    async (request) => auth.changePassword(request.principal, request.body.current_password, request.body.new_password),
  );
};

export const apiKeyRoutes: FastifyPluginAsyncTypebox<{ auth: AuthService }> = async (app, { auth }) => {
  const tags = ['API keys'];
  app.post(
    '/v1/api-keys/',
    {
      schema: {
        tags,
        summary: 'Create an API key (its secret is shown once)',
        body: ApiKeyCreate,
        response: responses({ 201: ApiKeyCreated }, 400, 401, 403, 422),
      },
    },
    async (request, reply) => reply.code(201).send(await auth.createApiKey(request.principal, request.body)),
  );
  app.get(
    '/v1/api-keys/',
    { schema: { tags, summary: 'List your API keys', response: responses({ 200: ApiKeyList }, 401) } },
    async (request) => auth.listApiKeys(request.principal),
  );
  app.delete(
    '/v1/api-keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke one of your API keys',
        params: IdParams,
        response: responses({ 200: ApiKey }, 401, 404, 422),
      },
    },
    async (request) => auth.revokeApiKey(request.principal, request.params.id),
  );
};
