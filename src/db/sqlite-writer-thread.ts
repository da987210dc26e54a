import fs from 'node:fs';
import { createRequire } from 'node:module';
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import SqliteDatabase from 'better-sqlite3';

/**
 * The SQLite writer connection, in a worker thread of its own (docs/decisions.md, "Group
 * commit"). The writer runs at `synchronous=FULL`, so its COMMIT waits for the disk (0.5–4 ms
 * here); on the main thread that wait stopped every request. Here the main thread sends the
 * worker its statements (SQL compiled by Kysely, and parameters) and waits for each answer
 * synchronously, as it waited for better-sqlite3 before (tens of microseconds); only the
 * COMMIT is asynchronous: the worker waits for the disk while the main thread answers reads
 * and gathers the next group. The group commit (sqlite-group-commit.ts) never sends a
 * statement while a COMMIT is under way: both need the writer lock.
 */

/** One step for the writer. `deferred` steps are sent with the next call (no answer of their own). */
export type WriterOp =
  | { k: 'exec'; sql: string; params: readonly unknown[] }
  | { k: 'batch'; steps: readonly BatchedStatement[] }
  /** With `commit`, the group's COMMIT follows the writes in the same call (EachCommitAnswer). */
  | { k: 'each'; ops: ReadonlyArray<EachOp>; commit?: boolean }
  | { k: 'run'; sql: string }
  | { k: 'dataVersion' }
  | { k: 'commit' };

/** One request's write in an `each` call: a statement, or a batch (all or nothing). */
export type EachOp = { k: 'exec'; sql: string; params: readonly unknown[] } | { k: 'batch'; steps: readonly BatchedStatement[] };

/**
 * What an `each` call answers for one of its writes: its value, its error (and whether the
 * writer's transaction survived it), or `skipped` when an earlier write of the call ended the
 * transaction as a whole (SQLite rolled it back) and this one was not run.
 */
export type EachOutcome =
  | { ok: true; value: ExecResult | Array<ExecResult | null> }
  | { ok: false; error: Error; inTransaction: boolean }
  | { ok: false; skipped: true };

/**
 * What an `each` call with `commit` answers: each write's outcome, and the COMMIT's error if it
 * failed (the group is rolled back then). No COMMIT is tried when a write ended the transaction
 * as a whole (the outcomes say so: a failure outside the transaction, the rest skipped).
 */
export interface EachCommitAnswer {
  outcomes: EachOutcome[];
  commitError: Error | undefined;
}

/** One statement of a batch (statement-batch.ts): `ifChanged` runs it only if the statement before it changed or returned a row. */
export interface BatchedStatement {
  sql: string;
  params: readonly unknown[];
  ifChanged?: boolean | undefined;
}

export interface ExecResult {
  reader: boolean;
  readonly: boolean;
  rows?: unknown[];
  changes?: number;
  lastInsertRowid?: number | bigint;
}

interface WireError {
  name?: string;
  message: string;
  code?: string;
}

interface Reply {
  ok: boolean;
  value?: unknown;
  error?: WireError;
  /** Whether the writer's transaction is still open after the call. */
  inTransaction: boolean;
  /** The call's own step failed (not one of the steps deferred before it). */
  own?: boolean;
  /** The synchronous call answered. */
  id?: number;
}

