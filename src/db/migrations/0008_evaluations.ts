import type { WardenMigration } from './types.js';
import { bigint } from './types.js';

/**
 * Evaluations run by Warden itself (docs/evaluations.md): the `evaluations` table of 0002 (read
 * by the agents list and the trust dashboard) gains what a run needs, and four tables hold
 * its per-prompt results, its cached reports, and custom harnesses with their prompts.
 * Columns added to an existing table are nullable or have a default, so rows written before
 * this migration stay valid.
 */
export const evaluations: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    const added: Array<[string, string, ((c: any) => any)?]> = [
      ['created_by', 'varchar(36)'],
      // The engine that ran it: `diamond` (Warden's own), the reference's EvaluationTool.
      ['tested_by', 'varchar(32)', (c) => c.notNull().defaultTo('diamond')],
      ['eval_type', 'varchar(32)', (c) => c.notNull().defaultTo('behavioral')],
      ['harness_type', 'varchar(16)', (c) => c.notNull().defaultTo('standard')],
      /** JSON array of the harness names asked for (custom: their ids). */
      ['harness_names', 'text', (c) => c.notNull().defaultTo('[]')],
      ['sample_size', 'integer'],
      /** The sampling seed: the same harnesses, size and seed send the same prompts. */
      ['seed', ts],
      ['started_at', ts],
      ['error_message', 'varchar(1000)'],
      ['status_message', 'varchar(500)'],
      ['progress_done', 'integer', (c) => c.notNull().defaultTo(0)],
      ['progress_total', 'integer', (c) => c.notNull().defaultTo(0)],
      /** Prompts the agent could not answer (counted apart, out of every score). */
      ['error_count', 'integer', (c) => c.notNull().defaultTo(0)],
      /** JSON: harness id → { score, n, low, high, errors, pillar, name } once completed. */
      ['harness_scores', 'text'],
      /** JSON: pillar and overall scores with n and Wilson intervals, and the per-harness tree. */
      ['pillar_details', 'text'],
      /** JSON: the request as made (never a secret). */
      ['request_params', 'text'],
      /** 1 once DELETE /v1/evaluation-summaries/{id} removed its summary (the evaluation stays). */
      ['summary_deleted', 'integer', (c) => c.notNull().defaultTo(0)],
      // What the agent was when the run started (the report names it even after a rename).
      ['agent_name', 'varchar(255)'],
      ['agent_model_name', 'varchar(255)'],
      ['agent_url', 'varchar(2083)'],
      ['job_id', 'varchar(36)'],
    ];
    // One column per statement: SQLite's ALTER TABLE adds one at a time.
    for (const [name, type, build] of added) {
      await db.schema
        .alterTable('evaluations')
        .addColumn(name, type as 'text', build ?? ((c) => c))
        .execute();
    }
    // Lists: a team's evaluations newest first; its completed ones newest first.
    await db.schema.createIndex('evaluations_team_created_idx').on('evaluations').columns(['team_id', 'created_at', 'id']).execute();
    await db.schema.createIndex('evaluations_team_status_completed_idx').on('evaluations').columns(['team_id', 'status', 'completed_at']).execute();

    // One row per prompt sent. Written in batches while the run goes; a resumed run skips the
    // prompts already here (its primary key makes a second write of one a no-op).
    await db.schema
      .createTable('evaluation_results')
      .addColumn('evaluation_id', 'varchar(36)', (c) => c.notNull().references('evaluations.id').onDelete('cascade'))
      .addColumn('prompt_id', 'varchar(255)', (c) => c.notNull())
      /** The prompt's place in the run's plan: results are listed in this order. */
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('harness', 'varchar(64)', (c) => c.notNull())
      .addColumn('scenario', 'varchar(255)', (c) => c.notNull())
      .addColumn('probe', 'varchar(255)', (c) => c.notNull())
      .addColumn('base', 'varchar(255)', (c) => c.notNull())
      .addColumn('variation', 'varchar(64)', (c) => c.notNull())
      .addColumn('prompt', 'text', (c) => c.notNull())
      .addColumn('response', 'text')
      /** 1 passed, 0 failed, null: no verdict (the agent could not be reached, or the check could not run). */
      .addColumn('passed', 'integer')
      /** JSON: detector / check id → 0..1. */
      .addColumn('scores', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('error', 'varchar(1000)')
      .addColumn('latency_ms', 'integer')
      /** JSON lineage of a custom harness's prompt (rule, persona, policy); null for standard prompts. */
      .addColumn('lineage', 'text')
      .addColumn('created_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('evaluation_results_pk', ['evaluation_id', 'prompt_id'])
      .execute();
    await db.schema.createIndex('evaluation_results_order_idx').on('evaluation_results').columns(['evaluation_id', 'ordinal']).execute();

    await db.schema
      .createTable('evaluation_reports')
      .addColumn('evaluation_id', 'varchar(36)', (c) => c.primaryKey().references('evaluations.id').onDelete('cascade'))
      .addColumn('html', 'text', (c) => c.notNull())
      .addColumn('pdf', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
      .addColumn('generated_by', 'varchar(36)')
      .addColumn('generated_at', ts, (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('custom_harnesses')
      .addColumn('id', 'varchar(36)', (c) => c.primaryKey())
      .addColumn('team_id', 'varchar(36)', (c) => c.notNull().references('teams.id').onDelete('cascade'))
      .addColumn('agent_id', 'varchar(36)', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('description', 'text')
      /** JSON arrays of ids, as given. */
      .addColumn('persona_ids', 'text', (c) => c.notNull())
      .addColumn('policy_ids', 'text', (c) => c.notNull())
      .addColumn('system_prompt', 'text')
      /** The pillar its scores count toward (CONTRACT.md, "Pillars"). */
      .addColumn('pillar', 'varchar(32)', (c) => c.notNull())
      /** draft → active | failed (CustomHarnessStatus). */
      .addColumn('status', 'varchar(16)', (c) => c.notNull())
      /** The generation job (the reference's workflow). */
      .addColumn('job_id', 'varchar(36)')
      /** `templates` or `llm`: what wrote the prompts. */
      .addColumn('generator', 'varchar(16)')
      .addColumn('generated_at', ts)
      .addColumn('prompt_count', 'integer')
      .addColumn('creation_error', 'varchar(1000)')
      .addColumn('created_by', 'varchar(36)', (c) => c.notNull())
      .addColumn('created_at', ts, (c) => c.notNull())
      .addColumn('updated_at', ts, (c) => c.notNull())
      .execute();
    await db.schema.createIndex('custom_harnesses_team_created_idx').on('custom_harnesses').columns(['team_id', 'created_at', 'id']).execute();

    await db.schema
      .createTable('custom_harness_prompts')
      .addColumn('harness_id', 'varchar(36)', (c) => c.notNull().references('custom_harnesses.id').onDelete('cascade'))
      .addColumn('ordinal', 'integer', (c) => c.notNull())
      .addColumn('dimension_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('scenario', 'varchar(255)', (c) => c.notNull())
      .addColumn('probe', 'varchar(255)', (c) => c.notNull())
      .addColumn('prompt_text', 'text', (c) => c.notNull())
      .addColumn('pass_criteria', 'text', (c) => c.notNull())
      /** JSON CustomHarnessLineage plus the ids it came from (rule, policy, persona). */
      .addColumn('lineage', 'text', (c) => c.notNull())
      /** JSON ScoringSpec: how an answer is judged without a model (with one configured, it judges against pass_criteria). */
      .addColumn('expect', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('custom_harness_prompts_pk', ['harness_id', 'ordinal'])
      .execute();
  },
};
