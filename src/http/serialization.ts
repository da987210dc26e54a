import { SerializerSelector, type SerializerFactory } from '@fastify/fast-json-stringify-compiler';

type Schema = Record<string, unknown>;

/** Keywords after which a schema is no longer one plain type that a `type` list can carry. */
const NOT_PLAIN = ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', 'const'] as const;

/** Keywords whose value is data, not a schema: never rewritten. */
const VALUES = new Set(['default', 'enum', 'const', 'examples']);

const isNull = (option: unknown) => {
  if (option === null || typeof option !== 'object') return false;
  const keys = Object.keys(option);
  return keys.length === 1 && keys[0] === 'type' && (option as Schema).type === 'null';
};

const isPlain = (option: unknown): option is Schema =>
  option !== null && typeof option === 'object' && typeof (option as Schema).type === 'string' && NOT_PLAIN.every((k) => !(k in option));

/**
 * The same schema for serialising, with every nullable plain type (`anyOf: [{ type: T, … }, { type:
 * 'null' }]`, TypeBox's `Union([T, Null()])`) written as `{ type: [T, 'null'], … }`.
 *
 * fast-json-stringify picks an `anyOf` option by running an Ajv validator of each option on
 * the value, for every value: a page of 100 rules ran ~1,500 of them, whole provenance objects
 * and UUID patterns included (a quarter of the page's serialisation). A type list is picked
 * with `typeof` and `=== null`. What is written for values of the declared types is the same.
 * A nullable field given a value of another type is still refused (fast-json-stringify throws,
 * a 500). Below it, inside a nullable object or array, values are now written as
 * fast-json-stringify writes every non-nullable field: converted to the schema's type (`[1]`
 * in a string list is written `["1"]`), where the Ajv check of the `anyOf` option used to
 * refuse them; and a value of the right type that breaks a constraint (a pattern, an enum, a
 * length) is not caught. Serialising is not validating: every answer is validated against its
 * schema in the tests (docs/decisions.md, "Serialisation"). Validation and the OpenAPI
 * description keep `anyOf`.
 */
export function nullableAsTypeList(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(nullableAsTypeList);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [key, value] of Object.entries(schema)) out[key] = VALUES.has(key) ? value : nullableAsTypeList(value);
  const options = out.anyOf;
  if (!Array.isArray(options) || options.length !== 2) return out;
  const [first, second] = options as unknown[];
  const other = isNull(second) ? first : isNull(first) ? second : undefined;
  if (!isPlain(other)) return out;
  const { anyOf: _anyOf, ...siblings } = out;
  // A `default` inside the option is not lifted: under `anyOf` fast-json-stringify does not
  // write it for a missing field, and it must not start to.
  const { default: _default, ...option } = other;
  return { ...siblings, ...option, type: [other.type, 'null'] };
}

/**
 * Fastify's own serializer compiler (fast-json-stringify) over response schemas rewritten by
 * `nullableAsTypeList`; for the server option `schemaController.compilersFactory.buildSerializer`.
 */
export const buildSerializer: SerializerFactory = (externalSchemas, serializerOptions) => {
  const compile = SerializerSelector()(externalSchemas, serializerOptions);
  return (route) => compile({ ...route, schema: nullableAsTypeList(route.schema) });
};
