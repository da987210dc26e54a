import type { FastifyRequest } from 'fastify';
import type { DataVersions } from '../db/database.js';

/** The database's versions as one request saw them; undefined where none exist (PostgreSQL). */
export type RequestVersions = (request: FastifyRequest) => DataVersions | undefined;

const kVersions = Symbol('dataVersions');
type WithVersions = FastifyRequest & { [kVersions]?: DataVersions };

/**
 * Reads the database's versions at most once per request, on first use (the principal cache,
 * then the response cache): on a SQLite file that is one PRAGMA instead of one per consumer.
 * Read before any query of the request, so an answer is never filed under a version newer than
 * the data it shows.
 */
export function requestVersions(versions: (() => DataVersions) | undefined): RequestVersions {
  if (versions === undefined) return () => undefined;
  return (request: WithVersions) => (request[kVersions] ??= versions());
}
