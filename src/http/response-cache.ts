import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestVersions } from './data-versions.js';

/**
 * A per-process cache of serialised read answers, with ETag / If-None-Match
 * (docs/decisions.md, "Caching of read answers").
 *
 * An answer is stored under the credential that asked, the full URL and the database's read
 * version (`Database.versions().read`, read once per request): a token that changes whenever data may have changed
 * (every committed write of this process, and on SQLite every commit by another connection).
 * The version is read before the handler queries, so an answer is never stored under a
 * version older than the data it shows: after an acknowledged write, the next read misses
 * and is computed again. Authentication still runs on every request (a revoked credential is
 * refused at once); a stored answer is sent right after it, before validation and the
 * handler: both are decided by the credential and the URL alone, the key of the entry, and
 * they let that very answer through when it was stored.
 *
 * An answer is stored the second time its key is asked for under one version: a page asked
 * for once (a crawl through deep offsets) would only push hot answers out and keep 100 KB
 * buffers alive until the next major collection.
 *
 * Where no read version exists (PostgreSQL: other processes write without telling this one)
 * nothing is cached; the ETag is then still sent and honoured, computed from each answer.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The route's GET answers may be kept per credential and URL until the next commit
     * (docs/caching.md). Only for an answer decided by the credential, the URL and the
     * database: nothing that depends on the clock or on anything outside the database.
     * `{ reads: [tables] }`: until the next commit that may change those tables (or a table
     * cascading into them) or the identity tables; writes to other tables keep the answers.
     */
    cacheable?: boolean | { reads: readonly string[] };
  }
}

export interface ResponseCacheOptions {
  versions: RequestVersions;
  maxEntries?: number;
  maxBytes?: number;
  /** How many keys asked for once are remembered (default 4 × maxEntries). */
  maxCandidates?: number;
}

interface Entry {
  version: string;
  etag: string;
  contentType: string;
  body: Buffer;
}

interface Slot {
  key: string;
  version: string | undefined;
}

const kSlot = Symbol('responseCacheSlot');
type WithSlot = FastifyRequest & { [kSlot]?: Slot };

const CACHE_CONTROL = 'private, no-cache';

/** A strong ETag from the bytes: equal answers have equal tags, in every process. */
const etagOf = (body: Buffer) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`;

function matches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

export function registerResponseCache(app: FastifyInstance, options: ResponseCacheOptions): void {
  const { versions } = options;
  const maxEntries = options.maxEntries ?? 500;
  const maxBytes = options.maxBytes ?? 16 * 1024 * 1024;
  const maxCandidates = options.maxCandidates ?? 4 * maxEntries;
  const entries = new Map<string, Entry>();
  /** Keys asked for once, with the version they were asked under: stored when asked again. */
  const candidates = new Map<string, string>();
  let bytes = 0;

  const remove = (key: string) => {
    const old = entries.get(key);
    if (old === undefined) return;
    bytes -= old.body.length;
    entries.delete(key);
  };
  const store = (key: string, entry: Entry) => {
    remove(key);
    if (entry.body.length > maxBytes / 4) return;
    entries.set(key, entry);
    bytes += entry.body.length;
    // Least recently used first: a hit moves its entry to the end.
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries && bytes <= maxBytes) break;
      remove(oldest);
    }
  };
  /** Whether the key was asked for before under this version (the second ask stores the answer). */
  const askedBefore = (key: string, version: string) => {
    if (candidates.get(key) === version) {
      candidates.delete(key);
      return true;
    }
    candidates.delete(key);
    candidates.set(key, version);
    if (candidates.size > maxCandidates) candidates.delete(candidates.keys().next().value as string);
    return false;
  };
  const notModified = (reply: FastifyReply, etag: string) => reply.code(304).header('etag', etag).header('cache-control', CACHE_CONTROL).send();

  /**
   * The version an answer is kept under: the read version, or for a route that names the tables
   * it reads, the identity version (who the caller is and which teams they see) and theirs.
   */
  const versionOf = (request: FastifyRequest, reads: readonly string[] | undefined) => {
    const v = versions(request);
    if (v === undefined) return undefined;
    if (reads === undefined || v.tables === undefined) return v.read;
    return `${v.identity}|${v.tables(reads)}`;
  };

  // Hooks of the routes marked `config: { cacheable }` only (callback style: no promise per
  // request), added to each route after the context's own hooks: the lookup runs once
  // authentication has set the principal.
  type Done = (error: Error | null, payload?: unknown) => void;
  const lookupFor = (reads: readonly string[] | undefined) => (request: WithSlot, reply: FastifyReply, payload: unknown, done: Done) => {
    if (request.method !== 'GET' || !request.principal) return done(null, payload);
    const key = `${request.principal.credential.kind}:${request.principal.credential.id}\n${request.url}`;
    const version = versionOf(request, reads);
    request[kSlot] = { key, version };
    if (version === undefined) return done(null, payload);
    const entry = entries.get(key);
    if (entry === undefined) return done(null, payload);
    if (entry.version !== version) {
      remove(key);
      return done(null, payload);
    }
    entries.delete(key);
    entries.set(key, entry);
    request[kSlot] = undefined;
    // Answered here: `done` is not called, so validation and the handler do not run.
    if (matches(request.headers['if-none-match'], entry.etag)) return void notModified(reply, entry.etag);
    void reply.header('etag', entry.etag).header('cache-control', CACHE_CONTROL).type(entry.contentType).send(entry.body);
  };

  const onSend = (request: WithSlot, reply: FastifyReply, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    const slot = request[kSlot];
    if (slot === undefined || reply.statusCode !== 200) return done(null, payload);
    if (typeof payload !== 'string' && !Buffer.isBuffer(payload)) return done(null, payload);
    const body = Buffer.isBuffer(payload) ? payload : Buffer.from(payload);
    const etag = etagOf(body);
    if (slot.version !== undefined && askedBefore(slot.key, slot.version)) {
      const contentType = String(reply.getHeader('content-type') ?? 'application/json; charset=utf-8');
      store(slot.key, { version: slot.version, etag, contentType, body });
    }
    reply.header('etag', etag).header('cache-control', CACHE_CONTROL);
    if (matches(request.headers['if-none-match'], etag)) {
      reply.code(304);
      return done(null, '');
    }
    done(null, body);
  };

  app.addHook('onRoute', (route) => {
    const cacheable = route.config?.cacheable;
    if ((cacheable !== true && typeof cacheable !== 'object') || ![route.method].flat().includes('GET')) return;
    const lookup = lookupFor(typeof cacheable === 'object' ? cacheable.reads : undefined);
    route.preParsing = [...[route.preParsing ?? []].flat(), lookup as never];
    route.onSend = [...[route.onSend ?? []].flat(), onSend as never];
  });
}
