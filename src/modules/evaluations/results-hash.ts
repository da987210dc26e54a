/**
 * The SHA-256 a report prints of the results it was built from (docs/evaluations.md, "Checking a
 * report"): over the canonical JSON of the array of every item GET /v1/evaluations/{id}/results
 * answers, all pages in order, so a recipient can recompute it from the API.
 */
import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { toResult } from './evaluations.mapping.js';
import { listResults } from './evaluations.repo.js';

/**
 * JSON with every object's keys sorted (by UTF-16 code units, as Array.prototype.sort), no
 * whitespace, strings and numbers as JSON.stringify writes them; `undefined` members left out.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map((v) => (v === undefined ? 'null' : canonicalJson(v))).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** Results read per query while hashing. */
const CHUNK = 200;

/** SHA-256 (hex) of `[r1,r2,…]`, each result as canonicalJson, read a chunk at a time in the API's order. */
export async function resultsSha256(db: Kysely<DB>, evaluationId: string): Promise<{ sha256: string; count: number }> {
  const hash = createHash('sha256');
  hash.update('[');
  let count = 0;
  for (let offset = 0; ; offset += CHUNK) {
    const rows = await listResults(db, { evaluationId }, CHUNK, offset);
    for (const row of rows) hash.update(`${count++ === 0 ? '' : ','}${canonicalJson(toResult(row))}`, 'utf8');
    if (rows.length < CHUNK) break;
  }
  hash.update(']');
  return { sha256: hash.digest('hex'), count };
}
