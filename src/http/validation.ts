import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { compileCleaner } from './clean.js';
import type { ValidationIssue } from './errors.js';
import { compileItemBounds } from './item-bounds.js';

/**
 * A UUID is 8-4-4-4-12 hex digits, nothing else: ajv-formats also takes a `urn:uuid:` prefix,
 * which no id column holds (PostgreSQL answered it with a 500, SQLite with a 404).
 */
export const CANONICAL_UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const LOWERCASE_UUID = 'x-lowercase-uuid';
const HTTP_URL = 'x-http-url';

function makeAjv(options: Options): Ajv {
  // verbose: errors carry the value and the schema, which pick the pydantic type (int_from_float, url_too_long).
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true, verbose: true, ...options });
  addFormats.default(ajv);
  ajv.addFormat('uuid', CANONICAL_UUID);
  // Ids are stored lower-case; an upper-case spelling of one names the same id (as pydantic's UUID).
  ajv.addKeyword({
    keyword: LOWERCASE_UUID,
    modifying: true,
    schemaType: 'boolean',
    validate: (_schema: boolean, data: unknown, _parent?: unknown, cxt?: { parentData: any; parentDataProperty: string | number }) => {
      if (typeof data === 'string' && cxt?.parentData != null && CANONICAL_UUID.test(data)) {
        cxt.parentData[cxt.parentDataProperty] = data.toLowerCase();
      }
      return true;
    },
  });
  // http(s) only, as pydantic's HttpUrl; a value that is no URL at all is left to `format`.
  ajv.addKeyword({
    keyword: HTTP_URL,
    schemaType: 'boolean',
    validate: (_schema: boolean, data: unknown) => {
      if (typeof data !== 'string' || !URL.canParse(data)) return true;
      return /^https?:$/.test(new URL(data).protocol);
    },
  });
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

/**
 * Every array the API takes is bounded (docs/decisions.md, "Validation cost"): where its schema
 * states no `maxItems`, this one. No legitimate request comes near it; a 1 MiB body holds at
 * most about 350,000 items, so without a bound an array is the cheapest way to make the
 * validator and the service do work. Applied to a copy, like boundIntegers.
 */
export const DEFAULT_MAX_ITEMS = 10_000;

export function boundArrays(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(boundArrays);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = boundArrays(value);
  if (out.type === 'array' && out.maxItems === undefined) out.maxItems = DEFAULT_MAX_ITEMS;
  return out;
}

/** Marks every uuid-format string to be lower-cased once valid (on a copy, like boundIntegers). */
export function lowercaseUuids(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(lowercaseUuids);
  if (typeof schema !== 'object' || schema === null) return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) out[key] = lowercaseUuids(value);
  if (out.format === 'uuid') out[LOWERCASE_UUID] = true;
  if (out.format === 'uri') out[HTTP_URL] = true;
  return out;
}

/** pydantic's lax booleans (case-insensitive); any other spelling is a `bool_parsing` 422. */
const LAX_BOOLEANS: ReadonlyMap<string, boolean> = new Map([
  ...['1', 'on', 't', 'true', 'y', 'yes'].map((v) => [v, true] as const),
  ...['0', 'off', 'f', 'false', 'n', 'no'].map((v) => [v, false] as const),
]);

const acceptsBoolean = (schema: unknown): boolean => {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as { type?: unknown; anyOf?: unknown[] };
  return s.type === 'boolean' || (Array.isArray(s.anyOf) && s.anyOf.some(acceptsBoolean));
};

/** The boolean fields of a query string or path schema, which arrive as text. */
function booleanFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  return Object.entries(properties).filter(([, s]) => acceptsBoolean(s)).map(([name]) => name);
}

const acceptsInteger = (schema: unknown): boolean => {
  if (typeof schema !== 'object' || schema === null) return false;
  const s = schema as { type?: unknown; anyOf?: unknown[] };
  return s.type === 'integer' || (Array.isArray(s.anyOf) && s.anyOf.some(acceptsInteger));
};

/** The integer fields of a query string or path schema, which arrive as text. */
function integerFields(schema: unknown): string[] {
  const properties = (schema as { properties?: Record<string, unknown> } | null)?.properties ?? {};
  return Object.entries(properties).filter(([, s]) => acceptsInteger(s)).map(([name]) => name);
}

