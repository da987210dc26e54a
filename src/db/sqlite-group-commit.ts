import type SqliteDatabase from 'better-sqlite3';
import type { DataVersions, PreparedStatement } from './database.js';
import { writtenTable } from './table-caching.js';
import {
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type QueryCompiler,
  type QueryResult,
} from 'kysely';

type Prepare = (sql: string) => PreparedStatement;

interface Waiter {
  resolve(): void;
  reject(error: unknown): void;
}

/** Raised to the members of a group whose COMMIT failed or that SQLite rolled back as a whole. */
export class GroupCommitError extends Error {
  constructor(cause: unknown) {
    super('the transaction could not be committed', { cause });
    this.name = 'GroupCommitError';
  }
}

/**
 * Group commit for SQLite with `synchronous=FULL` (docs/decisions.md, "Group commit").
 *
 * One fsync per transaction caps durable writes at the disk's fsync rate (0.5–4 ms here).
 * Instead, the writes of every request that reaches the database while a group is open run
 * inside one SQLite transaction on the writer connection, each request's own transaction as
 * a savepoint of it, and the group ends with one COMMIT (one fsync), scheduled as soon as the
 * group opens: whatever queues on the writer before that COMMIT joins it. Durability per
 * request is unchanged:
 *
 * - no write is acknowledged before the COMMIT that makes it durable: a write statement, or
 *   a request's transaction, resolves only after that COMMIT returns;
 * - a request's transaction is still atomic: it is a savepoint, rolled back alone on error;
 * - if the COMMIT fails, or SQLite rolls the group back as a whole (disk full, I/O error),
 *   every member is answered the error: none of them was acknowledged.
 *
 * Reads outside a transaction run on a second, read-only connection. In WAL mode it sees
 * only committed data, so a read never sees a write that is not yet durable, never waits for
 * a group, and sees every write that was acknowledged before it started. Writes and
 * transactions take the writer one at a time, in arrival order (a FIFO lock, as Kysely's
 * own SQLite driver does with its mutex), so the group is serialisable.
 */
export class GroupCommitSqlite {
  readonly #writer: SqliteDatabase.Database;
  readonly #reader: SqliteDatabase.Database;
  readonly #prepareWriter: Prepare;
  readonly #prepareReader: Prepare;
  readonly #queue: Array<() => void> = [];
  #locked = false;
  #open = false;
  #commitScheduled = false;
  #waiters: Waiter[] = [];
  /** Groups committed or failed by this process: part of readVersion(). */
  #groups = 0;
  /** Groups that wrote to an identity table, committed or failed: part of versions().identity. */
  #identityGroups = 0;
  #groupTouchesIdentity = false;
  readonly #writerDataVersion: SqliteDatabase.Statement;
  readonly #tx: Record<'begin' | 'commit' | 'rollback' | 'savepoint' | 'release' | 'rollbackTo', SqliteDatabase.Statement>;
  /** Whether a write to a table moves the identity version (the tables' classes: src/db/table-caching.ts). */
  readonly #movesIdentity: (table: string | undefined) => boolean;