/** The worker: plain JavaScript run with `eval`, so that it loads the same way from src/ (tests) and dist/. */
const WORKER_SOURCE = `
'use strict';
const { workerData, receiveMessageOnPort, parentPort } = require('node:worker_threads');
const Database = require(workerData.driver);
const { port, signal, filename } = workerData;
// The stopped word (signal[2]): set however this thread ends while it can still run JavaScript
// (process.exit, an uncaught error, the close asked for), with a wake-up for a call waiting on
// its answer. A death that runs no JavaScript (its heap limit, terminate()) is seen by the
// main thread from its thread id (below) during a call, and from its 'exit' event.
process.on('exit', () => {
  Atomics.store(signal, 2, 1);
  Atomics.notify(signal, 1);
});
// Its thread id (Linux): the main thread looks for it in /proc while a call waits long.
try {
  Atomics.store(signal, 3, Number(require('node:fs').readlinkSync('/proc/thread-self').split('/').pop()) || 0);
} catch {}
let db;
let startError;
try {
  db = new Database(filename);
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  if (workerData.setup !== undefined) new Function('db', workerData.setup)(db);
} catch (error) {
  startError = error;
}
const cache = new Map();
const prepare = (sql) => {
  let stmt = cache.get(sql);
  if (stmt === undefined) {
    stmt = db.prepare(sql);
    if (cache.size >= 500) cache.delete(cache.keys().next().value);
    cache.set(sql, stmt);
  }
  return stmt;
};
const wire = (error) => ({
  name: error && error.name,
  message: String((error && error.message) || error),
  code: error && typeof error.code === 'string' ? error.code : undefined,
});
const step = (op) => {
  switch (op.k) {
    case 'exec': {
      const stmt = prepare(op.sql);
      if (stmt.reader) return { reader: true, readonly: stmt.readonly, rows: stmt.all(op.params) };
      const r = stmt.run(op.params);
      return { reader: false, readonly: stmt.readonly, changes: r.changes, lastInsertRowid: r.lastInsertRowid };
    }
    case 'batch': {
      // Statements of one request, sent in one call (statement-batch.ts), all or nothing: inside
      // a savepoint of their own. A statement marked ifChanged runs only if the one before it
      // changed a row or returned one; a skipped one answers null and counts as changing nothing.
      prepare('SAVEPOINT warden_batch').run();
      const out = [];
      try {
        let changed = true;
        for (const s of op.steps) {
          if (s.ifChanged && !changed) {
            out.push(null);
            continue;
          }
          const r = step({ k: 'exec', sql: s.sql, params: s.params });
          changed = r.reader ? r.rows.length > 0 : r.changes > 0;
          out.push(r);
        }
      } catch (error) {
        if (db.inTransaction) {
          prepare('ROLLBACK TO warden_batch').run();
          prepare('RELEASE warden_batch').run();
        }
        throw error;
      }
      prepare('RELEASE warden_batch').run();
      return out;
    }
    case 'each': {
      // The writes of several requests, each on its own (statement-level atomicity, a batch's
      // savepoint): one failing leaves the others. Once SQLite has ended the transaction as a
      // whole, the rest are not run (they would autocommit outside the group): skipped.
      const out = [];
      for (const item of op.ops) {
        if (!db.inTransaction) {
          out.push({ ok: false, skipped: true });
          continue;
        }
        try {
          out.push({ ok: true, value: step(item) });
        } catch (error) {
          out.push({ ok: false, error: wire(error), inTransaction: db.inTransaction });
        }
      }
      if (!op.commit) return out;
      // The group's COMMIT in the same call (one hand-off instead of two); a failed one rolls
      // the group back, as the 'commit' step does, and is answered beside the outcomes.
      let commitError = null;
      if (db.inTransaction) {
        try {
          prepare('COMMIT').run();
        } catch (error) {
          commitError = wire(error);
          if (db.inTransaction) {
            try { prepare('ROLLBACK').run(); } catch {}
          }
        }
      }
      return { outcomes: out, commitError };
    }
    case 'run':
      prepare(op.sql).run();
      return undefined;
    case 'dataVersion':
      return prepare('PRAGMA data_version').pluck().get();
    case 'commit':
      try {
        prepare('COMMIT').run();
      } catch (error) {
        if (db.inTransaction) prepare('ROLLBACK').run();
        throw error;
      }
      return undefined;
    default:
      throw new Error('unknown writer step ' + op.k);
  }
};
const perform = (ops) => {
  if (startError !== undefined) return { ok: false, error: wire(startError), inTransaction: false, own: true };
  let value;
  for (let i = 0; i < ops.length; i++) {
    try {
      value = step(ops[i]);
    } catch (error) {
      const own = i === ops.length - 1;
      // A deferred step (BEGIN, SAVEPOINT, RELEASE, ROLLBACK TO) that fails leaves the group in a
      // state no member chose: the whole group is rolled back and fails.
      if (!own && db.inTransaction) {
        try { prepare('ROLLBACK').run(); } catch {}
      }
      return { ok: false, error: wire(error), inTransaction: db.inTransaction, own };
    }
  }
  return { ok: true, value, inTransaction: db !== undefined && db.inTransaction };
};
for (;;) {
  Atomics.wait(signal, 0, 0);
  Atomics.store(signal, 0, 0);
  let m;
  while ((m = receiveMessageOnPort(port)) !== undefined) {
    const request = m.message;
    if (request.close) {
      try { if (db !== undefined) db.close(); } catch {}
      process.exit(0);
    }
    const reply = perform(request.ops);
    if (request.async) {
      parentPort.postMessage(reply);
    } else {
      reply.id = request.id;
      port.postMessage(reply);
      Atomics.store(signal, 1, 1);
      Atomics.notify(signal, 1);
    }
  }
}
`;