/**
 * An integer written as pydantic reads one from text: optional spaces around an optional sign
 * and decimal digits, with at most a fraction of zeros (`" 5"`, `"+5"`, `"05"`, `"5.0"`).
 * Ajv's coercion reads anything `Number()` does (`"1e3"`, `"0x10"`, `" "` as 0): those are a
 * 422 `int_parsing` here, as they are for the reference service.
 */
const PYDANTIC_INTEGER = /^\s*([+-]?\d+)(?:\.0*)?\s*$/;

export function parseIntegerText(text: string): number | undefined {
  const match = PYDANTIC_INTEGER.exec(text);
  return match === null ? undefined : Number(match[1]);
}

/** The Ajv error an integer field written any other way gets: reported as `int_parsing` (toIssue). */
const integerTextError = (name: string, data: unknown): ErrorObject => ({
  instancePath: `/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`,
  schemaPath: '#/type',
  keyword: 'type',
  params: { type: 'integer' },
  message: 'must be integer',
  data,
});

/** A multipart body is a stream the route reads itself (and checks part by part): its schema only documents it. */
const acceptStream = () => true;

/**
 * The one validator of every route's body, query string, path parameters and headers. What
 * passes is also cleaned here, in place: the properties its schema does not declare are
 * dropped from the body and the query string, at every depth (CONTRACT.md: unknown fields are
 * ignored, as the reference service does), so that no service sees a field it did not ask for.
 * An object declared free-form (`additionalProperties: true`) keeps what it holds.
 */
export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart, contentType }) => {
  if (httpPart === 'body' && contentType === 'multipart/form-data') return acceptStream;
  const ajv = httpPart === 'body' ? bodyAjv : textAjv;
  const bounded = boundArrays(boundIntegers(schema));
  const validate = ajv.compile(lowercaseUuids(bounded) as object);
  const oversizedArrays = compileItemBounds(bounded);
  const booleans = httpPart === 'body' ? [] : booleanFields(schema);
  const integers = httpPart === 'body' ? [] : integerFields(schema);
  const clean = httpPart === 'body' || httpPart === 'querystring' ? compileCleaner(schema as TSchema) : undefined;
  const checked = (data: unknown) => {
    let textErrors: ErrorObject[] | undefined;
    if ((booleans.length > 0 || integers.length > 0) && typeof data === 'object' && data !== null) {
      const fields = data as Record<string, unknown>;
      for (const name of booleans) {
        const value = fields[name];
        const known = typeof value === 'string' ? LAX_BOOLEANS.get(value.toLowerCase()) : undefined;
        if (known !== undefined) fields[name] = known;
      }
      for (const name of integers) {
        const value = fields[name];
        if (typeof value !== 'string') continue;
        const parsed = parseIntegerText(value);
        if (parsed !== undefined) {
          fields[name] = parsed;
        } else {
          (textErrors ??= []).push(integerTextError(name, value));
          // Reported here. Ajv must not read it its own way (a "-1e3" coerced would add a
          // `greater_than_equal`), nor miss it (a missing field would be `missing` or take its
          // default): an object is only ever a type error to it, which the issue above explains.
          fields[name] = {};
        }
      }
    }
    const oversized = oversizedArrays(data);
    if (oversized !== undefined) {
      checked.errors = [...(textErrors ?? []), ...oversized];
      return false;
    }
    const ok = validate(data) && textErrors === undefined;
    checked.errors = textErrors === undefined ? validate.errors : [...textErrors, ...(validate.errors ?? [])];
    if (ok && clean !== undefined) clean(data);
    return ok;
  };
  checked.errors = null as typeof validate.errors;
  return checked as ReturnType<FastifySchemaCompiler<unknown>>;
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
  // Recursive: a body reaches here only when it nests at most MAX_JSON_DEPTH levels (checked
  // first), and the loc is built only on the way back from a find.
  if (typeof value === 'string') return value.includes('\u0000') ? [] : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const loc = nulCharacterAt(value[i]);
      if (loc !== undefined) return [i, ...loc];
    }
    return undefined;
  }
  for (const key of Object.keys(value)) {
    if (key.includes('\u0000')) return [key];
    const loc = nulCharacterAt((value as Record<string, unknown>)[key]);
    if (loc !== undefined) return [key, ...loc];
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

/** A length bound of a URL field is pydantic's url_too_long / url_parsing, not a string's. */
const isUrlSchema = (error: ErrorObject) => (error.parentSchema as { format?: unknown } | undefined)?.format === 'uri';

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
      if (first === 'integer' && typeof error.data === 'number' && Number.isFinite(error.data)) {
        return { loc, msg: 'Input should be a valid integer, got a number with a fractional part', type: 'int_from_float' };
      }
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
      if (isUrlSchema(error)) return { loc, msg: 'Input should be a valid URL, input is empty', type: 'url_parsing' };
      return {
        loc,
        msg: `String should have at least ${p.limit} character${p.limit === 1 ? '' : 's'}`,
        type: 'string_too_short',
      };
    case 'maxLength':
      if (isUrlSchema(error)) return { loc, msg: `URL should have at most ${p.limit} characters`, type: 'url_too_long' };
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
    case HTTP_URL:
      return { loc, msg: "URL scheme should be 'http' or 'https'", type: 'url_scheme' };
    default:
      return { loc, msg: error.message ?? 'Invalid input', type: 'value_error' };
  }
}