  constructor(
    writer: SqliteDatabase.Database,
    reader: SqliteDatabase.Database,
    prepareWriter: Prepare,
    prepareReader: Prepare,
    movesIdentity: (table: string | undefined) => boolean = () => true,
  ) {
    this.#writer = writer;
    this.#movesIdentity = movesIdentity;
    this.#reader = reader;
    this.#prepareWriter = prepareWriter;
    this.#prepareReader = prepareReader;
    this.#tx = {
      begin: writer.prepare('BEGIN'),
      commit: writer.prepare('COMMIT'),
      rollback: writer.prepare('ROLLBACK'),
      savepoint: writer.prepare('SAVEPOINT warden_request'),
      release: writer.prepare('RELEASE warden_request'),
      rollbackTo: writer.prepare('ROLLBACK TO warden_request'),
    };
    // The writer's data_version moves only with commits of other connections (other processes);
    // this process's own commits are counted by #groups. One PRAGMA serves both versions: it
    // opens a read transaction (1–3 µs, the largest cost of a cached read), so it is read once.
    this.#writerDataVersion = writer.prepare('PRAGMA data_version').pluck();
  }

  /**
   * Two tokens, from one read of the writer's `PRAGMA data_version`:
   * - `read` changes whenever the committed data may have changed: a group committed (or
   *   failed) by this process, or a commit by any other connection to the file. Read it before
   *   a query: an answer cached under it is never newer than the token says.
   * - `identity` is moved only by commits that wrote to a table `movesIdentity` names (the
   *   tables a principal is derived from, declared by the auth module: src/db/table-caching.ts),
   *   and by any commit of another process.
   * Both move after the COMMIT and before any member of the group is answered, so nothing read
   * before a commit is filed under the version that follows it.
   */
  versions(): DataVersions {
    const other = this.#writerDataVersion.get() as number;
    return { read: `${this.#groups}.${other}`, identity: `${this.#identityGroups}.${other}` };
  }

  readVersion(): string {
    return this.versions().read;
  }

  #noteWrite(query: CompiledQuery): void {
    if (!this.#groupTouchesIdentity && this.#movesIdentity(writtenTable(query.query))) this.#groupTouchesIdentity = true;
  }

  /** The group has ended (committed or not): the versions move. */
  #groupEnded(): void {
    this.#groups++;
    if (this.#groupTouchesIdentity) this.#identityGroups++;
    this.#groupTouchesIdentity = false;
  }

  // ------------------------------------------------------------------ the writer lock

  lock(handle: GroupConnection): Promise<void> {
    handle.locked = true;
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#queue.push(resolve));
  }

  release(handle: GroupConnection): void {
    if (!handle.locked) return;
    handle.locked = false;
    const next = this.#queue.shift();
    if (next !== undefined) next();
    else this.#locked = false;
  }

  // ------------------------------------------------------------------ the group

  #openGroup(): void {
    if (this.#open) return;
    this.#tx.begin.run();
    this.#open = true;
    if (!this.#commitScheduled) {
      this.#commitScheduled = true;
      // Everything that queues on the writer before this COMMIT joins the group.
      setImmediate(() => void this.#commit());
    }
  }

  async #commit(): Promise<void> {
    const handle = new GroupConnection(this);
    await this.lock(handle);
    this.#commitScheduled = false;
    try {
      if (this.#open) this.#endGroup();
    } finally {
      this.release(handle);
    }
  }

  #endGroup(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#open = false;
    try {
      this.#tx.commit.run();
    } catch (error) {
      if (this.#writer.inTransaction) this.#tx.rollback.run();
      this.#groupEnded();
      for (const w of waiters) w.reject(new GroupCommitError(error));
      return;
    }
    this.#groupEnded();
    for (const w of waiters) w.resolve();
  }

  /** After a failed statement: if SQLite rolled the whole group back, fail its members. */
  #afterError(error: unknown, handle: GroupConnection): void {
    if (!this.#open || this.#writer.inTransaction) return;
    this.#open = false;
    this.#groupEnded();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w.reject(new GroupCommitError(error));
    if (handle.depth > 0) handle.aborted = true;
  }

  /** Lets the next request use the writer, then waits for the group to be durable. */
  async #releaseAndAwaitDurable(handle: GroupConnection): Promise<void> {
    if (!this.#open) {
      this.release(handle);
      return;
    }
    const durable = new Promise<void>((resolve, reject) => this.#waiters.push({ resolve, reject }));
    this.release(handle);
    await durable;
  }

  // ------------------------------------------------------------------ statements

  async execute<R>(handle: GroupConnection, query: CompiledQuery): Promise<QueryResult<R>> {
    const params = query.parameters as unknown[];
    if (handle.depth === 0) {
      const read = this.#prepareReader(query.sql);
      if (read.readonly) {
        if (!read.reader) return { rows: [] };
        return { rows: read.all(params) as R[] };
      }
      await this.lock(handle);
      this.#openGroup();
    } else if (handle.aborted) {
      throw new GroupCommitError(new Error('the group this transaction belonged to was rolled back'));
    }
    const stmt = this.#prepareWriter(query.sql);
    if (!stmt.readonly) this.#noteWrite(query);
    let result: QueryResult<R>;
    try {
      if (stmt.reader) {
        result = { rows: stmt.all(params) as R[] };
      } else {
        const { changes, lastInsertRowid } = stmt.run(params);
        result = { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
      }
    } catch (error) {
      this.#afterError(error, handle);
      if (handle.depth === 0) await this.#releaseAndAwaitDurable(handle).catch(() => undefined);
      throw error;
    }
    // A write outside a request's transaction is answered once its group is durable.
    if (handle.depth === 0) await this.#releaseAndAwaitDurable(handle);
    return result;
  }

  async begin(handle: GroupConnection): Promise<void> {
    await this.lock(handle);
    this.#openGroup();
    this.#tx.savepoint.run();
    handle.depth = 1;
  }

  async commit(handle: GroupConnection): Promise<void> {
    if (handle.aborted) throw new GroupCommitError(new Error('the group this transaction belonged to was rolled back'));
    this.#tx.release.run();
    handle.depth = 0;
    await this.#releaseAndAwaitDurable(handle);
  }

  async rollback(handle: GroupConnection): Promise<void> {
    if (!handle.aborted && this.#writer.inTransaction) {
      this.#tx.rollbackTo.run();
      this.#tx.release.run();
    }
    handle.depth = 0;
    // The caller rethrows its own error, answered after the group like everything that ran
    // inside it (it may have read rows of other requests that were not yet durable).
    await this.#releaseAndAwaitDurable(handle).catch(() => undefined);
  }

  /** Nested savepoints inside a request's transaction (Kysely's `trx.savepoint()`). */
  runRaw(sql: string): void {
    this.#groupTouchesIdentity = true;
    this.#writer.prepare(sql).run();
  }

  async close(): Promise<void> {
    const handle = new GroupConnection(this);
    await this.lock(handle);
    try {
      if (this.#open) this.#endGroup();
      this.#reader.close();
      this.#writer.close();
    } finally {
      this.release(handle);
    }
  }
}

/** One use of the connection (one acquire): Kysely releases it; a commit may release it earlier. */
class GroupConnection implements DatabaseConnection {
  /** Holds the writer lock. */
  locked = false;
  /** 1 inside a request's transaction. */
  depth = 0;
  aborted = false;
  readonly #group: GroupCommitSqlite;

  constructor(group: GroupCommitSqlite) {
    this.#group = group;
  }

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.#group.execute<R>(this, query);
  }

  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('streaming queries are not supported on SQLite');
  }
}

