import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';

/** `%`, `_` and `\` in a search term are matched literally, not as wildcards. */
export const likePattern = (term: string) => `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * `column` holds `term`, ignoring case. lower() on both sides: LIKE is case-insensitive on
 * SQLite but not on PostgreSQL (both lower ASCII letters alike).
 */
export const containsIgnoringCase = (column: Expression<unknown>, term: string): RawBuilder<SqlBool> =>
  sql<SqlBool>`lower(${column}) like ${likePattern(term)} escape '\\'`;
