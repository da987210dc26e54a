/**
 * Parameter tables of the methods: each method declares its parameters once (type, bounds,
 * default) and gets a `parseParams` that validates, defaults and names the offending key in a
 * GuardConfigError (pydantic's error types, so the API's 422 reads like the reference's).
 */
import { type DetectionResult, type DetectorContext, type DetectorDefinition, GuardConfigError } from './types.js';

type Path = Array<string | number>;

export interface ParamSpec<T> {
  parse(value: unknown, path: Path): T;
  /** Used when the key is absent. */
  fallback: T;
}

const fail = (path: Path, message: string, type: string): never => {
  throw new GuardConfigError(path, message, type);
};

export function numberParam(fallback: number, bounds: { min?: number; max?: number; integer?: boolean } = {}): ParamSpec<number> {
  return {
    fallback,
    parse(value, path) {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        return fail(path, bounds.integer ? 'Input should be a valid integer' : 'Input should be a valid number', bounds.integer ? 'int_type' : 'float_type');
      }
      if (bounds.integer && !Number.isInteger(value)) return fail(path, 'Input should be a valid integer', 'int_type');
      if (bounds.min !== undefined && value < bounds.min) return fail(path, `Input should be greater than or equal to ${bounds.min}`, 'greater_than_equal');
      if (bounds.max !== undefined && value > bounds.max) return fail(path, `Input should be less than or equal to ${bounds.max}`, 'less_than_equal');
      return value;
    },
  };
}

export function booleanParam(fallback: boolean): ParamSpec<boolean> {
  return {
    fallback,
    parse: (value, path) => (typeof value === 'boolean' ? value : fail(path, 'Input should be a valid boolean', 'bool_type')),
  };
}

export function stringParam<T extends string = string>(fallback: T, options: { maxLength?: number; oneOf?: readonly T[] } = {}): ParamSpec<T> {
  const maxLength = options.maxLength ?? 1000;
  return {
    fallback,
    parse(value, path) {
      if (typeof value !== 'string') return fail(path, 'Input should be a valid string', 'string_type');
      if (options.oneOf && !options.oneOf.includes(value as T)) {
        return fail(path, `Input should be ${options.oneOf.map((v) => `'${v}'`).join(' or ')}`, 'enum');
      }
      if (value.length > maxLength) return fail(path, `String should have at most ${maxLength} characters`, 'string_too_long');
      return value as T;
    },
  };
}

export function stringListParam(fallback: string[], options: { maxItems?: number; maxLength?: number; oneOf?: readonly string[] } = {}): ParamSpec<string[]> {
  const maxItems = options.maxItems ?? 1000;
  const item = stringParam('', { maxLength: options.maxLength ?? 200, ...(options.oneOf ? { oneOf: options.oneOf } : {}) });
  return {
    fallback,
    parse(value, path) {
      if (!Array.isArray(value)) return fail(path, 'Input should be a valid list', 'list_type');
      if (value.length > maxItems) return fail(path, `List should have at most ${maxItems} items`, 'too_long');
      return value.map((entry, index) => item.parse(entry, [...path, index]));
    },
  };
}

/** `null` accepted as "not set" (Dome documents `None` for these). */
export function nullable<T>(spec: ParamSpec<T>, fallback: T | null = spec.fallback): ParamSpec<T | null> {
  return { fallback, parse: (value, path) => (value === null ? null : spec.parse(value, path)) };
}

/** A key accepted for compatibility with Dome and not used (a model name, a file on Dome's host…). */
export const IGNORED = Symbol('ignored parameter');

type Specs = Record<string, ParamSpec<unknown> | typeof IGNORED>;
export type ParsedParams<S extends Specs> = { [K in keyof S as S[K] extends ParamSpec<unknown> ? K : never]: S[K] extends ParamSpec<infer T> ? T : never };

/** Dome's parameters of its LLM-backed methods that concern where and how the model runs: Warden's model is WARDEN_LLM_*. */
export const DOME_LLM_PARAMS = [
  'hub_name',
  'model_name',
  'model',
  'api_key',
  'api_key_name',
  'base_url',
  'temperature',
  'max_tokens',
  'reasoning_effort',
  'max_retries',
] as const;

export function ignoring(names: readonly string[]): Record<string, typeof IGNORED> {
  return Object.fromEntries(names.map((name) => [name, IGNORED]));
}

/** A `parseParams` for a method's table: unknown keys are an `extra_forbidden` naming them. */
export function paramParser<S extends Specs>(specs: S): (raw: Record<string, unknown>) => ParsedParams<S> {
  const known = Object.keys(specs);
  return (raw) => {
    const out: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(specs)) {
      if (spec === IGNORED) continue;
      out[key] = Object.hasOwn(raw, key) ? spec.parse(raw[key], [key]) : spec.fallback;
    }
    for (const key of Object.keys(raw)) {
      if (!Object.hasOwn(specs, key)) {
        const hint = known.length ? `; this method takes ${known.map((k) => `'${k}'`).join(', ')}` : '; this method takes no parameters';
        fail([key], `unknown parameter '${key}'${hint}`, 'extra_forbidden');
      }
    }
    return out as ParsedParams<S>;
  };
}

/** A heuristic method: synchronous, so callers (the bench, sanitizing chains) can call it without awaiting. */
export interface SyncDetectorDefinition<P> extends DetectorDefinition<P> {
  detect(text: string, params: P, context: DetectorContext): DetectionResult;
}
