import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../modules/auth/auth.service.js';
import type { Principal } from '../modules/auth/permissions.js';
import type { RequestVersions } from './data-versions.js';
import { AppError, unauthenticated } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set for every route that is not `config: { public: true }`. */
    principal: Principal;
  }
  interface FastifyContextConfig {
    /** Reachable without a credential (login, refresh, docs, health). */
    public?: boolean;
    /** Reachable before a password someone else set has been changed (change-password, logout, me). */
    beforePasswordChange?: boolean;
    /**
     * A header that may carry the credential instead of `Authorization: Bearer` (lower case):
     * `x-webhook-api-key` on the Dome registration webhook, as the reference names it.
     */
    credentialHeader?: string;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== 'string') return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The credential of a route's `credentialHeader`, when the route has one and it is sent. */
function headerCredential(request: FastifyRequest): string | undefined {
  const name = request.routeOptions.config?.credentialHeader;
  if (name === undefined) return undefined;
  const value = request.headers[name];
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * Every route needs a credential unless it says otherwise: a new route is closed by default.
 * Authentication runs before the body is parsed or validated, so an anonymous caller learns
 * nothing from a 422, and after the rate limit, so made-up tokens are counted too.
 */
export function registerAuthentication(app: FastifyInstance, auth: Pick<AuthService, 'authenticate'>, options: PrincipalCacheOptions = {}): void {
  const principals = cachedAuthentication(auth, options);
  app.decorateRequest('principal', null as unknown as Principal);
  // preParsing: after the per-route rate limit (an onRequest hook), before the body is read.
  // Callback style: a principal from the cache is taken without a promise.
  app.addHook('preParsing', (request, _reply, payload, done) => {
    if (request.routeOptions.config?.public === true) return done(null, payload);
    const token = bearerToken(request) ?? headerCredential(request);
    if (token === undefined) return done(unauthenticated());
    const accept = (principal: Principal) => {
      request.principal = principal;
      if (principal.passwordChangeRequired && request.routeOptions.config?.beforePasswordChange !== true) {
        return done(new AppError('forbidden', 'Change your password first: POST /v1/auth/change-password'));
      }
      done(null, payload);
    };
    const known = principals.cached(token, request);
    if (known !== undefined) return accept(known);
    principals.authenticate(token, request).then(accept, done);
  });
}

export interface PrincipalCacheOptions {
  /** The request's database versions (`identity` is used); none (PostgreSQL): every request is authenticated in full. */
  versions?: RequestVersions | undefined;
  /** Epoch seconds (the app's clock). */
  now?: () => number;
}

/** A full check at least this often, whatever else holds. */
const PRINCIPAL_CACHE_SECONDS = 60;
const PRINCIPAL_CACHE_ENTRIES = 1_000;

/** The `exp` claim of a JWT that has just been verified (undefined when absent). */
function expiryOf(token: string): number | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: unknown };
    return typeof payload.exp === 'number' ? payload.exp : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Verifying a login token (HMAC) and loading its session, user and memberships cost more than
 * a cached list answer (bench/README.md). The principal of a login token is kept while the
 * database's identity version is unchanged (every logout, revocation, password change,
 * disabled account or membership change is a commit to an identity table, which changes it;
 * so does any commit by another process), the token has not expired by
 * the app's clock, and for at most a minute. An API key's principal is kept the same way, until
 * the key expires and for at most a minute: its full check records its last use (at most once a
 * minute, a write to an identity table, which moves the version), so gateway calls with a key
 * cost no database read in between. Everything is checked in full on PostgreSQL, where other
 * processes commit without changing this process's version.
 */
function cachedAuthentication(auth: Pick<AuthService, 'authenticate'>, options: PrincipalCacheOptions) {
  const { versions } = options;
  const now = options.now ?? (() => Math.floor(Date.now() / 1000));
  const entries = new Map<string, { version: string; until: number; principal: Principal }>();
  return {
    /** The principal of a token checked before, while nothing it depends on has changed. */
    cached(token: string, request: FastifyRequest): Principal | undefined {
      const version = versions?.(request)?.identity;
      if (version === undefined) return undefined;
      const known = entries.get(token);
      if (known !== undefined && known.version === version && now() < known.until) return known.principal;
      return undefined;
    },
    /** The full check; a login token's principal is kept for `cached`. */
    async authenticate(token: string, request: FastifyRequest): Promise<Principal> {
      const version = versions?.(request)?.identity;
      entries.delete(token);
      const principal = await auth.authenticate(token);
      if (version === undefined) return principal;
      const at = now();
      const expiry = principal.credential.kind === 'session' ? expiryOf(token) : (principal.credential.expiresAt ?? Number.POSITIVE_INFINITY);
      if (expiry !== undefined) {
        entries.set(token, { version, until: Math.min(expiry, at + PRINCIPAL_CACHE_SECONDS), principal });
        if (entries.size > PRINCIPAL_CACHE_ENTRIES) entries.delete(entries.keys().next().value as string);
      }
      return principal;
    },
  };
}
