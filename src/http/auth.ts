import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { Principal } from '../modules/auth/permissions.js';
import { unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route that is not `config: { public: true }`. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Reachable without a credential (login, refresh, docs, health). */
    public?: boolean;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/**
 * Every route needs a credential unless it says otherwise: a new route is closed by default.
 * Authentication runs before validation, so an anonymous caller learns nothing from a 422.
 */
export function registerAuthentication(app: FastifyInstance, auth: Pick<AuthService, 'authenticate'>): void {
  app.decorateRequest('principal', null as unknown as Principal);
  app.addHook('onRequest', async (request) => {
    if (request.routeOptions.config?.public === true) return;
    const token = bearerToken(request);
    if (token === undefined) throw unauthenticated();
    request.principal = await auth.authenticate(token);
  });
}
