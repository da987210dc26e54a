import type { AgentCallError } from '../../connector/types.js';
import { AppError } from '../../http/errors.js';

/**
 * A gateway failure, answered in the caller's protocol (docs/gateway.md, "Errors"): OpenAI's
 * `{"error": {"message", "type", "code"}}` on chat completions, a JSON-RPC error on A2A.
 * Messages are Warden's own: never the agent's key nor its raw answer.
 */
export class GatewayError extends Error {
  constructor(
    readonly status: number,
    /** OpenAI's error type: invalid_request_error, authentication_error, permission_error, not_found_error, rate_limit_error, api_error. */
    readonly type: string,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'GatewayError';
  }
}

const APP_ERROR_TYPES: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'bad_request'],
  401: ['authentication_error', 'invalid_api_key'],
  403: ['permission_error', 'insufficient_permissions'],
  404: ['not_found_error', 'not_found'],
  413: ['invalid_request_error', 'request_too_large'],
  415: ['invalid_request_error', 'unsupported_media_type'],
  422: ['invalid_request_error', 'invalid_request'],
  429: ['rate_limit_error', 'rate_limit_exceeded'],
  503: ['api_error', 'unavailable'],
};

/** Any error of a gateway route (authentication's, validation's, the service's) as a GatewayError. */
export function asGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  if (error instanceof AppError) {
    const [type, code] = APP_ERROR_TYPES[error.status] ?? ['api_error', 'error'];
    return new GatewayError(error.status, type, code, error.message, error.headers);
  }
  const status = (error as { statusCode?: unknown }).statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const [type, code] = APP_ERROR_TYPES[status] ?? ['invalid_request_error', 'invalid_request'];
    const validation = (error as { validation?: unknown }).validation !== undefined || (error as { issues?: unknown }).issues !== undefined;
    const message = validation || error instanceof SyntaxError ? 'The request body is not valid JSON of the expected shape' : (error as Error).message;
    return new GatewayError(status, type, code, message);
  }
  if ((error as { name?: unknown }).name === 'RequestValidationError' || (error as { name?: unknown }).name === 'SyntaxError') {
    return new GatewayError(400, 'invalid_request_error', 'invalid_request', 'The request body is not valid JSON of the expected shape');
  }
  return new GatewayError(500, 'api_error', 'internal_error', 'Warden failed to handle the request');
}

/** The agent's failure as the caller sees it: 504 for time, 502 otherwise, in words of Warden's. */
export function upstreamError(failure: AgentCallError, timeoutMs: number): GatewayError {
  switch (failure.kind) {
    case 'timeout':
      return new GatewayError(504, 'api_error', 'upstream_timeout', `The agent did not answer within ${Math.round(timeoutMs / 100) / 10} s`);
    case 'network':
      return new GatewayError(502, 'api_error', 'upstream_unreachable', 'The agent could not be reached');
    case 'refused_address':
      return new GatewayError(
        502,
        'api_error',
        'upstream_refused',
        "The agent's address is not one Warden may call (check the agent's URL and WARDEN_OUTBOUND_*)",
      );
    case 'too_large':
      return new GatewayError(502, 'api_error', 'upstream_too_large', "The agent's answer was too large");
    case 'http':
      return new GatewayError(
        502,
        'api_error',
        'upstream_error',
        `The agent answered HTTP ${failure.status ?? 'error'}${failure.status === 401 || failure.status === 403 ? " (check the agent's API key in Warden)" : ''}`,
      );
    case 'cancelled':
      return new GatewayError(499, 'api_error', 'cancelled', 'The request was cancelled');
    case 'protocol':
      return new GatewayError(502, 'api_error', 'upstream_invalid', "The agent's answer could not be read");
  }
}

/** OpenAI's error body. */
export const openAiError = (error: GatewayError) => ({ error: { message: error.message, type: error.type, code: error.code } });

/** JSON-RPC error codes of the A2A path (-32000…-32099 are the server's to define). */
const RPC_CODES: Record<number, number> = { 401: -32040, 403: -32043, 404: -32044, 429: -32029, 502: -32052, 504: -32054 };

export const jsonRpcError = (error: GatewayError, id: unknown = null) => ({
  jsonrpc: '2.0',
  id: typeof id === 'string' || typeof id === 'number' ? id : null,
  error: { code: error.status === 400 ? -32600 : (RPC_CODES[error.status] ?? -32603), message: error.message, data: { type: error.type, code: error.code } },
});
