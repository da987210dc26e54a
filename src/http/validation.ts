import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { ValidationIssue } from './errors.js';

function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true, ...options });
  addFormats.default(ajv);
  return ajv;
}

/**
 * Bodies are JSON: their types are checked as sent (no "5" → 5, no null → "").
 * Query strings and path parameters are text, so numbers and booleans are coerced,
 * and a single `?statuses=x` becomes a one-element array.
 */
const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

/**
 * Every integer the API takes is bounded by the safe-integer range unless its schema says
 * less: a larger one cannot round-trip through JavaScript or a bigint column (an offset of
 * 1e20 would otherwise reach the database). Applied to a copy, so the published schema stays.
 */
export function boundIntegers(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundIntegers);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = boundIntegers(value);
  if (out.type === 'integer') {
    if (out.maximum === undefined && out.exclusiveMaximum === undefined) out.maximum = Number.MAX_SAFE_INTEGER;
    if (out.minimum === undefined && out.exclusiveMinimum === undefined) out.minimum = -Number.MAX_SAFE_INTEGER;
  }
  return out;
}

/** A multipart body is a stream the route reads itself (and checks part by part): its schema only documents it. */
const acceptStream = () => true;

const isUuid = (schema: unknown): boolean => {
  const s = schema as { format?: unknown; anyOf?: unknown[] } | null;
  return typeof s === 'object' && s !== null && (s.format === 'uuid' || (Array.isArray(s.anyOf) && s.anyOf.some(isUuid)));
};

/** The top-level properties of an object schema that hold a UUID (or X | null). */
export function uuidProperties(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties;
  return properties === undefined ? [] : Object.keys(properties).filter((key) => isUuid(properties[key]));
}

type Validate = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * UUIDs are accepted in any letter case (the format is case-insensitive) and stored and
 * compared in lower case: a valid request has its top-level UUID fields (path, query, body)
 * lower-cased, so `/v1/policies/ABC…` finds the policy created as `abc…`.
 */
function lowerCasingUuids(validate: Validate, keys: string[]): Validate {
  if (keys.length === 0) return validate;
  const wrapped: Validate = (data) => {
    const ok = validate(data);
    wrapped.errors = validate.errors ?? null;
    if (ok && typeof data === 'object' && data !== null) {
      const record = data as Record<string, unknown>;
      for (const key of keys) if (typeof record[key] === 'string') record[key] = (record[key] as string).toLowerCase();
    }
    return ok;
  };
  return wrapped;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, contentType }) => {
  if (httpPart === 'body' && contentType === 'multipart/form-data') return acceptStream;
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const validate = ajv.compile(boundIntegers(schema) as object) as Validate;
  return lowerCasingUuids(validate, uuidProperties(schema)) as ReturnType<FastifySchemaCompiler<unknown>>;
};

/** Deepest nesting a JSON body may have: deeper input is refused before any code copies or stores it. */
export const MAX_JSON_DEPTH = 32;

/** Whether a parsed JSON value nests deeper than `max` (iterative: no recursion on hostile input). */
export function nestsDeeperThan(value: unknown, max: number): boolean {
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= max) return true;
    for (const child of Array.isArray(current) ? current : Object.values(current)) {
      if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
    }
  }
  return false;
}

/**
 * Where a value holds a NUL character (U+0000), in a string or an object key, as a loc
 * below the part (undefined: nowhere). PostgreSQL refuses NUL in text and jsonb, so without
 * this check the same request would be stored on SQLite and fail on PostgreSQL; both engines
 * refuse it here instead (docs/decisions.md, "NUL characters"). Iterative, like nestsDeeperThan.
 */
export function nulCharacterAt(value: unknown): Array<string | number> | undefined {
  const stack: Array<[unknown, Array<string | number>]> = [[value, []]];
  while (stack.length > 0) {
    const [current, loc] = stack.pop() as [unknown, Array<string | number>];
    if (typeof current === 'string') {
      if (current.includes('\u0000')) return loc;
      continue;
    }
    if (typeof current !== 'object' || current === null) continue;
    const entries: Array<[string | number, unknown]> = Array.isArray(current) ? current.map((v, i) => [i, v]) : Object.entries(current);
    for (const [key, child] of entries) {
      if (typeof key === 'string' && key.includes('\u0000')) return [...loc, key];
      stack.push([child, [...loc, key]]);
    }
  }
  return undefined;
}

/** The 422 issue for a NUL character at `loc` (already prefixed with body / query / path). */
export function nulCharacterIssue(loc: Array<string | number>): ValidationIssue {
  return { loc, msg: 'String should not contain the NUL character (U+0000)', type: 'string_pattern_mismatch' };
}

const LOC_PREFIX: Record<string, string> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

function pointerToLoc(pointer: string): Array<string | number> {
  if (pointer === '') return [];
  return pointer
    .slice(1)
    .split('/')
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((p) => (/^\d+$/.test(p) ? Number(p) : p));
}

