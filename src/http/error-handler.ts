import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { classifyDriverError, type DriverErrorKind } from '../db/errors.js';
import { LlmError } from '../llm/types.js';
import { AppError, RequestValidationError, type ValidationIssue } from './errors.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, nulCharacterAt, nulCharacterIssue, toValidationIssues } from './validation.js';

const sendIssues = (reply: FastifyReply, issues: ValidationIssue[]) => reply.code(422).send({ detail: issues });

/**
 * What a classified driver error answers (docs/decisions.md, "Database errors"). The statement
 * failed, so its transaction wrote nothing; a `retryable` one may be sent again as it is.
 */
const DRIVER_ERROR_ANSWERS: Record<DriverErrorKind, { status: number; body: unknown; headers?: Record<string, string> }> = {
  unique_violation: { status: 409, body: { detail: 'A resource with these values exists already' } },
  // A row referring to one that does not exist (a super admin's team_id of no team, a
  // resource deleted meanwhile): the thing referred to is not found.
  foreign_key_violation: { status: 404, body: { detail: 'A resource this request refers to does not exist' } },
  not_null_violation: { status: 422, body: { detail: [{ loc: ['body'], msg: 'A required value is missing', type: 'missing' }] } },
  too_long: { status: 422, body: { detail: [{ loc: ['body'], msg: 'A value is too long to be stored', type: 'string_too_long' }] } },
  out_of_range: { status: 422, body: { detail: [{ loc: ['body'], msg: 'A number is outside the range that can be stored', type: 'value_error' }] } },
  bad_text: {
    status: 422,
    body: { detail: [{ loc: ['body'], msg: 'Input should be a valid string, unable to store it as Unicode text', type: 'string_unicode' }] },
  },
  retryable: {
    status: 503,
    headers: { 'retry-after': '1' },
    body: { detail: 'The database is busy and nothing was written: send the request again' },
  },
};

/** Fastify's own request errors, turned into the contract's shapes (never a 500). */
function frameworkError(error: FastifyError, request: FastifyRequest): { status: number; body: unknown } | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 422, body: { detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 422, body: { detail: [{ loc: ['body'], msg: 'Field required', type: 'missing' }] } };
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return { status: 413, body: { detail: 'Request body is too large' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return {
        status: 415,
        body: { detail: `Unsupported content type "${request.headers['content-type'] ?? ''}": send application/json` },
      };
    default:
      break;
  }
  if (error.name === 'SyntaxError' || error.statusCode === 400) {
    // Malformed JSON surfaces as a SyntaxError from the body parser.
    if (error.name === 'SyntaxError') {
      return { status: 422, body: { detail: [{ loc: ['body', 0], msg: 'JSON decode error', type: 'json_invalid' }] } };
    }
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return { status: error.statusCode, body: { detail: error.message } };
  }
  return undefined;
}

/** The loc of a NUL character in one part of the request, prefixed with the part's name. */
function nulIn(part: 'path' | 'query' | 'body', value: unknown): Array<string | number> | undefined {
  const loc = nulCharacterAt(value);
  return loc === undefined ? undefined : [part, ...loc];
}

export function registerErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.status).headers(error.headers).send({ detail: error.message });
    }
    // The configured model failed (src/llm/): its message names the failure, never the request or the key.
    if (error instanceof LlmError) return reply.code(503).send({ detail: error.message });
    if (error instanceof RequestValidationError) return sendIssues(reply, error.issues);
    if (error.validation) {
      const part = error.validationContext;
      if (part === 'body' && (request.body === undefined || request.body === null)) {
        return sendIssues(reply, [{ loc: ['body'], msg: 'Field required', type: 'missing' }]);
      }
      return sendIssues(reply, toValidationIssues(error.validation as never, part));
    }
    const driverKind = classifyDriverError(error);
    if (driverKind !== undefined) {
      // Validation should have stopped most of these first: log it, as a gap to close.
      request.log.warn({ code: (error as { code?: unknown }).code, kind: driverKind }, 'database refused the request');
      const answer = DRIVER_ERROR_ANSWERS[driverKind];
      return reply.code(answer.status).headers(answer.headers ?? {}).send(answer.body);
    }
    const known = frameworkError(error, request);
    if (known) return reply.code(known.status).send(known.body);
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ detail: 'Internal server error' });
  });

  app.addHook('preValidation', (request, _reply, done) => {
    // A binary body (OTLP protobuf, read as a Buffer) is not JSON: walking its bytes as an object's
    // properties cost more than decoding it. Its decoder strips NUL characters (src/telemetry/otlp.ts).
    const body = Buffer.isBuffer(request.body) ? undefined : request.body;
    if (typeof body === 'object' && body !== null && nestsDeeperThan(body, MAX_JSON_DEPTH)) {
      return done(new RequestValidationError([{ loc: ['body'], msg: `JSON nests deeper than ${MAX_JSON_DEPTH} levels`, type: 'json_invalid' }]));
    }
    // Path, query and body alike: one answer on both engines (PostgreSQL cannot store U+0000).
    const nul = nulIn('path', request.params) ?? nulIn('query', request.query) ?? nulIn('body', body);
    done(nul === undefined ? undefined : new RequestValidationError([nulCharacterIssue(nul)]));
  });

  app.setNotFoundHandler((request, reply) => reply.code(404).send({ detail: `No route for ${request.method} ${request.url.split('?')[0]}` }));
}
