import { MIGRATION_TABLES } from '../db/migrations/index.js';
import type { DB } from '../db/schema.js';
import type { TableCaching } from '../db/table-caching.js';
import { JOB_TABLES } from '../jobs/jobs.repo.js';
import { TELEMETRY_TABLES } from '../telemetry/store.js';
import { AGENT_TABLES } from './agents/agents.repo.js';
import { IDENTITY_TABLES } from './auth/auth.repo.js';
import { DEMOGRAPHIC_TABLES } from './demographics/demographics.repo.js';
import { CUSTOM_HARNESS_TABLES } from './custom-harnesses/custom-harnesses.repo.js';
import { DOME_TABLES } from './dome/dome.repo.js';
import { EVALUATION_TABLES } from './evaluations/evaluations.repo.js';
import { PERSONA_TABLES } from './personas/personas.repo.js';
import { REDTEAM_TABLES } from './redteam/redteam.repo.js';
import { DOCUMENT_TABLES } from './documents/documents.repo.js';
import { POLICY_TABLES } from './policies/policies.repo.js';
import { RULE_TABLES } from './rules/rules.repo.js';
import { GATEWAY_TABLES } from './gateway/gateway.repo.js';

/**
 * Every table's class for the caches (src/db/table-caching.ts, docs/caching.md), gathered from
 * the features that own the tables. A new table: classify it beside its feature's repo
 * (`export const FINDING_TABLES = tableCaching({ findings: 'data' })`) and spread that here.
 * TypeScript refuses this list while a table of `DB` is missing from it, and
 * test/table-caching.test.ts fails for a table of the migrated database that no rule names.
 */
export const TABLE_CACHING = {
  ...MIGRATION_TABLES,
  ...IDENTITY_TABLES,
  ...AGENT_TABLES,
  ...POLICY_TABLES,
  ...DOCUMENT_TABLES,
  ...RULE_TABLES,
  ...PERSONA_TABLES,
  ...DEMOGRAPHIC_TABLES,
  ...DOME_TABLES,
  ...JOB_TABLES,
  ...EVALUATION_TABLES,
  ...CUSTOM_HARNESS_TABLES,
  ...REDTEAM_TABLES,
  ...GATEWAY_TABLES,
  ...TELEMETRY_TABLES,
} as const satisfies Record<keyof DB, TableCaching>;
