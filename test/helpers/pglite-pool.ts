import { PGlite, types } from '@electric-sql/pglite';
import type { PostgresPool, PostgresPoolClient } from 'kysely';

/**
 * Embedded PostgreSQL (PGlite, real PostgreSQL compiled to WebAssembly) behind the pool
 * interface Kysely's PostgresDialect takes, so that a laptop without a PostgreSQL server
 * still runs the suite's PostgreSQL path with the same SQL. PGlite has one connection:
 * clients are handed out one at a time, as a pool of size 1 would.
 */
export function pglitePool(): { pool: PostgresPool; ready: Promise<void> } {
  const pg = new PGlite({ parsers: { [types.INT8]: (value: string) => Number(value) } });
  let queue: Promise<void> = Promise.resolve();
  const client = (release: () => void) =>
    ({
      async query(sql: string, parameters: ReadonlyArray<unknown>) {
        const result = await pg.query(sql, parameters as unknown[]);
        const command = (result as { command?: string }).command ?? 'SELECT';
        return { command, rowCount: result.affectedRows ?? result.rows.length, rows: result.rows };
      },
      release,
    }) as unknown as PostgresPoolClient;
  const pool: PostgresPool = {
    connect() {
      let release!: () => void;
      const turn = new Promise<void>((resolve) => {
        release = resolve;
      });
      const previous = queue;
      queue = previous.then(() => turn);
      return previous.then(() => client(release));
    },
    end: () => pg.close(),
  };
  return { pool, ready: pg.waitReady };
}
