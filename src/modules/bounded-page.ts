/**
 * A list answer bounded in bytes as well as in rows (docs/api.md, "Bounds"): rows are read from
 * the database a chunk at a time and the page ends before the row that would take its
 * serialised size past `maxBytes` (a page holds at least one row: each row is bounded itself).
 * A client pages on from `next_offset` (offset + rows answered), not from offset + limit.
 */
export const PAGE_MAX_BYTES = 4 * 1024 * 1024;

/** Rows read per database query while a page fills. */
const READ_CHUNK = 100;

export interface BoundedPage<T> {
  items: T[];
  /** True when the page stopped at `maxBytes` before `limit` rows. */
  sizeLimited: boolean;
  /** The offset of the row after the page (`next_offset` when rows remain). */
  end: number;
}

export async function readBoundedPage<R, T>(options: {
  offset: number;
  limit: number;
  maxBytes?: number;
  /** Rows from `offset`, at most `limit` of them, in a stable order. */
  read(offset: number, limit: number): Promise<readonly R[]>;
  map(row: R): T;
}): Promise<BoundedPage<T>> {
  const maxBytes = options.maxBytes ?? PAGE_MAX_BYTES;
  const items: T[] = [];
  let bytes = 2;
  let at = options.offset;
  for (;;) {
    const want = Math.min(READ_CHUNK, options.limit - items.length);
    const rows = want > 0 ? await options.read(at, want) : [];
    for (const row of rows) {
      const item = options.map(row);
      const size = Buffer.byteLength(JSON.stringify(item)) + 1;
      if (items.length > 0 && bytes + size > maxBytes) return { items, sizeLimited: true, end: at };
      items.push(item);
      bytes += size;
      at++;
    }
    if (rows.length < want || items.length >= options.limit) return { items, sizeLimited: false, end: at };
  }
}
