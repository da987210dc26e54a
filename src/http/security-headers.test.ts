import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify from 'fastify';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { docsContentSecurityPolicy, securityHeaders } from './security-headers.js';

/** What helmet's own middleware leaves on a real Node response. */
function headersHelmetSets(options?: Parameters<typeof helmet>[0]): Record<string, string> {
  const request = new IncomingMessage(new Socket());
  const response = new ServerResponse(request);
  response.setHeader('X-Powered-By', 'something');
  helmet(options)(request, response, () => {});
  return Object.fromEntries(Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]));
}

describe('securityHeaders', () => {
  it('records exactly the headers helmet sets on a response', () => {
    const recorded = securityHeaders();
    expect(recorded).toEqual(headersHelmetSets());
    expect(recorded['x-powered-by']).toBeUndefined();
    expect(recorded['content-security-policy']).toContain("default-src 'self'");
    expect(Object.keys(recorded).length).toBeGreaterThanOrEqual(10);
  });

  it('follows the options given to helmet', () => {
    const options = { frameguard: { action: 'deny' as const }, strictTransportSecurity: false };
    const recorded = securityHeaders(options);
    expect(recorded).toEqual(headersHelmetSets(options));
    expect(recorded['x-frame-options']).toBe('DENY');
    expect(recorded['strict-transport-security']).toBeUndefined();
  });
});

const directives = (csp: string) =>
  csp
    .split(';')
    .map((d) => d.trim().replace(/\s+/g, ' '))
    .filter((d) => d !== '')
    .sort();

describe('docsContentSecurityPolicy', () => {
  it("is @fastify/swagger-ui's staticCSP over https, and the same without upgrade-insecure-requests over http", async () => {
    const app = Fastify();
    await app.register(swagger, { openapi: { info: { title: 't', version: '1' } } });
    await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });
    const theirs = String((await app.inject({ method: 'GET', url: '/docs/' })).headers['content-security-policy']);
    const hashes = app.swaggerCSP;
    await app.close();
    expect(directives(docsContentSecurityPolicy(hashes, true))).toEqual(directives(theirs));
    expect(directives(docsContentSecurityPolicy(hashes, false))).toEqual(directives(theirs).filter((d) => d !== 'upgrade-insecure-requests'));
    expect(directives(theirs)).toContain('upgrade-insecure-requests');
  });
});