const isTypeError = (e: ErrorObject) => e.keyword === 'type';
const isNullBranch = (e: ErrorObject) => e.keyword === 'type' && (e.params as { type?: unknown }).type === 'null';

/**
 * The most issues one 422 lists: a body of 100,000 bad items answers its first ones, not a
 * 100,000-entry list (docs/decisions.md, "Validation cost").
 */
export const MAX_VALIDATION_ISSUES = 50;

/** Adds every proper ancestor of a JSON pointer (`/a/b` → `/a`, ``) to `into`; stops at one already there. */
function addAncestors(pointer: string, into: Set<string>): void {
  let slash = pointer.lastIndexOf('/');
  while (slash >= 0) {
    const ancestor = pointer.slice(0, slash);
    if (into.has(ancestor)) return;
    into.add(ancestor);
    if (slash === 0) return;
    slash = pointer.lastIndexOf('/', slash - 1);
  }
}

/**
 * Ajv reports every branch of a union (`anyOf: [X, null]`) that failed; a person wants the
 * one that explains the problem. Per location keep the most specific failure: drop the
 * union summary and the "should be null" branch, prefer a failure deeper in the value, and
 * prefer a constraint (pattern, minimum, …) over a type mismatch. Linear in the number of
 * errors (sets of the failed locations and their ancestors, not a scan per error), and at most
 * MAX_VALIDATION_ISSUES issues.
 */
export function toValidationIssues(errors: ErrorObject[], httpPart: string | undefined): ValidationIssue[] {
  const prefix = LOC_PREFIX[httpPart ?? 'body'] ?? 'body';
  const candidates = errors.filter((e) => e.keyword !== 'anyOf' && e.keyword !== 'oneOf' && e.keyword !== 'if');
  // Where some failure other than a "should be null" branch happened, at the path or below it.
  const failedAtOrBelow = new Set<string>();
  for (const e of candidates) {
    if (isNullBranch(e) || failedAtOrBelow.has(e.instancePath)) continue;
    failedAtOrBelow.add(e.instancePath);
    addAncestors(e.instancePath, failedAtOrBelow);
  }
  const byPath = new Map<string, ErrorObject[]>();
  for (const e of candidates) {
    if (isNullBranch(e) && failedAtOrBelow.has(e.instancePath)) continue;
    const key = e.keyword === 'required' ? `${e.instancePath}/${String((e.params as { missingProperty?: unknown }).missingProperty)}` : e.instancePath;
    const list = byPath.get(key);
    if (list === undefined) byPath.set(key, [e]);
    else list.push(e);
  }
  const withDeeperFailure = new Set<string>();
  for (const key of byPath.keys()) addAncestors(key, withDeeperFailure);
  const issues: ValidationIssue[] = [];
  for (const [key, list] of byPath) {
    if (issues.length >= MAX_VALIDATION_ISSUES) break;
    const specific = list.find((e) => !isTypeError(e)) ?? list[0];
    if (specific === undefined) continue;
    // A type mismatch at a path whose children also failed is the other union branch: skip it.
    if (withDeeperFailure.has(key) && isTypeError(specific)) continue;
    issues.push(toIssue(specific, prefix));
  }
  if (issues.length === 0 && errors[0]) issues.push(toIssue(errors[0], prefix));
  return issues;
}
