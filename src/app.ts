import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { ServiceKeys } from './crypto/keys.js';
import type { Database } from './db/database.js';
import type { Deps } from './deps.js';
import { registerAuthentication } from './http/auth.js';
import { registerErrorHandling } from './http/error-handler.js';
import { HTTPError, HTTPValidationError, ValidationErrorSchema } from './http/schemas.js';
import { validatorCompiler } from './http/validation.js';
import { nowSeconds } from './ids.js';
import { agentRoutes } from './modules/agents/agents.routes.js';
import { createAgentService } from './modules/agents/agents.service.js';
import { apiKeyRoutes, authTokenRoutes } from './modules/auth/auth.routes.js';
import { createAuthService } from './modules/auth/auth.service.js';
import { identityRoutes } from './modules/identity/identity.routes.js';
import { createIdentityService } from './modules/identity/identity.service.js';

export interface AppOptions {
  database: Database;
  keys: ServiceKeys;
  dataDir: string;
  passwordHashCost: number;
  tokenTtlSeconds: number;
  /** Epoch seconds; tests inject a clock they control. */
  now?: () => number;
  logger?: FastifyServerOptions['logger'];
  /** Largest JSON body accepted, in bytes. */
  bodyLimit?: number;
}

export function buildServices(deps: Deps) {
  return {
    auth: createAuthService(deps),
    identity: createIdentityService(deps),
    agents: createAgentService(deps),
  };
}
export type Services = ReturnType<typeof buildServices>;

declare module 'fastify' {
  interface FastifyInstance {
    services: Services;
  }
}

/** Builds the whole service without listening: main.ts listens, tests use `inject`. Reads no env. */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const deps: Deps = {
    db: options.database.db,
    dialect: options.database.dialect,
    keys: options.keys,
    now: options.now ?? nowSeconds,
    passwordHashCost: options.passwordHashCost,
    tokenTtlSeconds: options.tokenTtlSeconds,
    dataDir: options.dataDir,
  };
  const services = buildServices(deps);

  const app = Fastify({
    logger: options.logger ?? false,
    bodyLimit: options.bodyLimit ?? 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: true },
    ajv: { customOptions: { strict: false } },
  });
  app.setValidatorCompiler(validatorCompiler);
  // JSON only: any other content type is a 415, not a string that fails validation.
  app.removeContentTypeParser('text/plain');
  app.decorate('services', services);
  app.addSchema(ValidationErrorSchema);
  app.addSchema(HTTPValidationError);
  app.addSchema(HTTPError);
  registerErrorHandling(app);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Warden API',
        version: '0.1.0',
        description: 'Self-hosted control plane for AI agents. Authenticate with `Authorization: Bearer <token or API key>`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));

  // Every API route lives in this context, behind authentication unless marked public.
  await app.register(async (api) => {
    registerAuthentication(api, services.auth);
    await api.register(authTokenRoutes, { auth: services.auth });
    await api.register(apiKeyRoutes, { auth: services.auth });
    await api.register(identityRoutes, { identity: services.identity });
    await api.register(agentRoutes, { agents: services.agents });
  });

  return app;
}
