import { readFileSync } from 'node:fs';
import { Ajv } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, FastifyReply, FastifyRequest, InjectOptions, LightMyRequestResponse } from 'fastify';
import { HTTPError, HTTPValidationError, ValidationErrorSchema } from '../../src/http/schemas.js';

/**
 * Checks every response an app answers in a test against the reference's schema of that
 * operation and status (looked up by method and path template in the vendored reference
 * OpenAPI), so that no response goes unchecked:
 * - an operation the reference has: the schema of that status; for an error status the
 *   reference does not list, CONTRACT.md's `{"detail": "<message>"}` (a 422: the reference's
 *   HTTPValidationError, the one shape of every 422); for a success status
 *   other than the reference's, the reference's success schema (the body must still be its shape);
 * - an operation the reference does not have (our additions): the response schema the route
 *   declares for that status (an error status it does not declare: CONTRACT.md's shapes);
 * - a response with no route (404): `{"detail": "<message>"}`.
 * Only `/v1` JSON answers are checked; an empty body (204, 304) has nothing to check.
 */
const spec = JSON.parse(readFileSync(new URL('../fixtures/console-openapi.json', import.meta.url), 'utf8'));
const referenceAjv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(referenceAjv);
referenceAjv.addSchema({ $id: 'reference', components: spec.components });

const ownAjv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ownAjv);
for (const schema of [ValidationErrorSchema, HTTPValidationError, HTTPError]) ownAjv.addSchema(schema);

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
const cache = new Map<string, Validate>();

const toReferenceRefs = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(toReferenceRefs);
  if (typeof schema !== 'object' || schema === null) return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [k, k === '$ref' && typeof v === 'string' && v.startsWith('#/') ? `reference${v}` : toReferenceRefs(v)]),
  );
};

const DETAIL_MESSAGE = { type: 'object', required: ['detail'], properties: { detail: { type: 'string', minLength: 1 } } };

function compiled(key: string, make: () => Validate): Validate {
  let validate = cache.get(key);
  if (validate === undefined) {
    validate = make();
    cache.set(key, validate);
  }
  return validate;
}

/** Fastify's `/v1/teams/:team_id` as the reference spells it: `/v1/teams/{team_id}`. */
export const openApiPath = (template: string) => template.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

function referenceOperation(method: string, template: string): { responses: Record<string, any> } | undefined {
  const path = openApiPath(template);
  const item = spec.paths[path] ?? spec.paths[path.endsWith('/') ? path.slice(0, -1) : `${path}/`];
  return item?.[method.toLowerCase()];
}

const jsonSchemaOf = (response: any): unknown => response?.content?.['application/json']?.schema;

/** The validator for a response of `method template` with `status`, and a name for messages. */
export function validatorFor(method: string, template: string | undefined, status: number, declared: unknown): [string, Validate] {
  if (template === undefined) return ['no route: {"detail": "…"}', compiled('detail', () => referenceAjv.compile(DETAIL_MESSAGE))];
  const operation = referenceOperation(method, template);
  if (operation !== undefined) {
    const exact = operation.responses[String(status)];
    const success = Object.entries(operation.responses).find(([code]) => code.startsWith('2'))?.[1];
    const chosen = exact ?? (status < 300 ? success : undefined);
    if (chosen !== undefined) {
      const schema = jsonSchemaOf(chosen) ?? {};
      return [
        `reference ${method} ${openApiPath(template)} ${exact ? status : 'success'}`,
        compiled(`ref ${method} ${template} ${exact ? status : '2xx'}`, () => referenceAjv.compile(toReferenceRefs(schema) as object)),
      ];
    }
  }
  // An error the reference does not list for the operation, or one of our own operations does
  // not declare (a framework's 413, 415, 429): CONTRACT.md's shapes, the same on every route.
  if (status === 422 && (operation !== undefined || declared === undefined)) {
    const schema = { $ref: 'reference#/components/schemas/HTTPValidationError' };
    return ['CONTRACT.md 422 HTTPValidationError', compiled('422', () => referenceAjv.compile(schema))];
  }
  if (status >= 400 && (operation !== undefined || declared === undefined)) {
    return [`CONTRACT.md error {"detail": "…"} (${status})`, compiled('detail', () => referenceAjv.compile(DETAIL_MESSAGE))];
  }
  if (declared === undefined) throw new Error(`${method} ${template} answered ${status}, which neither the reference nor the route declares`);
  return [`declared ${method} ${template} ${status}`, compiled(`own ${method} ${template} ${status}`, () => ownAjv.compile(declared as object) as Validate)];
}

/** Problems found in responses, in order; each failing inject throws with its own. */
export interface ReferenceCheck {
  problems: string[];
  /** How many responses were checked. */
  checked: number;
}

/**
 * Hooks the check into `app` (before `ready`) and makes `app.inject` throw when the response
 * it resolves to did not validate. Used by buildTestApp().
 */
export function installReferenceCheck(app: FastifyInstance): ReferenceCheck {
  const check: ReferenceCheck = { problems: [], checked: 0 };
  app.addHook('onSend', async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!request.url.startsWith('/v1/')) return payload;
    if (typeof payload !== 'string' || payload.length === 0) return payload;
    if (!String(reply.getHeader('content-type') ?? '').startsWith('application/json')) return payload;
    const template = request.routeOptions.url;
    const declared = (request.routeOptions.schema?.response as Record<string, unknown> | undefined)?.[String(reply.statusCode)];
    try {
      const [name, validate] = validatorFor(request.method, template, reply.statusCode, declared);
      check.checked++;
      if (!validate(JSON.parse(payload))) {
        check.problems.push(
          `${request.method} ${request.url} → ${reply.statusCode} does not match ${name}: ${JSON.stringify(validate.errors)}\nbody: ${payload.slice(0, 400)}`,
        );
      }
    } catch (error) {
      check.problems.push(`${request.method} ${request.url} → ${reply.statusCode}: ${(error as Error).message}`);
    }
    return payload;
  });
  const inject = app.inject.bind(app) as (options: InjectOptions | string) => Promise<LightMyRequestResponse>;
  (app as { inject: unknown }).inject = async (options: InjectOptions | string, callback?: unknown) => {
    if (callback !== undefined || options === undefined) throw new Error('reference check: use the promise form of app.inject');
    const before = check.problems.length;
    const response = await inject(options);
    const found = check.problems.slice(before);
    if (found.length > 0) throw new Error(`response outside the reference schema:\n${found.join('\n')}`);
    return response;
  };
  return check;
}
