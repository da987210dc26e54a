import type { Kysely } from 'kysely';
import type { ServiceKeys } from './crypto/keys.js';
import type { Dialect } from './db/database.js';
import type { DB } from './db/schema.js';

/** What services are built from. Each service narrows it with Pick<> to what it uses. */
export interface Deps {
  db: Kysely<DB>;
  dialect: Dialect;
  keys: ServiceKeys;
  /** Epoch seconds; injected so that time-dependent rules can be tested without waiting. */
  now: () => number;
  passwordHashCost: number;
  tokenTtlSeconds: number;
  dataDir: string;
}
