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

export function registerSecurityHeaders(app: FastifyInstance, options?: Readonly<HelmetOptions>): void {
  const headers = securityHeaders(options);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}
