import type { Kysely, Migration, MigrationProvider } from 'kysely';
import { Migrator } from 'kysely';
import type { Dialect } from '../database.js';
import { identity } from './0001_identity.js';
import { agents } from './0002_agents.js';
import { policies } from './0003_policies.js';
import { personas } from './0004_personas.js';
import { agentColumnWidths } from './0005_agent_column_widths.js';
import { dome } from './0006_dome.js';
import { jobs } from './0007_jobs.js';
import { evaluations } from './0008_evaluations.js';
import { redteam } from './0009_redteam.js';
import { jobRuns } from './0010_job_runs.js';
import { resultBounds } from './0011_result_bounds.js';
import { pillarEvidence } from './0012_pillar_evidence.js';
import { telemetry } from './0013_telemetry.js';
import { gateway } from './0014_gateway.js';
import type { WardenMigration } from './types.js';
import { tableCaching } from '../table-caching.js';

/** Kysely's bookkeeping of the migrations run (written at start only, before any cache exists). */
export const MIGRATION_TABLES = tableCaching({ kysely_migration: 'data', kysely_migration_lock: 'data' });

/**
 * Every migration, in order. A new one is appended here with the next number;
 * a migration that has shipped is never edited.
 */
export const MIGRATIONS: ReadonlyArray<readonly [string, WardenMigration]> = [
  ['0001_identity', identity],
  ['0002_agents', agents],
  ['0003_policies', policies],
  ['0004_personas', personas],
  ['0005_agent_column_widths', agentColumnWidths],
  ['0006_dome', dome],
  ['0007_jobs', jobs],
  ['0008_evaluations', evaluations],
  ['0009_redteam', redteam],
  ['0010_job_runs', jobRuns],
  ['0011_result_bounds', resultBounds],
  ['0012_pillar_evidence', pillarEvidence],
  ['0013_telemetry', telemetry],
  ['0014_gateway', gateway],
];

/**
 * `schema` names the PostgreSQL schema of the migration bookkeeping tables, so that two Warden
 * databases in one PostgreSQL database keep theirs apart. On PostgreSQL the migrator looks for
 * them in the connection's search_path only (src/db/postgres-introspector.ts).
 */
export async function migrateToLatest(db: Kysely<any>, dialect: Dialect, schema?: string): Promise<void> {
  const provider: MigrationProvider = {
    async getMigrations() {
      const out: Record<string, Migration> = {};
      for (const [name, migration] of MIGRATIONS) out[name] = { up: (d) => migration.up(d, dialect) };
      return out;
    },
  };
  const { error, results } = await new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${message}`, { cause: error });
  }
}
