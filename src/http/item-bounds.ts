import type { ErrorObject } from 'ajv';

type Schema = Record<string, unknown>;
type Check = (value: unknown, pointer: string, found: ErrorObject[]) => void;

/** Finds the arrays of a value that hold more items than their schema allows (none: undefined). */
export type ItemBounds = (value: unknown) => ErrorObject[] | undefined;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const escape = (key: string) => key.replace(/~/g, '~0').replace(/\//g, '~1');

/**
 * Ajv runs with `allErrors`, so an array longer than its `maxItems` still has every item checked
 * and reported: 100,000 bad items made 100,000 errors before a word of the answer was written.
 * This walks the schema once and returns a check, run before Ajv, that finds such arrays
 * without looking inside them; the request is then refused for their length alone (pydantic
 * also stops at `too_long`). Walks what the cleaner walks (`clean.ts`): objects, arrays, and
 * unions told apart by the value's JSON type; anything else is left to Ajv.
 */
export function compileItemBounds(schema: unknown): ItemBounds {
  const check = build(schema as Schema);
  if (check === undefined) return () => undefined;
  return (value) => {
    const found: ErrorObject[] = [];
    check(value, '', found);
    return found.length === 0 ? undefined : found;
  };
}

function build(schema: Schema): Check | undefined {
  if (typeof schema !== 'object' || schema === null) return undefined;
  if (Array.isArray(schema.anyOf)) return buildUnion(schema.anyOf as Schema[]);
  if (schema.type === 'object') return buildObject(schema);
  if (schema.type === 'array') return buildArray(schema);
  return undefined;
}

function buildArray(schema: Schema): Check | undefined {
  const limit = typeof schema.maxItems === 'number' ? schema.maxItems : undefined;
  const item = isPlainObject(schema.items) ? build(schema.items) : undefined;
  if (limit === undefined && item === undefined) return undefined;
  return (value, pointer, found) => {
    if (!Array.isArray(value)) return;
    if (limit !== undefined && value.length > limit) {
      found.push({
        instancePath: pointer,
        schemaPath: '#/maxItems',
        keyword: 'maxItems',
        params: { limit },
        message: `must NOT have more than ${limit} items`,
      });
      return;
    }
    if (item !== undefined) for (let i = 0; i < value.length; i++) item(value[i], `${pointer}/${i}`, found);
  };
}

function buildObject(schema: Schema): Check | undefined {
  const checks: Array<[string, Check]> = [];
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const check = build(property);
    if (check !== undefined) checks.push([key, check]);
  }
  if (checks.length === 0) return undefined;
  return (value, pointer, found) => {
    if (!isPlainObject(value)) return;
    for (const [key, check] of checks) if (Object.hasOwn(value, key)) check(value[key], `${pointer}/${escape(key)}`, found);
  };
}

function buildUnion(variants: Schema[]): Check | undefined {
  // A variant of no single JSON type might accept the long array: Ajv decides those.
  if (variants.some((v) => typeof v.type !== 'string' || 'anyOf' in v || '$ref' in v)) return undefined;
  const objects = variants.filter((v) => v.type === 'object');
  const arrays = variants.filter((v) => v.type === 'array');
  if (objects.length > 1 || arrays.length > 1) return undefined;
  const object = objects[0] === undefined ? undefined : build(objects[0]);
  const array = arrays[0] === undefined ? undefined : build(arrays[0]);
  if (object === undefined && array === undefined) return undefined;
  return (value, pointer, found) => {
    if (Array.isArray(value)) array?.(value, pointer, found);
    else if (isPlainObject(value)) object?.(value, pointer, found);
  };
}
