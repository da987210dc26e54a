import {
  OperationNodeTransformer,
  type KyselyPlugin,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type PrimitiveValueListNode,
  type QueryResult,
  type RootOperationNode,
  type UnknownRow,
  type ValueNode,
} from 'kysely';

const NUL = /\u0000/g;

/** A parameter of a write as stored: text without NUL characters (also src/db/statement-memo.ts). */
export const withoutNul = (value: unknown): unknown => {
  if (typeof value === 'string') return value.includes('\u0000') ? value.replace(NUL, '') : value;
  if (Array.isArray(value) && value.some((item) => typeof item === 'string' && item.includes('\u0000'))) return value.map(withoutNul);
  return value;
};

class StripNul extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    const value = withoutNul(node.value);
    return value === node.value ? node : { ...node, value };
  }

  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    const values = node.values.map(withoutNul);
    return values.every((value, i) => value === node.values[i]) ? node : { ...node, values };
  }
}

/**
 * Whether any value of the tree holds a NUL: a walk that allocates nothing, so that a statement
 * without one (nearly all) is not rebuilt node by node by the transformer.
 */
function holdsNul(node: unknown): boolean {
  if (typeof node === 'string') return node.includes('\u0000');
  if (typeof node !== 'object' || node === null || ArrayBuffer.isView(node)) return false;
  if (Array.isArray(node)) {
    for (const item of node) if (holdsNul(item)) return true;
    return false;
  }
  for (const key in node) if (holdsNul((node as Record<string, unknown>)[key])) return true;
  return false;
}

/** The statements that write: the only ones whose values end up stored. */
export const WRITES: ReadonlySet<RootOperationNode['kind']> = new Set(['InsertQueryNode', 'UpdateQueryNode', 'MergeQueryNode', 'RawNode']);

/**
 * Every text value a statement writes loses its NUL characters (U+0000), on both engines, in
 * this one place (docs/decisions.md, "NUL characters"). PostgreSQL cannot store NUL in text (an
 * agent's answer holding one failed the whole evaluation), SQLite can; requests are refused
 * for a NUL before any code runs, but what Warden takes from elsewhere (agents' answers, their
 * error messages, a model's output) is not a request. JSON is stored as text, in which
 * JSON.stringify already writes NUL as the six characters `\u0000`.
 */
export class NulFreeText implements KyselyPlugin {
  readonly #strip = new StripNul();

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    return WRITES.has(args.node.kind) && holdsNul(args.node) ? this.#strip.transformNode(args.node, args.queryId) : args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return args.result;
  }
}