/** How long a synchronous call may wait for the writer (a busy file waits 5 s in SQLite itself). */
const CALL_TIMEOUT_MS = 60_000;
/** A synchronous call looks at the stopped word at least this often while it waits. */
const SLICE_MS = 50;

/** Words of the shared signal: a request is waiting, an answer is waiting, the worker has stopped. */
const REQUEST = 0;
const ANSWER = 1;
const STOPPED = 2;
/** The worker's thread id, where the system gives it (Linux): 0 if not. */
const THREAD = 3;

export interface WriterThreadOptions {
  /** Called once when the worker has stopped without being asked to (the service reports it). */
  onStop?: ((error: Error) => void) | undefined;
  /** The worker's heap limits (default: WRITER_RESOURCE_LIMITS). */
  resourceLimits?: ResourceLimits | undefined;
  /**
   * JavaScript run in the worker once the file is open, with `db` (the writer connection) in
   * scope: tests register SQL functions with it (one that ends the thread, to see the main
   * thread answer its calls at once). The service passes none.
   */
  setup?: string | undefined;
}

/**
 * Its heap holds prepared statements and one call's rows at a time: a small young generation
 * keeps its memory from growing with the number of writes between collections (peak RSS
 * 244–260 MB in the bench without it, 187–201 MB with it). The old generation's bound is far
 * above any transaction's rows: a worker out of memory stops the writer.
 */
const WRITER_RESOURCE_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 4, maxOldGenerationSizeMb: 512 };

/** Raised by every call once the writer thread has stopped: no write can be made durable any more. */
export class WriterStoppedError extends Error {
  constructor(detail: string) {
    super(`the SQLite writer has stopped (${detail}): no write can be made until the service restarts`);
    this.name = 'WriterStoppedError';
  }
}

function errorFrom(wire: WireError | undefined): Error {
  const message = wire?.message ?? 'the SQLite writer failed';
  if (wire?.code !== undefined) return new SqliteDatabase.SqliteError(message, wire.code);
  const error = new Error(message);
  if (wire?.name) error.name = wire.name;
  return error;
}

/** Rows came through a structured clone: blobs are Uint8Arrays again, Buffers as the drivers give them. */
function withBuffers(rows: unknown[]): unknown[] {
  for (const row of rows) {
    const record = row as Record<string, unknown>;
    for (const key in record) {
      const value = record[key];
      if (value instanceof Uint8Array && !Buffer.isBuffer(value)) record[key] = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    }
  }
  return rows;
}

/** A failed writer step: the error, and whether the writer's transaction survived it. */
export class WriterStepError extends Error {
  constructor(
    readonly error: Error,
    readonly inTransaction: boolean,
    /** The failing step was the call's own, not one deferred before it by another request. */
    readonly own: boolean,
  ) {
    super(error.message, { cause: error });
    this.name = 'WriterStepError';
  }
}

/** An `each` outcome as the worker sends it: an error as its wire form. */
type SentOutcome = Exclude<EachOutcome, { error: Error }> | { ok: false; error: WireError; inTransaction: boolean };

function outcomeFrom(outcome: SentOutcome): EachOutcome {
  if (!outcome.ok) return 'skipped' in outcome ? outcome : { ok: false, error: errorFrom(outcome.error), inTransaction: outcome.inTransaction };
  for (const result of Array.isArray(outcome.value) ? outcome.value : [outcome.value]) if (result?.rows !== undefined) withBuffers(result.rows);
  return outcome;
}

