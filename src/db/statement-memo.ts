import { createQueryId, type Compilable, type CompiledQuery, type Kysely, type RootOperationNode } from 'kysely';
import { withoutNul, WRITES } from './nul-free-text.js';

/**
 * Statements of the hot paths built and compiled once per shape (docs/decisions.md, "Fewer
 * hand-offs to the SQLite writer thread"): building a Kysely query, copying it through the
 * plugins and compiling it cost 20–45 µs per lifecycle move on this kind of host, and the
 * lifecycle move and the agent update build the same statements with other values every time.
 * The first call of a shape builds the statement with a marker in place of each value and learns
 * which value each parameter binds; later calls reuse its SQL and tree with their own values.
 *
 * A shape is the statement's name and the names of the values given (a field left `undefined`
 * is not part of it: Kysely leaves such a column out of the SQL; null and booleans are part of
 * it by value: Kysely may write them into the SQL). `build` must make the statement from the
 * values it is given and nothing else. A value Kysely would make part of the SQL (an
 * expression, a function, a list) is never memoised: that call is built as usual, and so is a
 * shape that leaves one of its values unbound. The values go through what the plugins do to a
 * parameter (NUL characters dropped from what a write stores: src/db/nul-free-text.ts) and are
 * bound as given otherwise, as Kysely binds them. At most MAX_SHAPES shapes are kept per
 * database; past them new shapes are built every time.
 */
const MAX_SHAPES = 256;

/** The values of a statement: named leaves, or one level of named objects of leaves (a patch). */
export type StatementValues = Readonly<Record<string, unknown>>;

const MARK = Symbol('warden.statementValue');
interface Marker {
  readonly [MARK]: number;
}
const isMarker = (value: unknown): value is Marker => typeof value === 'object' && value !== null && MARK in value;

interface Shape {
  sql: string;
  /** The tree as learnt (markers for values): read only for which table a write writes (src/db/table-caching.ts). */
  query: RootOperationNode;
  /** Per parameter, the index of the value it binds, or a constant of the shape. */
  positions: Array<number | { constant: unknown }>;
  writes: boolean;
}

/**
 * A value that Kysely would turn into SQL rather than bind as one parameter: an expression, a
 * function, a list (`in (?, ?, …)`, one parameter per item).
 */
const shapesSql = (value: unknown) =>
  typeof value === 'function' ||
  Array.isArray(value) ||
  (typeof value === 'object' && value !== null && typeof (value as { toOperationNode?: unknown }).toOperationNode === 'function');

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;

/**
 * A leaf's part of the shape's key: its name, and the value itself where Kysely may write it
 * into the SQL rather than bind it (null and booleans after `is`): such a leaf is given as it is
 * when the shape is learnt, and a parameter it makes is a constant of the shape.
 */
const leafKey = (name: string, value: unknown) => (value === null || typeof value === 'boolean' ? `${name}=${String(value)},` : `${name},`);
const asIs = (value: unknown) => value === null || typeof value === 'boolean';

/**
 * The values in a fixed order, the shape's key, and (when `leaf` is given, to learn a shape) a
 * copy of `values` with each leaf replaced by `leaf(index, value)`.
 */
function flatten(values: StatementValues, leaf?: (index: number, value: unknown) => unknown) {
  const leaves: unknown[] = [];
  let key = '';
  const mirror: Record<string, unknown> = {};
  const add = (name: string, value: unknown) => {
    key += leafKey(name, value);
    const placed = leaf?.(leaves.length, value);
    leaves.push(value);
    return placed;
  };
  for (const name in values) {
    const value = values[name];
    if (value === undefined) continue;
    if (isPlainObject(value)) {
      const inner: Record<string, unknown> = {};
      key += `${name}{`;
      for (const field in value) {
        const item = value[field];
        if (item === undefined) continue;
        if (shapesSql(item)) return null;
        const placed = add(field, item);
        if (leaf) inner[field] = placed;
      }
      key += '}';
      if (leaf) mirror[name] = inner;
    } else {
      if (shapesSql(value)) return null;
      const placed = add(name, value);
      if (leaf) mirror[name] = placed;
    }
  }
  return { leaves, key, mirror };
}

export interface StatementMemo {
  /** The statement `build` makes from `values`, compiled (from its shape's memo after the first call). */
  compile<V extends StatementValues>(db: Kysely<any>, name: string, values: V, build: (values: V) => Compilable<unknown>): CompiledQuery;
}

/** One memo per feature's statements; shapes are kept per Kysely adapter (SQLite and PostgreSQL compile apart). */
export function createStatementMemo(): StatementMemo {
  const byAdapter = new WeakMap<object, Map<string, Shape | null>>();
  return {
    compile(db, name, values, build) {
      const flat = flatten(values);
      if (flat === null) return build(values).compile();
      const adapter = db.getExecutor().adapter;
      let shapes = byAdapter.get(adapter);
      if (shapes === undefined) byAdapter.set(adapter, (shapes = new Map()));
      const key = `${name}\u0000${flat.key}`;
      let shape = shapes.get(key);
      if (shape === undefined) {
        const marked = flatten(values, (index, value): unknown => (asIs(value) ? value : ({ [MARK]: index } satisfies Marker)))!;
        const compiled = build(marked.mirror as typeof values).compile();
        const used = new Set<number>();
        const positions = compiled.parameters.map((parameter) => {
          if (!isMarker(parameter)) return { constant: parameter };
          used.add(parameter[MARK]);
          return parameter[MARK];
        });
        // Every value given must be bound: one that is not went into the SQL some other way.
        const bound = flat.leaves.every((value, index) => asIs(value) || used.has(index));
        shape = bound ? { sql: compiled.sql, query: compiled.query, positions, writes: WRITES.has(compiled.query.kind) } : null;
        if (shapes.size < MAX_SHAPES) shapes.set(key, shape);
      }
      if (shape === null) return build(values).compile();
      const { writes } = shape;
      const parameters = shape.positions.map((at) => {
        const value = typeof at === 'number' ? flat.leaves[at] : at.constant;
        return writes ? withoutNul(value) : value;
      });
      return { sql: shape.sql, query: shape.query, queryId: createQueryId(), parameters };
    },
  };
}
