import type { Kysely } from 'kysely';
import type { WardenMigration } from './types.js';
import { bigint, double } from './types.js';

/**
 * The agent's evidence per pillar (docs/evaluations.md, "The agent's evidence"): the latest
 * measurement of each of security, safety and reliability, whichever run made it, so that a
 * narrower run never hides an older, wider one. `agents.test_score` is the mean of these rows.
 * No foreign key to the evaluation: deleting a run leaves the evidence it gave (as test_score).
 */
export const pillarEvidence: WardenMigration = {
  async up(db, dialect) {
    const ts = bigint(dialect);
    await db.schema
      .createTable('agent_pillar_evidence')
      .addColumn('agent_id', 'varchar(36)', (c) => c.notNull().references('agents.id').onDelete('cascade'))
      /** `security`, `safety` or `reliability`. */
      .addColumn('pillar', 'varchar(16)', (c) => c.notNull())
      .addColumn('evaluation_id', 'varchar(36)', (c) => c.notNull())
      /** JSON array of the names of the harnesses that measured it in that run. */
      .addColumn('harnesses', 'text', (c) => c.notNull())
      .addColumn('score', double(dialect), (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .addColumn('low', double(dialect), (c) => c.notNull())
      .addColumn('high', double(dialect), (c) => c.notNull())
      /** When the run that measured it completed (epoch seconds). */
      .addColumn('measured_at', ts, (c) => c.notNull())
      .addPrimaryKeyConstraint('agent_pillar_evidence_pk', ['agent_id', 'pillar'])
      .execute();

    await fillPillarEvidence(db);
  },
};

/**
 * The evidence of the completed runs already stored, oldest first, so that each pillar ends
 * with its latest measurement. Self-contained (a migration never changes once shipped).
 */
export async function fillPillarEvidence(db: Kysely<any>): Promise<void> {
  const runs = await db
    .selectFrom('evaluations')
    .select(['id', 'agent_id', 'harness_type', 'harness_scores', 'pillar_details', 'completed_at'])
    .where('status', '=', 'completed')
    .where('pillar_details', 'is not', null)
    .orderBy('completed_at')
    .orderBy('id')
    .execute();
  const latest = new Map<string, Record<string, unknown>>();
  for (const run of runs as Array<Record<string, any>>) {
    let details: { pillars?: Record<string, { score: number; n: number; low: number; high: number } | null> };
    let harnesses: Record<string, { name?: string; pillar?: string }>;
    try {
      details = JSON.parse(run.pillar_details);
      harnesses = JSON.parse(run.harness_scores ?? '{}');
    } catch {
      continue;
    }
    for (const [pillar, score] of Object.entries(details.pillars ?? {})) {
      if (score == null || !(score.n > 0)) continue;
      const names = Object.entries(harnesses)
        .filter(([, h]) => h.pillar === pillar)
        .map(([id, h]) => (run.harness_type === 'custom' ? (h.name ?? id) : id));
      latest.set(`${run.agent_id} ${pillar}`, {
        agent_id: run.agent_id,
        pillar,
        evaluation_id: run.id,
        harnesses: JSON.stringify(names),
        score: score.score,
        n: score.n,
        low: score.low,
        high: score.high,
        measured_at: Number(run.completed_at ?? 0),
      });
    }
  }
  for (const row of latest.values()) await db.insertInto('agent_pillar_evidence').values(row).execute();
}