export class WriterThread {
  readonly #worker: Worker;
  readonly #port: MessagePort;
  readonly #signal: Int32Array;
  #asyncReplies: Array<(reply: Reply | WriterStoppedError) => void> = [];
  #exited: Promise<void>;
  #closed = false;
  /** Why the worker stopped, once it has (and was not asked to). */
  #stopped: WriterStoppedError | undefined;
  /** What the worker's 'error' event said (its error's name or code: never its message). */
  #crash: string | undefined;
  readonly #onStop: ((error: Error) => void) | undefined;
  /** Synchronous calls made: each answer names the call it answers. */
  #calls = 0;

  constructor(filename: string, options: WriterThreadOptions = {}) {
    const { port1, port2 } = new MessageChannel();
    this.#port = port1;
    this.#onStop = options.onStop;
    this.#signal = new Int32Array(new SharedArrayBuffer(16));
    const driver = createRequire(import.meta.url).resolve('better-sqlite3');
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { port: port2, signal: this.#signal, filename, driver, setup: options.setup },
      transferList: [port2],
      resourceLimits: options.resourceLimits ?? WRITER_RESOURCE_LIMITS,
    });
    this.#worker.unref();
    this.#worker.on('message', (reply: Reply) => this.#asyncReplies.shift()?.(reply));
    this.#exited = new Promise((resolve) =>
      this.#worker.once('exit', (code) => {
        this.#stop(`exit code ${code}${this.#crash === undefined ? '' : `, ${this.#crash}`}`);
        resolve();
      }),
    );
    // Only the error's name and code are kept: its message may quote a statement's values.
    this.#worker.on('error', (error: Error & { code?: unknown }) => {
      this.#crash = typeof error.code === 'string' ? error.code : error.name;
    });
    // The first call waits for the worker to open the file and reports a failure to open it.
    try {
      this.call([{ k: 'dataVersion' }]);
    } catch (error) {
      this.#closed = true;
      void this.#worker.terminate();
      throw error instanceof WriterStepError ? error.error : error;
    }
  }

  /** Why the writer stopped, if it has: every call fails at once from then on. */
  get stopped(): WriterStoppedError | undefined {
    return this.#stopped;
  }

  /** The worker has ended: every call waiting and to come fails, and the service is told once. */
  #stop(detail: string): void {
    Atomics.store(this.#signal, STOPPED, 1);
    if (this.#stopped !== undefined) return;
    const error = new WriterStoppedError(detail);
    if (!this.#closed) this.#stopped = error;
    const replies = this.#asyncReplies;
    this.#asyncReplies = [];
    for (const reply of replies) reply(error);
    if (!this.#closed) this.#onStop?.(error);
  }

  #checkUsable(): void {
    if (this.#stopped !== undefined) throw this.#stopped;
    if (this.#closed) throw new Error('the SQLite writer is closed');
    if (Atomics.load(this.#signal, STOPPED) !== 0) {
      // Stopped, and its 'exit' event not yet seen: from its own exit handler.
      this.#stop('it ended while running');
      throw this.#stopped ?? new WriterStoppedError('it ended while running');
    }
  }

  /** Whether the worker's thread still runs, as far as the system tells (Linux: /proc). */
  #threadLives(): boolean {
    const thread = Atomics.load(this.#signal, THREAD);
    return thread === 0 || fs.existsSync(`/proc/self/task/${thread}`);
  }

  /** Runs steps and waits for the last one's value; the main thread waits as for a statement. */
  call(ops: readonly WriterOp[]): unknown {
    this.#checkUsable();
    const id = ++this.#calls;
    this.#port.postMessage({ ops, id });
    Atomics.store(this.#signal, REQUEST, 1);
    Atomics.notify(this.#signal, REQUEST);
    // A wake-up is no answer: the notify of an earlier answer (already seen set) can arrive
    // late, so the flag itself is what says the answer is there. The wait is cut in slices to
    // see whether the worker has stopped: it sets the stopped word (and wakes this wait) if it
    // ends while it can still run JavaScript (process.exit, an uncaught error); a death that
    // runs none (its heap limit) is seen after a slice, its thread gone from /proc/self/task
    // (Linux; elsewhere such a death is seen by the 'exit' event once this call times out).
    const deadline = Date.now() + CALL_TIMEOUT_MS;
    let sliced = false;
    while (Atomics.load(this.#signal, ANSWER) === 0) {
      if (Atomics.load(this.#signal, STOPPED) !== 0 || (sliced && !this.#threadLives())) {
        this.#stop('it ended during a statement');
        throw this.#stopped ?? new WriterStoppedError('it ended during a statement');
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('the SQLite writer did not answer in time');
      Atomics.wait(this.#signal, ANSWER, 0, Math.min(left, SLICE_MS));
      sliced = true;
    }
    Atomics.store(this.#signal, ANSWER, 0);
    const reply = receiveMessageOnPort(this.#port)?.message as Reply | undefined;
    if (reply?.id !== id) throw new Error('the SQLite writer answered out of turn');
    if (!reply.ok) throw new WriterStepError(errorFrom(reply.error), reply.inTransaction, reply.own === true);
    return reply.value;
  }

  exec(deferred: readonly WriterOp[], sql: string, params: readonly unknown[]): ExecResult {
    const result = this.call(deferred.length === 0 ? [{ k: 'exec', sql, params }] : [...deferred, { k: 'exec', sql, params }]) as ExecResult;
    if (result.rows !== undefined) withBuffers(result.rows);
    return result;
  }

  /** Several statements in one call: each one's result, null for one skipped (`ifChanged`). */
  execBatch(deferred: readonly WriterOp[], steps: readonly BatchedStatement[]): Array<ExecResult | null> {
    const results = this.call([...deferred, { k: 'batch', steps }]) as Array<ExecResult | null>;
    for (const result of results) if (result?.rows !== undefined) withBuffers(result.rows);
    return results;
  }

  /**
   * Several requests' writes in one call, without waiting on the main thread (the group
   * commit's writes outside a transaction, sqlite-group-commit.ts): one outcome per write.
   */
  async execEachAsync(deferred: readonly WriterOp[], ops: readonly EachOp[]): Promise<EachOutcome[]> {
    return ((await this.callAsync([...deferred, { k: 'each', ops }])) as SentOutcome[]).map(outcomeFrom);
  }

  /** `execEachAsync` followed by the group's COMMIT in the same call (see EachCommitAnswer). */
  async execEachAndCommitAsync(deferred: readonly WriterOp[], ops: readonly EachOp[]): Promise<EachCommitAnswer> {
    const sent = (await this.callAsync([...deferred, { k: 'each', ops, commit: true }])) as { outcomes: SentOutcome[]; commitError: WireError | null };
    return { outcomes: sent.outcomes.map(outcomeFrom), commitError: sent.commitError === null ? undefined : errorFrom(sent.commitError) };
  }

  /** `exec` without waiting on the main thread: for statements too big to wait for (see sqlite-group-commit.ts). */
  async execAsync(deferred: readonly WriterOp[], sql: string, params: readonly unknown[]): Promise<ExecResult> {
    const result = (await this.callAsync([...deferred, { k: 'exec', sql, params }])) as ExecResult;
    if (result.rows !== undefined) withBuffers(result.rows);
    return result;
  }

  /** Runs steps without waiting on the main thread: for the COMMIT, which waits for the disk, and big statements. */
  callAsync(ops: readonly WriterOp[]): Promise<unknown> {
    try {
      this.#checkUsable();
    } catch (error) {
      return Promise.reject(error);
    }
    return new Promise((resolve, reject) => {
      this.#asyncReplies.push((reply) => {
        if (reply instanceof Error) reject(reply);
        else if (reply.ok) resolve(reply.value);
        else reject(new WriterStepError(errorFrom(reply.error), reply.inTransaction, reply.own === true));
      });
      // Keeps the process alive while the disk syncs; let go once answered.
      this.#worker.ref();
      this.#port.postMessage({ ops, async: true });
      Atomics.store(this.#signal, REQUEST, 1);
      Atomics.notify(this.#signal, REQUEST);
    }).finally(() => {
      if (this.#asyncReplies.length === 0) this.#worker.unref();
    });
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    if (this.#stopped === undefined) {
      this.#worker.ref();
      this.#port.postMessage({ close: true });
      Atomics.store(this.#signal, REQUEST, 1);
      Atomics.notify(this.#signal, REQUEST);
    }
    await this.#exited;
    this.#port.close();
  }
}
