import type { FastifyInstance, InjectOptions } from 'fastify';
import { WardenApi, type ApiTransport } from '../../cli/api.js';

/** The MCP SDK and its schema library (tens of MB) load with the first /mcp call, not with every service. */
const sdk = async () => {
  const [{ StreamableHTTPServerTransport }, { buildMcpServer }] = await Promise.all([
    import('@modelcontextprotocol/sdk/server/streamableHttp.js'),
    import('../../mcp/tools.js'),
  ]);
  return { StreamableHTTPServerTransport, buildMcpServer };
};

export interface McpRouteOptions {
  /** The service's own in-process request injection (the root app's inject). */
  inject: (options: InjectOptions) => Promise<{ statusCode: number; headers: Record<string, unknown>; rawPayload: Buffer }>;
  version: string;
}

/**
 * MCP over Streamable HTTP at /mcp (stateless: a server per request, JSON answers). The caller
 * is authenticated like any API call (Bearer token or API key); every tool then calls the public
 * API in process with that same credential, so it acts with the caller's permissions and teams
 * and nothing else (docs/mcp.md).
 */
export async function mcpRoutes(app: FastifyInstance, options: McpRouteOptions): Promise<void> {
  app.post('/mcp', { schema: { hide: true } }, async (request, reply) => {
    const authorization = request.headers.authorization;
    const transport: ApiTransport = async ({ method, path, headers, body }) => {
      const answer = await options.inject({
        method: method as InjectOptions['method'],
        url: path,
        headers: { ...headers, ...(authorization ? { authorization } : {}) },
        ...(body !== undefined ? { payload: body } : {}),
      });
      const responseHeaders = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) if (value !== undefined) responseHeaders.set(name, String(value));
      return { status: answer.statusCode, headers: responseHeaders, body: answer.rawPayload };
    };
    const { StreamableHTTPServerTransport, buildMcpServer } = await sdk();
    const server = buildMcpServer(new WardenApi(transport, undefined, 'this service'), options.version);
    const mcp = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void mcp.close();
      void server.close();
    });
    await server.connect(mcp);
    await mcp.handleRequest(request.raw, reply.raw, request.body);
  });
  // Stateless: no stream to resume and no session to end.
  const notAllowed = async (
    _request: unknown,
    reply: { code: (n: number) => { header: (k: string, v: string) => { send: (b: unknown) => unknown } } },
  ) =>
    reply
      .code(405)
      .header('allow', 'POST')
      .send({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed: this MCP server is stateless; POST /mcp' }, id: null });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
}
