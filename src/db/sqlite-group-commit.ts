import type SqliteDatabase from 'better-sqlite3';
import type { DataVersions, PreparedStatement } from './database.js';
import {
  WriterStepError,
  type EachCommitAnswer,
  type EachOp,
  type EachOutcome,
  type ExecResult,
  type WriterOp,
  type WriterThread,
} from './sqlite-writer-thread.js';
import { BatchingSqliteAdapter, batchStepsOf, type BatchResults, type BatchStep } from './statement-batch.js';
import { writtenTable } from './table-caching.js';
import {
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

/** A write outside a request's transaction, waiting for the next call to the writer (#flushWrites). */
interface PendingWrite {
  query: CompiledQuery;
  steps: readonly BatchStep[] | undefined;
  resolve(result: QueryResult<unknown>): void;
  reject(error: unknown): void;
}

/** A batch's steps as the writer thread takes them. */
const batchedStatements = (steps: readonly BatchStep[]) =>
  steps.map((step) => ({ sql: step.query.sql, params: step.query.parameters, ifChanged: step.onlyIfPreviousChanged }));

const eachOpOf = (write: PendingWrite): EachOp =>
  write.steps === undefined
    ? { k: 'exec', sql: write.query.sql, params: write.query.parameters }
    : { k: 'batch', steps: batchedStatements(write.steps) };

/** A failure of a call to the writer as a step error (one not from a step, e.g. a stopped writer, counts as the call's own). */
const asStepError = (caught: unknown): WriterStepError =>
  caught instanceof WriterStepError ? caught : new WriterStepError(caught as Error, true, true);

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
 * The writer connection lives in a worker thread (sqlite-writer-thread.ts): statements are
 * sent to it one by one and answered synchronously, but the COMMIT, which waits for the
 * disk, is awaited: the event loop goes on answering reads meanwhile, and the requests that
 * want the writer queue for the next group. Steps that need no answer of their own (BEGIN,
 * SAVEPOINT, RELEASE, ROLLBACK TO) travel with the next call, and a request can send several
 * statements as one call (a batch: statement-batch.ts). Writes outside a transaction are not
 * waited for: those of one turn of the event loop go to the writer together in one asynchronous
 * call (#queueWrite), each still on its own.
 *
 * Reads outside a transaction run on a second, read-only connection on the main thread. In
 * WAL mode at `synchronous=FULL` a commit becomes visible to other connections only once it
 * is on disk (SQLite writes the WAL index header after the sync), so a read never sees a
 * write that is not yet durable, never waits for a group, and sees every write that was
 * acknowledged before it started. Writes and transactions take the writer one at a time, in
 * arrival order (a FIFO lock, as Kysely's own SQLite driver does with its mutex), so the
 * group is serialisable.
 */
/** Past this many bytes of bound values, a statement is sent to the writer without blocking the event loop. */
const ASYNC_STATEMENT_BYTES = 64 * 1024;

function boundBytes(params: readonly unknown[]): number {
  let bytes = 0;
  for (const value of params) {
    if (typeof value === 'string') bytes += value.length;
    else if (value instanceof Uint8Array) bytes += value.byteLength;
  }
  return bytes;
}

function queryResult<R>(out: ExecResult): QueryResult<R> {
  if (out.reader) return { rows: out.rows as R[] };
  return { numAffectedRows: BigInt(out.changes ?? 0), insertId: BigInt(out.lastInsertRowid ?? 0), rows: [] };
}

export class GroupCommitSqlite {
  readonly #writer: WriterThread;
  readonly #reader: SqliteDatabase.Database;
  readonly #prepareReader: Prepare;
  readonly #queue: Array<() => void> = [];
  #locked = false;
  #open = false;
  #commitScheduled = false;
  /** Steps for the writer that need no answer of their own: sent with the next call. */
  #deferred: WriterOp[] = [];
  #waiters: Waiter[] = [];
  /** Writes outside a transaction for the next call to the writer, in arrival order. */
  #pendingWrites: PendingWrite[] = [];
  /** Groups committed or failed by this process: part of readVersion(). */
  #groups = 0;
  /** Groups that wrote to an identity table, committed or failed: part of versions().identity. */
  #identityGroups = 0;
  #groupTouchesIdentity = false;
  /** Commits of other processes seen: part of versions().identity and of every table's version. */
  #foreign = 0;
  /** Per table, the groups of this process that wrote it (committed or failed): the tables' versions. */
  readonly #tableGroups = new Map<string, number>();
  /** Groups with a write whose table is not known (raw SQL, DDL): they move every table's version. */
  #unattributedGroups = 0;
  #groupTables = new Set<string>();
  #groupUnattributed = false;
  /** Tables with the tables whose deletes or updates cascade into them, per list asked for. */
  readonly #expanded = new Map<string, { at: string; tables: readonly string[] }>();
  readonly #cascadeParents: SqliteDatabase.Statement;
  readonly #scoped = (tables: readonly string[]): string => this.#tablesVersion(tables);
  /** The reader's data_version when last looked at (it moves with every commit, ours too). */
  #readerVersion: number;
  /** The writer's data_version when last asked (it moves only with other processes' commits). */
  #writerVersion: number;
  /** A COMMIT is under way in the writer thread. */
  #committing = false;
  readonly #readerDataVersion: SqliteDatabase.Statement;
  /** Whether a write to a table moves the identity version (the tables' classes: src/db/table-caching.ts). */
  readonly #movesIdentity: (table: string | undefined) => boolean;

  constructor(
    writer: WriterThread,
    reader: SqliteDatabase.Database,
    prepareReader: Prepare,
    movesIdentity: (table: string | undefined) => boolean = () => true,
  ) {
    this.#writer = writer;
    this.#movesIdentity = movesIdentity;
    this.#reader = reader;
    this.#prepareReader = prepareReader;
    // One PRAGMA serves both versions: it opens a read transaction (1–3 µs, the largest cost of
    // a cached read), so it is read once per request.
    this.#readerDataVersion = reader.prepare('PRAGMA data_version').pluck();
    this.#cascadeParents = reader.prepare('SELECT "table" AS parent, on_update, on_delete FROM pragma_foreign_key_list(?)');
    this.#readerVersion = this.#readerDataVersion.get() as number;
    this.#writerVersion = writer.call([{ k: 'dataVersion' }]) as number;
  }

  /**
   * Two tokens, from one read of the reader's `PRAGMA data_version` (which moves with every
   * commit to the file, this process's included):
   * - `read` changes whenever the committed data may have changed: a group committed (or
   *   failed) by this process, or a commit by any other connection to the file. Read it before
   *   a query: an answer cached under it is never newer than the token says.
   * - `identity` is moved only by commits that wrote to a table `movesIdentity` names (the
   *   tables a principal is derived from, declared by the auth module: src/db/table-caching.ts),
   *   and by any commit of another process. A move of the reader's version while no COMMIT of
   *   ours is under way is another process's; one during our COMMIT is told apart when the
   *   COMMIT returns, by the writer's own data_version (which only other processes move).
   * - `tables(names)` (read it before the queries it guards, like the others) is moved only by
   *   commits that wrote one of those tables, or a table whose deletes or updates cascade into
   *   one of them (from the schema's foreign keys), by writes whose table is not known (raw SQL,
   *   DDL), and by any commit of another process: a cache of answers read from a few tables
   *   stays valid while other tables are written.
   * Each has moved by the time any member of the group is answered, and none moves in a way
   * that files what was read before a commit under a version that shows it (the read version
   * counts a group when its COMMIT is sent, but its data_version part moves only when the
   * commit becomes visible; the others move when the COMMIT has returned).
   */
  versions(): DataVersions {
    const version = this.#readerDataVersion.get() as number;
    if (version !== this.#readerVersion) {
      this.#readerVersion = version;
      if (!this.#committing) this.#foreign++;
    }
    return { read: `${this.#groups}.${version}`, identity: `${this.#identityGroups}.${this.#foreign}`, tables: this.#scoped };
  }

  /** The read version, or with `tables` the version of those tables alone (see versions()). */
  readVersion(tables?: readonly string[]): string {
    const versions = this.versions();
    return tables === undefined ? versions.read : this.#tablesVersion(tables);
  }

  #tablesVersion(tables: readonly string[]): string {
    let version = `${this.#foreign}.${this.#unattributedGroups}`;
    for (const table of this.#withCascades(tables)) version += `.${this.#tableGroups.get(table) ?? 0}`;
    return version;
  }

  /** The tables and, transitively, every table whose rows' deletion or update changes theirs. */
  #withCascades(tables: readonly string[]): readonly string[] {
    const key = tables.join(',');
    // The schema can only have changed with a write of unknown table (DDL) or another process.
    const at = `${this.#foreign}.${this.#unattributedGroups}`;
    const known = this.#expanded.get(key);
    if (known !== undefined && known.at === at) return known.tables;
    const all = new Set<string>();
    const todo = [...tables];
    for (let table = todo.pop(); table !== undefined; table = todo.pop()) {
      if (all.has(table)) continue;
      all.add(table);
      for (const fk of this.#cascadeParents.all(table) as Array<{ parent: string; on_update: string; on_delete: string }>) {
        if (fk.on_delete !== 'NO ACTION' || fk.on_update !== 'NO ACTION') todo.push(fk.parent);
      }
    }
    const expanded = [...all].sort();
    this.#expanded.set(key, { at, tables: expanded });
    return expanded;
  }

  #noteWrite(query: CompiledQuery): void {
    const table = writtenTable(query.query);
    if (table === undefined) this.#groupUnattributed = true;
    else this.#groupTables.add(table);
    if (!this.#groupTouchesIdentity && this.#movesIdentity(table)) this.#groupTouchesIdentity = true;
  }

  /** The group has ended (committed or not): the versions move. */
  #groupEnded(counted = false): void {
    if (!counted) this.#groups++;
    if (this.#groupTouchesIdentity) this.#identityGroups++;
    this.#groupTouchesIdentity = false;
    for (const table of this.#groupTables) this.#tableGroups.set(table, (this.#tableGroups.get(table) ?? 0) + 1);
    if (this.#groupTables.size > 0) this.#groupTables = new Set();
    if (this.#groupUnattributed) this.#unattributedGroups++;
    this.#groupUnattributed = false;
    // Our own commit is in the reader's version from now on; whatever other processes
    // committed until the writer answers below is theirs.
    this.#readerVersion = this.#readerDataVersion.get() as number;
    try {
      const writerVersion = this.#writer.call([{ k: 'dataVersion' }]) as number;
      if (writerVersion !== this.#writerVersion) {
        this.#writerVersion = writerVersion;
        this.#foreign++;
      }
    } catch {
      this.#foreign++;
    }
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
    this.#deferred.push({ k: 'run', sql: 'BEGIN' });
    this.#open = true;
    if (!this.#commitScheduled) {
      this.#commitScheduled = true;
      // Everything that queues on the writer before this COMMIT joins the group.
      setImmediate(() => void this.#commit());
    }
  }

  #takeDeferred(): WriterOp[] {
    const steps = this.#deferred;
    this.#deferred = [];
    return steps;
  }

  async #commit(): Promise<void> {
    const handle = new GroupConnection(this);
    await this.lock(handle);
    this.#commitScheduled = false;
    try {
      if (this.#open) await this.#endGroup();
    } finally {
      this.release(handle);
    }
  }

  /** Commits the group, in the writer thread: the event loop goes on meanwhile. Holds the writer lock. */
  async #endGroup(): Promise<void> {
    const waiters = this.#waiters;
    this.#waiters = [];
    this.#open = false;
    let failure: unknown;
    try {
      await this.#sendingCommit(() => this.#writer.callAsync([...this.#takeDeferred(), { k: 'commit' }]));
    } catch (error) {
      failure = error instanceof WriterStepError ? error.error : error;
    }
    this.#groupEnded(true);
    if (failure !== undefined) for (const w of waiters) w.reject(new GroupCommitError(failure));
    else for (const w of waiters) w.resolve();
  }

  /**
   * A call to the writer that ends with the group's COMMIT (then call #groupEnded(true)). The read
   * version counts the group before its COMMIT can be seen: it also holds the reader's
   * data_version, which moves when the commit becomes visible, so nothing read before that is
   * filed under a version that shows it. The identity and table versions (which do not hold it)
   * move when the COMMIT has returned. While it runs, a move of the reader's data_version may be
   * our own commit: versions() does not count it as another process's.
   */
  async #sendingCommit<T>(call: () => Promise<T>): Promise<T> {
    this.#groups++;
    this.#committing = true;
    try {
      return await call();
    } finally {
      this.#committing = false;
    }
  }

  /** After a failed step: if SQLite rolled the whole group back, fail its members. */
  #afterError(error: WriterStepError, handle: GroupConnection): void {
    if (!this.#open || error.inTransaction) return;
    this.#open = false;
    this.#groupEnded();
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const w of waiters) w.reject(new GroupCommitError(error.error));
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
    const steps = batchStepsOf(query);
    const params = query.parameters as unknown[];
    if (handle.depth === 0) {
      if (steps === undefined) {
        const read = this.#prepareReader(query.sql);
        if (read.readonly) {
          if (!read.reader) return { rows: [] };
          return { rows: read.all(params) as R[] };
        }
      }
      return (await this.#queueWrite(query, steps)) as QueryResult<R>;
    }
    if (handle.aborted) throw new GroupCommitError(new Error('the group this transaction belonged to was rolled back'));
    let result: QueryResult<R>;
    try {
      if (steps !== undefined) {
        result = { rows: this.#executeBatch(steps) as R[] };
      } else {
        // A statement that binds much data (a telemetry batch, a big result) takes the writer
        // milliseconds: the event loop does not wait for it. The writer lock is held either way,
        // so nothing else reaches the writer meanwhile; small statements stay synchronous calls,
        // which cost less than a round of the event loop.
        const out =
          boundBytes(params) > ASYNC_STATEMENT_BYTES
            ? await this.#writer.execAsync(this.#takeDeferred(), query.sql, params)
            : this.#writer.exec(this.#takeDeferred(), query.sql, params);
        if (!out.readonly) this.#noteWrite(query);
        result = queryResult<R>(out);
      }
    } catch (caught) {
      const error = asStepError(caught);
      this.#afterError(error, handle);
      throw error.own ? error.error : new GroupCommitError(error.error);
    }
    return result;
  }

  /**
   * A write outside a request's transaction (a statement or a batch): it waits for the end of
   * this turn of the event loop, and goes to the writer in one call with every other such write
   * of the turn (#flushWrites). On this kind of host a synchronous call to the writer thread
   * costs two thread switches (about 33 µs pinned to one core); sixteen requests' writes in one
   * call cost about 10 µs each (bench/README.md). Each write is still on its own (a statement
   * is atomic, a batch all or nothing) and answered once its group is durable.
   */
  #queueWrite(query: CompiledQuery, steps: readonly BatchStep[] | undefined): Promise<QueryResult<unknown>> {
    return new Promise((resolve, reject) => this.#pushWrites([{ query, steps, resolve, reject }]));
  }

  /** Adds writes to those waiting (`first`: ahead of them, for writes that were not run) and schedules a flush. */
  #pushWrites(writes: readonly PendingWrite[], first = false): void {
    const wasEmpty = this.#pendingWrites.length === 0;
    if (first) this.#pendingWrites.unshift(...writes);
    else this.#pendingWrites.push(...writes);
    // A flush is scheduled whenever the list becomes non-empty; one that finds it empty (an
    // earlier flush took its writes) does nothing.
    if (wasEmpty) setImmediate(() => void this.#flushWrites());
  }

  /** Sends the waiting writes to the writer in one call, in arrival order, holding the writer lock. */
  async #flushWrites(): Promise<void> {
    const handle = new GroupConnection(this);
    await this.lock(handle);
    const writes = this.#pendingWrites;
    this.#pendingWrites = [];
    if (writes.length === 0) {
      this.release(handle);
      return;
    }
    let settle: Array<() => void>;
    try {
      settle = await this.#runWrites(handle, writes);
    } catch (caught) {
      // Not expected (the writer's failures are answered per write): nothing is acknowledged.
      this.release(handle);
      for (const write of writes) write.reject(caught);
      return;
    }
    for (const answer of settle) answer();
  }

  /**
   * Runs the writes in the group and waits for it to be durable (the lock released meanwhile);
   * answers each write: its result once durable, its own error, or the group's failure. Writes
   * that were not run because SQLite rolled the group back as a whole go to the next group.
   */
  async #runWrites(handle: GroupConnection, writes: readonly PendingWrite[]): Promise<Array<() => void>> {
    if (!this.#open) return this.#runWritesAsGroup(handle, writes);
    this.#openGroup();
    let outcomes;
    try {
      outcomes = await this.#writer.execEachAsync(this.#takeDeferred(), writes.map(eachOpOf));
    } catch (caught) {
      // The writer stopped, or a step deferred before these writes failed (the group was rolled back).
      const error = asStepError(caught);
      this.#afterError(error, handle);
      await this.#releaseAndAwaitDurable(handle).catch(() => undefined);
      return this.#rejectAll(writes, error);
    }
    const { results, lost, notRun } = this.#readOutcomes(writes, outcomes);
    let failure: unknown;
    if (lost !== undefined) {
      // SQLite ended the group as a whole: its members so far fail (#afterError), these
      // writes that ran with it too; the failing write gets its own error.
      this.#afterError(new WriterStepError(lost, false, true), handle);
      this.release(handle);
      failure = new GroupCommitError(lost);
      if (notRun.length > 0) this.#pushWrites(notRun, true);
    } else {
      try {
        await this.#releaseAndAwaitDurable(handle);
      } catch (error) {
        failure = error;
      }
    }
    return this.#answers(writes, results, failure);
  }

  /**
   * Writes that find no group open are a group of their own, and its COMMIT goes in the same call
   * to the writer (one hand-off to the writer thread instead of two: docs/decisions.md, "Fewer
   * hand-offs to the SQLite writer thread"). Nothing else can join the group meanwhile (the writer
   * lock is held throughout), so it ends as one that was committed apart would: the versions move
   * as in #endGroup, a failed COMMIT fails every write that had no error of its own, and writes
   * not run because SQLite rolled the group back go to the next group. Releases the lock.
   */
  async #runWritesAsGroup(handle: GroupConnection, writes: readonly PendingWrite[]): Promise<Array<() => void>> {
    this.#deferred.push({ k: 'run', sql: 'BEGIN' });
    let answer: EachCommitAnswer;
    try {
      answer = await this.#sendingCommit(() => this.#writer.execEachAndCommitAsync(this.#takeDeferred(), writes.map(eachOpOf)));
    } catch (caught) {
      // The writer stopped, or BEGIN failed: nothing of the group was kept.
      this.#groupEnded(true);
      this.release(handle);
      return this.#rejectAll(writes, asStepError(caught));
    }
    const { results, lost, notRun } = this.#readOutcomes(writes, answer.outcomes);
    // After the results: the tables they wrote move with the group's end.
    this.#groupEnded(true);
    this.release(handle);
    if (notRun.length > 0) this.#pushWrites(notRun, true);
    const cause = lost ?? answer.commitError;
    return this.#answers(writes, results, cause === undefined ? undefined : new GroupCommitError(cause));
  }

  /**
   * Each write's result (its tables noted) or its own error, from the writer's outcomes; `lost`:
   * the error with which SQLite ended the group as a whole, if one did; `notRun`: the writes
   * skipped after it.
   */
  #readOutcomes(writes: readonly PendingWrite[], outcomes: readonly EachOutcome[]) {
    let lost: Error | undefined;
    const notRun: PendingWrite[] = [];
    const results = writes.map((write, i): QueryResult<unknown> | Error | undefined => {
      const outcome = outcomes[i]!;
      if (outcome.ok) return this.#resultOf(write, outcome.value);
      if ('skipped' in outcome) {
        notRun.push(write);
        return undefined;
      }
      if (!outcome.inTransaction) lost ??= outcome.error;
      return outcome.error;
    });
    return { results, lost, notRun };
  }

  /** How each write is answered: its own error, else the group's failure, else its result; nothing for one sent again. */
  #answers(writes: readonly PendingWrite[], results: ReadonlyArray<QueryResult<unknown> | Error | undefined>, failure: unknown): Array<() => void> {
    return writes.map((write, i) => {
      const result = results[i];
      if (result === undefined) return () => undefined; // sent again with the next flush
      if (result instanceof Error) return () => write.reject(result);
      return failure === undefined ? () => write.resolve(result) : () => write.reject(failure);
    });
  }

  /** Every write answered the failure of a call to the writer that ran none of them. */
  #rejectAll(writes: readonly PendingWrite[], error: WriterStepError): Array<() => void> {
    const reason = error.own ? error.error : new GroupCommitError(error.error);
    return writes.map((write) => () => write.reject(reason));
  }

  /** A write's result from the writer's answer, its tables noted for the caches. */
  #resultOf(write: PendingWrite, value: ExecResult | Array<ExecResult | null>): QueryResult<unknown> {
    if (write.steps === undefined) {
      const out = value as ExecResult;
      if (!out.readonly) this.#noteWrite(write.query);
      return queryResult(out);
    }
    return { rows: this.#batchResults(write.steps, value as Array<ExecResult | null>) };
  }

  /** Each step's result from the writer's answer to a batch (undefined for one skipped), its tables noted. */
  #batchResults(steps: readonly BatchStep[], outs: ReadonlyArray<ExecResult | null>): BatchResults {
    return outs.map((out, i) => {
      if (out === null) return undefined;
      if (!out.readonly) this.#noteWrite(steps[i]!.query);
      return queryResult(out);
    });
  }

  /** A batch (statement-batch.ts) in one call to the writer: each step's result, undefined for one skipped. */
  #executeBatch(steps: readonly BatchStep[]): BatchResults {
    // All or nothing in the writer (a savepoint of its own): a batch that fails has written nothing.
    return this.#batchResults(steps, this.#writer.execBatch(this.#takeDeferred(), batchedStatements(steps)));
  }

  async begin(handle: GroupConnection): Promise<void> {
    await this.lock(handle);
    this.#openGroup();
    this.#deferred.push({ k: 'run', sql: 'SAVEPOINT warden_request' });
    handle.depth = 1;
  }

  async commit(handle: GroupConnection): Promise<void> {
    if (handle.aborted) throw new GroupCommitError(new Error('the group this transaction belonged to was rolled back'));
    this.#deferred.push({ k: 'run', sql: 'RELEASE warden_request' });
    handle.depth = 0;
    await this.#releaseAndAwaitDurable(handle);
  }

  async rollback(handle: GroupConnection): Promise<void> {
    // Kysely also calls this when the commit failed (its group's COMMIT failed, or SQLite rolled
    // the group back): the savepoint was released then (depth 0), and the writer may be in the
    // next group already, which a ROLLBACK TO of a savepoint it has not would fail as a whole.
    if (handle.depth === 0 && !handle.locked) return;
    if (!handle.aborted && this.#open) {
      this.#deferred.push({ k: 'run', sql: 'ROLLBACK TO warden_request' }, { k: 'run', sql: 'RELEASE warden_request' });
    }
    handle.depth = 0;
    // The caller rethrows its own error, answered after the group like everything that ran
    // inside it (it may have read rows of other requests that were not yet durable).
    await this.#releaseAndAwaitDurable(handle).catch(() => undefined);
  }

  /** Nested savepoints inside a request's transaction (Kysely's `trx.savepoint()`). */
  runRaw(handle: GroupConnection, sql: string): void {
    this.#groupTouchesIdentity = true;
    try {
      this.#writer.call([...this.#takeDeferred(), { k: 'run', sql }]);
    } catch (caught) {
      if (!(caught instanceof WriterStepError)) throw caught;
      this.#afterError(caught, handle);
      throw caught.own ? caught.error : new GroupCommitError(caught.error);
    }
  }

  async close(): Promise<void> {
    const handle = new GroupConnection(this);
    await this.lock(handle);
    try {
      if (this.#open) await this.#endGroup();
      this.#reader.close();
      await this.#writer.close();
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

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(connection as GroupConnection, savepointSql('savepoint', name, compile));
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(connection as GroupConnection, savepointSql('rollback to', name, compile));
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    this.#group.runRaw(connection as GroupConnection, savepointSql('release', name, compile));
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

/** A Kysely dialect over the writer thread and a reader connection, with group commit. */
export function groupCommitDialect(group: GroupCommitSqlite): Dialect {
  return {
    createAdapter: () => new BatchingSqliteAdapter(),
    createDriver: () => new GroupCommitDriver(group),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
}
