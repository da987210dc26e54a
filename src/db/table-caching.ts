import type { RootOperationNode } from 'kysely';

/**
 * How Warden's in-process caches treat a table (docs/caching.md). Every table is classified,
 * by the feature that owns it, in one line beside its repo; `test/table-caching.test.ts` fails
 * for a table that no rule names.
 *
 * - `'identity'`: a principal (who the caller is, their teams, roles, sessions, keys) is read
 *   from it. A commit that writes it moves the *identity* version, and every principal kept by
 *   the principal cache (src/http/auth.ts) is checked again on its next request.
 * - `'data'`: everything else. A commit that writes it moves the *read* version only, as every
 *   commit does: cached answers (src/http/response-cache.ts), memoised counts
 *   (src/db/count-memo.ts) and the deep-page anchors are computed again.
 *
 * A table that no rule names counts as `'identity'` at run time (the safe side: principals are
 * checked again after every write to it), and the test fails until it is declared.
 */
export type TableCaching = 'identity' | 'data';

export type TableCachingRules = Readonly<Record<string, TableCaching>>;

/** One feature's tables and their class: `export const AGENT_TABLES = tableCaching({ agents: 'data' });` */
export const tableCaching = <const T extends Record<string, TableCaching>>(rules: T): T => rules;

/**
 * Whether a commit that wrote `table` moves the identity version: a table classified
 * `'identity'`, a table no rule names, and a write whose table is not known (`undefined`: raw
 * SQL, a savepoint) do. Without rules, every write does.
 */
export function identityWrites(rules: TableCachingRules | undefined): (table: string | undefined) => boolean {
  if (rules === undefined) return () => true;
  const data = new Set(Object.keys(rules).filter((table) => rules[table] === 'data'));
  return (table) => table === undefined || !data.has(table);
}

const nameOf = (node: unknown): string | undefined => {
  const table = node as { kind?: string; table?: { identifier?: { name?: unknown } } } | undefined;
  if (table?.kind !== 'TableNode') return undefined;
  const name = table.table?.identifier?.name;
  return typeof name === 'string' ? name : undefined;
};

/**
 * The one table a Kysely write statement names (`insert into`, `update`, `delete from`), read
 * from the query's tree, not its SQL text; undefined for anything else (raw SQL, a statement
 * with a CTE or a join, which may write or read elsewhere): such writes count as unknown.
 */
export function writtenTable(node: RootOperationNode): string | undefined {
  const query = node as { kind: string; with?: unknown; joins?: unknown; from?: { froms?: unknown[] }; into?: unknown; table?: unknown; using?: unknown };
  if (query.with !== undefined || query.joins !== undefined) return undefined;
  switch (query.kind) {
    case 'InsertQueryNode':
      return nameOf(query.into);
    case 'UpdateQueryNode':
      return query.from === undefined ? nameOf(query.table) : undefined;
    case 'DeleteQueryNode':
      return query.using === undefined && query.from?.froms?.length === 1 ? nameOf(query.from.froms[0]) : undefined;
    default:
      return undefined;
  }
}
