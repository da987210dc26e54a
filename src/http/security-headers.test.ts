import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { describe, expect, it } from 'vitest';
import { securityHeaders } from './security-headers.js';

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
