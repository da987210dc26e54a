import { Type } from 'typebox';

/** The gateway's shapes (docs/gateway.md). Bodies are passed through: declared free-form, so nothing is dropped. */

export const GatewayParams = Type.Object({ agent_id: Type.String({ maxLength: 100 }) });

export const ChatCompletionsBody = Type.Object(
  {
    messages: Type.Array(Type.Unknown(), { minItems: 1, maxItems: 10_000 }),
    model: Type.Optional(Type.String({ maxLength: 500 })),
    stream: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: true, title: 'ChatCompletionsRequest' },
);

export const JsonRpcBody = Type.Object({}, { additionalProperties: true, title: 'JsonRpcRequest' });

export const FreeForm = (title: string, description: string) => Type.Object({}, { additionalProperties: true, title, description });

export const OpenAiErrorBody = Type.Object(
  { error: Type.Object({ message: Type.String(), type: Type.String(), code: Type.Union([Type.String(), Type.Null()]) }) },
  { title: 'OpenAIError' },
);

export const JsonRpcErrorBody = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Union([Type.String(), Type.Number(), Type.Null()]),
    error: Type.Object({ code: Type.Integer(), message: Type.String(), data: Type.Optional(Type.Object({}, { additionalProperties: true })) }),
  },
  { title: 'JsonRpcError' },
);

const ERROR_STATUSES = [400, 401, 403, 404, 413, 415, 429, 499, 500, 502, 503, 504] as const;

/** Every error status a gateway route answers, in its protocol's shape. */
export const gatewayErrors = (shape: typeof OpenAiErrorBody | typeof JsonRpcErrorBody) => Object.fromEntries(ERROR_STATUSES.map((status) => [status, shape]));