const TYPE_NAMES: Record<string, { type: string; msg: string }> = {
  string: { type: 'string_type', msg: 'Input should be a valid string' },
  integer: { type: 'int_parsing', msg: 'Input should be a valid integer, unable to parse string as an integer' },
  number: { type: 'float_parsing', msg: 'Input should be a valid number, unable to parse string as a number' },
  boolean: { type: 'bool_parsing', msg: 'Input should be a valid boolean, unable to interpret input' },
  object: { type: 'model_attributes_type', msg: 'Input should be a valid dictionary or object to extract fields from' },
  array: { type: 'list_type', msg: 'Input should be a valid list' },
  null: { type: 'none_required', msg: 'Input should be None' },
};

const FORMAT_NAMES: Record<string, { type: string; msg: string }> = {
  uuid: { type: 'uuid_parsing', msg: 'Input should be a valid UUID' },
  uri: { type: 'url_parsing', msg: 'Input should be a valid URL' },
  email: { type: 'value_error', msg: 'value is not a valid email address' },
};

function describeEnum(values: unknown[]): string {
  const quoted = values.map((v) => `'${String(v)}'`);
  if (quoted.length <= 1) return quoted.join('');
  return `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]}`;
}

function toIssue(error: ErrorObject, prefix: string): ValidationIssue {
  const loc = [prefix, ...pointerToLoc(error.instancePath)];
  const p = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return { loc: [...loc, String(p.missingProperty)], msg: 'Field required', type: 'missing' };
    case 'enum':
      return { loc, msg: `Input should be ${describeEnum(p.allowedValues as unknown[])}`, type: 'enum' };
    case 'const':
      return { loc, msg: `Input should be '${String(p.allowedValue)}'`, type: 'literal_error' };
    case 'type': {
      const first = String(Array.isArray(p.type) ? p.type[0] : p.type).split(',')[0] ?? 'string';
      const known = TYPE_NAMES[first] ?? { type: `${first}_type`, msg: `Input should be a valid ${first}` };
      return { loc, ...known };
    }
    case 'minimum':
      return { loc, msg: `Input should be greater than or equal to ${p.limit}`, type: 'greater_than_equal' };
    case 'maximum':
      return { loc, msg: `Input should be less than or equal to ${p.limit}`, type: 'less_than_equal' };
    case 'exclusiveMinimum':
      return { loc, msg: `Input should be greater than ${p.limit}`, type: 'greater_than' };
    case 'exclusiveMaximum':
      return { loc, msg: `Input should be less than ${p.limit}`, type: 'less_than' };
    case 'minLength':
      return {
        loc,
        msg: `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`,
        type: 'string_too_short',
      };
    case 'maxLength':
      return { loc, msg: `String should have at most ${p.limit} characters`, type: 'string_too_long' };
    case 'minItems':
      return { loc, msg: `List should have at least ${p.limit} items`, type: 'too_short' };
    case 'maxItems':
      return { loc, msg: `List should have at most ${p.limit} items`, type: 'too_long' };
    case 'maxProperties':
      return { loc, msg: `Object should have at most ${p.limit} fields`, type: 'too_long' };
    case 'pattern':
      return { loc, msg: `String should match pattern '${p.pattern}'`, type: 'string_pattern_mismatch' };
    case 'format': {
      const known = FORMAT_NAMES[String(p.format)] ?? { type: 'value_error', msg: `Input should be a valid ${p.format}` };
      return { loc, ...known };
    }
    default:
      return { loc, msg: error.message ?? 'Invalid input', type: 'value_error' };
  }
}

const isTypeError = (e: ErrorObject) => e.keyword === 'type';
const isNullBranch = (e: ErrorObject) => e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null';

/**
 * Ajv reports every branch of a union (`anyOf: [X, null]`) that failed; a person wants the
 * one that explains the problem. Per location keep the most specific failure: drop the
 * union summary and the "should be null" branch, prefer a failure deeper in the value, and
 * prefer a constraint (pattern, minimum, …) over a type mismatch.
 */
export function toValidationIssues(errors: ErrorObject[], httpPart: string | undefined): ValidationIssue[] {
  const prefix = LOC_PREFIX[httpPart ?? 'body'] ?? 'body';
  const candidates = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
  const kept = candidates.filter((e) => {
    if (!isNullBranch(e)) return true;
    return !candidates.some((o) => o !== e && !isNullBranch(o) && (o.instancePath === e.instancePath || o.instancePath.startsWith(`${e.instancePath}/`)));
  });
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of kept) {
    const key = e.keyword === 'required' ? `${e.instancePath}/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : e.instancePath;
    const list = byPath.get(key) ?? [];
    list.push(e);
    byPath.set(key, list);
  }
  const issues: ValidationIssue[] = [];
  for (const [key, list] of byPath) {
    // A type mismatch at a path whose children also failed is the other union branch: skip it.
    const deeper = [...byPath.keys()].some((k) => k !== key && k.startsWith(`${key}/`));
    const specific = list.find((e) => !isTypeError(e)) ?? list[0];
    if (specific === undefined) continue;
    if (deeper && isTypeError(specific)) continue;
    issues.push(toIssue(specific, prefix));
  }
  if (issues.length === 0 && errors[0]) issues.push(toIssue(errors[0], prefix));
  return issues;
}
