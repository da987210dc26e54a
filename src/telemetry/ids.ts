import { randomFillSync } from 'node:crypto';

/**
 * Trace and span ids (W3C: 16 and 8 random bytes, lower-case hex) cut from a pool of random
 * bytes refilled 4 KiB at a time, as node's `randomUUID` does: one call to the system's random
 * generator per 170 calls instead of one per id. The bytes are the same cryptographic randomness.
 */
const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let offset = POOL_BYTES;

function randomHex(bytes: number): string {
  if (offset + bytes > POOL_BYTES) {
    randomFillSync(pool);
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return id;
}

export const newTraceId = () => randomHex(16);
export const newSpanId = () => randomHex(8);
