import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/** A migration sees the raw database and the dialect, so that the few engine differences stay local. */
export interface WardenMigration {
  up(db: Kysely<any>, dialect: Dialect): Promise<void>;
}

/** Column type for epoch seconds and other integers that outgrow int4. */
export const bigint = (dialect: Dialect) => (dialect === 'postgres' ? 'bigint' : 'integer');
/** Column type for floating point numbers. */
export const double = (dialect: Dialect) => (dialect === 'postgres' ? 'double precision' : 'real');
