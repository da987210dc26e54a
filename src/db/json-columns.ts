import { Type, type Static, type TSchema } from 'typebox';
import { Compile, type Validator } from 'typebox/compile';
import { Value } from 'typebox/value';

/** JSON is stored as text on both engines (docs/decisions.md, "Storage"); it is read back with decodeJsonColumn. */
export const toJsonColumn = (value: unknown): string | null => (value === null || value === undefined ? null : JSON.stringify(value));

/**
 * A stored JSON column that is not what Warden wrote (edited by hand, written by a version that
 * stored another shape). A run that meets one fails with this message; it never goes on with a
 * value of the wrong type.
 */
export class ColumnDecodeError extends Error {
  override name = 'ColumnDecodeError';
}

/**
 * A JSON column decoded once, where the repo reads it: parsed and checked against its TypeBox
 * schema, so jobs, engines and services get typed values (docs/architecture.md, "Typed edges").
 * `column` names it in the error (`redteam_campaigns.cases`).
 */
export function decodeJsonColumn<S extends TSchema>(schema: S, text: string, column: string): Static<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ColumnDecodeError(`The stored ${column} is not valid JSON`);
  }
  if (validatorOf(schema).Check(value)) return value as Static<S>;
  const first = Value.Errors(schema, value)[0];
  const where = first === undefined || first.instancePath === '' ? '' : ` at ${first.instancePath}`;
  throw new ColumnDecodeError(`The stored ${column} is not what Warden expects${where}: ${first?.message ?? 'another shape'}`);
}

/**
 * The schema's check compiled once (TypeBox's Compile), kept with the schema object: a page of 100
 * rules decodes several columns per rule, and `Value.Check` walks the schema anew for each
 * value, five times the CPU of the rest of a new deep page (bench/README.md, "A new deep page").
 */
const validators = new WeakMap<TSchema, Validator>();
function validatorOf(schema: TSchema): Validator {
  let validator = validators.get(schema);
  if (validator === undefined) {
    validator = Compile(schema);
    validators.set(schema, validator);
  }
  return validator;
}

/** decodeJsonColumn for a nullable column: null stays null. */
export const decodeNullableJsonColumn = <S extends TSchema>(schema: S, text: string | null, column: string): Static<S> | null =>
  text === null ? null : decodeJsonColumn(schema, text, column);

/**
 * A nullable column of any JSON (the caller normalises it field by field, as the agents'
 * mapping does): parsed once, a ColumnDecodeError when it is not JSON. null stays null.
 */
export function decodeJsonValue(text: string | null, column: string): unknown {
  if (text === null) return null;
  // Any JSON is accepted: no schema to walk (a list of agents decodes eleven of these per row).
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ColumnDecodeError(`The stored ${column} is not valid JSON`);
  }
}

/** A nullable column holding a list of strings (tags, names, ids). */
export function decodeStringList(text: string | null, column: string): string[] | null {
  const value = decodeJsonValue(text, column);
  if (value === null || (Array.isArray(value) && value.every((item) => typeof item === 'string'))) return value as string[] | null;
  // The schema's own error, naming where the value differs.
  return decodeJsonColumn(StringList, text!, column);
}

const StringList = Type.Array(Type.String());
