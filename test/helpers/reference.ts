import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';

/**
 * The reference service's public OpenAPI description, vendored as a fixture: every
 * response body a test sees is checked against the schema the reference gives it.
 */
const spec = JSON.parse(readFileSync(new URL('../fixtures/console-openapi.json', import.meta.url), 'utf8'));
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'reference', components: spec.components });

const cache = new Map<string, ReturnType<typeof ajv.compile>>();

function validatorFor(name: string) {
  let validate = cache.get(name);
  if (validate === undefined) {
    if (!(name in spec.components.schemas)) throw new Error(`no schema ${name} in the reference`);
    validate = ajv.compile({ $ref: `reference#/components/schemas/${name}` });
    cache.set(name, validate);
  }
  return validate;
}

/** Asserts that `body` validates against the reference schema `name` (or an array of them with `[]`). */
export function expectReferenceShape(body: unknown, name: string): void {
  const isArray = name.endsWith('[]');
  const validate = validatorFor(isArray ? name.slice(0, -2) : name);
  const items = isArray ? (body as unknown[]) : [body];
  if (isArray) expect(Array.isArray(body), `${name}: expected an array`).toBe(true);
  for (const item of items) {
    const ok = validate(item);
    expect(ok, `${name}: ${JSON.stringify(validate.errors, null, 1)}\nbody: ${JSON.stringify(item).slice(0, 500)}`).toBe(true);
  }
}

/** Asserts a FastAPI-style 422 with an entry at `loc` of `type`. */
export function expect422(response: { statusCode: number; body: string }, loc: Array<string | number>, type: string): void {
  expect(response.statusCode, response.body).toBe(422);
  const body = JSON.parse(response.body);
  expectReferenceShape(body, 'HTTPValidationError');
  const match = body.detail.find((d: { loc: unknown[] }) => JSON.stringify(d.loc) === JSON.stringify(loc));
  expect(match, `no error at ${JSON.stringify(loc)} in ${response.body}`).toBeDefined();
  expect(match.type).toBe(type);
  expect(typeof match.msg).toBe('string');
}

/** Asserts a `{"detail": "<message>"}` error with `status`. */
export function expectDetail(response: { statusCode: number; body: string }, status: number): void {
  expect(response.statusCode, response.body).toBe(status);
  const body = JSON.parse(response.body);
  expect(typeof body.detail).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: { default?: unknown };
}

/**
 * Asserts that the operation in Warden's published OpenAPI document (`ours`) declares the
 * reference's parameters with the same `required` (absent counts as false) and defaults, and
 * a request body exactly as required as the reference's. Warden may have more parameters.
 */
export function expectParametersLikeReference(ours: { paths: Record<string, Record<string, unknown>> }, method: string, path: string): void {
  const reference = spec.paths[path]?.[method] as { parameters?: Parameter[]; requestBody?: { required?: boolean } } | undefined;
  const operation = ours.paths[path]?.[method] as { parameters?: Parameter[]; requestBody?: { required?: boolean } } | undefined;
  expect(reference, `no ${method} ${path} in the reference`).toBeDefined();
  expect(operation, `no ${method} ${path} in /openapi.json`).toBeDefined();
  for (const parameter of reference?.parameters ?? []) {
    const mine = operation?.parameters?.find((p) => p.name === parameter.name && p.in === parameter.in);
    const where = `${method} ${path} ${parameter.in} ${parameter.name}`;
    expect(mine, where).toBeDefined();
    expect(mine?.required ?? false, `${where}: required`).toBe(parameter.required ?? false);
    expect(mine?.schema?.default, `${where}: default`).toEqual(parameter.schema?.default);
  }
  expect(operation?.requestBody?.required ?? false, `${method} ${path}: body required`).toBe(reference?.requestBody?.required ?? false);
}
