import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { createA2aGateway } from './a2a.service.js';
import type { createChatCompletionsGateway } from './chat-completions.service.js';
import { asGatewayError, jsonRpcError, openAiError } from './gateway.errors.js';
import { ChatCompletionsBody, FreeForm, GatewayParams, gatewayErrors, JsonRpcBody, JsonRpcErrorBody, OpenAiErrorBody } from './gateway.schemas.js';
import type { GatewayAnswer } from './gateway.service.js';

interface GatewayRouteOptions {
  chatCompletions: ReturnType<typeof createChatCompletionsGateway>;
  a2a: ReturnType<typeof createA2aGateway>;
}

type Params = { agent_id: string };

/** Writes an answer: a JSON body as it is (no re-serialisation of a passed-through answer), or server-sent events as they come. */
async function send(request: FastifyRequest, reply: FastifyReply, answer: GatewayAnswer) {
  if (answer.kind === 'json') {
    const text = answer.text ?? JSON.stringify(answer.body);
    return reply.code(answer.status).headers(answer.headers).type('application/json; charset=utf-8').send(text);
  }
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    ...answer.headers,
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    'x-accel-buffering': 'no',
  });
  let first = true;
  try {
    for await (const frame of answer.frames) {
      if (raw.destroyed) break;
      if (first) {
        first = false;
        answer.firstByte();
      }
      if (!raw.write(frame)) await new Promise((resolve) => raw.once('drain', resolve).once('close', resolve));
    }
  } catch (error) {
    request.log.error({ err: error }, 'the gateway stream failed');
    if (!raw.destroyed) raw.write(`data: ${JSON.stringify(openAiError(asGatewayError(error)))}\n\n`);
  } finally {
    raw.end();
  }
}

const A2A_VERSION = /^\d+\.\d+(\.\d+)?$/;

export async function gatewayRoutes(app: FastifyInstance, { chatCompletions, a2a }: GatewayRouteOptions) {
  // Errors in the caller's protocol (CONTRACT.md Wave 3): OpenAI's shape, or JSON-RPC on the A2A paths.
  app.setErrorHandler((error, request, reply) => {
    const gateway = asGatewayError(error);
    if (gateway.status >= 500) request.log.error({ err: error }, 'gateway error');
    const rpc = request.routeOptions.url?.endsWith('/a2a') === true || request.routeOptions.url?.endsWith('.json') === true;
    const id = rpc && typeof request.body === 'object' && request.body !== null ? (request.body as { id?: unknown }).id : null;
    return reply
      .code(gateway.status)
      .headers(gateway.headers)
      .send(rpc ? jsonRpcError(gateway, id) : openAiError(gateway));
  });

  app.post<{ Params: Params; Body: Record<string, unknown> }>(
    '/v1/gateway/:agent_id/chat/completions',
    {
      config: { ownRateLimit: true },
      schema: {
        tags: ['Gateway'],
        summary: "Chat completions through the agent's guards (OpenAI-compatible)",
        params: GatewayParams,
        body: ChatCompletionsBody,
        response: {
          200: FreeForm('ChatCompletion', 'The agent’s answer, or Warden’s blocked answer; `stream: true` answers server-sent events'),
          ...gatewayErrors(OpenAiErrorBody),
        },
      },
    },
    async (request, reply) => send(request, reply, await chatCompletions(request.principal, request.params.agent_id, request.body)),
  );

  app.post<{ Params: Params; Body: Record<string, unknown> }>(
    '/v1/gateway/:agent_id/a2a',
    {
      config: { ownRateLimit: true },
      schema: {
        tags: ['Gateway'],
        summary: "A2A JSON-RPC through the agent's guards",
        params: GatewayParams,
        body: JsonRpcBody,
        response: {
          200: FreeForm('JsonRpcResponse', 'The agent’s JSON-RPC answer or a JSON-RPC error; message/stream answers server-sent events'),
          ...gatewayErrors(JsonRpcErrorBody),
        },
      },
    },
    async (request, reply) => {
      const header = request.headers['a2a-version'];
      const version = typeof header === 'string' && A2A_VERSION.test(header.trim()) ? header.trim() : undefined;
      return send(request, reply, await a2a.call(request.principal, request.params.agent_id, request.body, version));
    },
  );

  app.get<{ Params: Params }>(
    '/v1/gateway/:agent_id/.well-known/agent-card.json',
    {
      config: { ownRateLimit: true },
      schema: {
        tags: ['Gateway'],
        summary: 'The agent’s A2A card, pointing at the gateway',
        params: GatewayParams,
        response: { 200: FreeForm('AgentCard', 'An A2A agent card (0.3 and 1.0 fields)'), ...gatewayErrors(JsonRpcErrorBody) },
      },
    },
    async (request, reply) => {
      const endpoint = `${request.protocol}://${request.host}/v1/gateway/${encodeURIComponent(request.params.agent_id)}/a2a`;
      const card = await a2a.card(request.principal, request.params.agent_id, endpoint);
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(card));
    },
  );
}