class GroupCommitDriver implements Driver {
  readonly #group: GroupCommitSqlite;

  constructor(group: GroupCommitSqlite) {
    this.#group = group;
  }

  async init(): Promise<void> {}

  /** The writer is locked on first need (a write, a transaction): reads never wait for it. */
  async acquireConnection(): Promise<DatabaseConnection> {
    return new GroupConnection(this.#group);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#group.begin(connection as GroupConnection);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#group.commit(connection as GroupConnection);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await this.#group.rollback(connection as GroupConnection);
  }

  async savepoint(_connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(savepointSql('savepoint', name, compile));
  }

  async rollbackToSavepoint(_connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(savepointSql('rollback to', name, compile));
  }

  async releaseSavepoint(_connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(savepointSql('release', name, compile));
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    this.#group.release(connection as GroupConnection);
  }

  async destroy(): Promise<void> {
    await this.#group.close();
  }
}

function savepointSql(command: string, name: string, _compile: QueryCompiler['compileQuery']): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new Error(`invalid savepoint name: ${name}`);
  return `${command} ${name}`;
}

/** A Kysely dialect over one better-sqlite3 handle with group commit. */
export function groupCommitDialect(group: GroupCommitSqlite): Dialect {
  return {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new GroupCommitDriver(group),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
