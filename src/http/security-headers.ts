import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';

/**
 * The security headers of `helmet` (issue 7), taken from helmet once at start.
 *
 * `@fastify/helmet` 13 calls `helmet(options)` inside its `onRequest` hook, so every request
 * parses every directive again: measured at 40–45% of the throughput of a cached 100 KB list
 * answer (bench/README.md), the largest single cost of a cached read. The headers helmet sets
 * depend only on its options (Warden uses no CSP nonces), so they are recorded by running
 * helmet's own middleware once against a recording response, and set from that record on
 * every reply. A route that sends its own header (the docs page's CSP) still overrides it.
 */
export function securityHeaders(options?: Readonly<HelmetOptions>): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (error?: unknown) => {
    if (error) throw error;
  });
  if (Object.keys(headers).length === 0) throw new Error('helmet set no header: the security headers could not be recorded');
  return Object.freeze(headers);
}

/**
 * helmet's options with the CSP directive `upgrade-insecure-requests` left out: it tells a
 * browser to fetch every file of the page over https, which a Warden reached over plain HTTP
 * from another machine cannot serve (issue 17: a blank /docs). Browsers exempt localhost
 * from it, which is why it went unseen there.
 */
function withoutUpgrade(options: Readonly<HelmetOptions> | undefined): HelmetOptions {
  const csp = options?.contentSecurityPolicy;
  const cspOptions = typeof csp === 'object' ? csp : {};
  return { ...options, contentSecurityPolicy: { ...cspOptions, directives: { ...cspOptions.directives, upgradeInsecureRequests: null } } };
}

/**
 * helmet's headers on every reply; `upgrade-insecure-requests` only when the request came over
 * https: on the socket, or by `X-Forwarded-Proto` from a proxy that WARDEN_TRUST_PROXY_HOPS
 * trusts (Fastify's `request.protocol` reads the header only then).
 */
export function registerSecurityHeaders(app: FastifyInstance, options?: Readonly<HelmetOptions>): void {
  const overHttps = securityHeaders(options);
  const overHttp = securityHeaders(withoutUpgrade(options));
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(request.protocol === 'https' ? overHttps : overHttp);
    done();
  });
}

/**
 * The docs page's CSP: @fastify/swagger-ui's `staticCSP` (its own files only, and the hashes
 * of its inline code), with `upgrade-insecure-requests` only over https, as above.
 */
export function docsContentSecurityPolicy(hashes: { script: readonly string[]; style: readonly string[] }, https: boolean): string {
  return [
    "default-src 'self'",
    "base-uri 'self'",
    "font-src 'self' https: data:",
    "frame-ancestors 'self'",
    "img-src 'self' data: validator.swagger.io",
    "object-src 'none'",
    `script-src 'self' ${hashes.script.join(' ')}`.trim(),
    "script-src-attr 'none'",
    `style-src 'self' https: ${hashes.style.join(' ')}`.trim(),
    ...(https ? ['upgrade-insecure-requests'] : []),
  ].join('; ');
}
