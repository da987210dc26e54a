import type { Kysely } from 'kysely';
import type { DB } from '../../../db/schema.js';
import { getStandardHarness } from '../../../evaluation/harnesses/index.js';
import { selectPrompts } from '../../../evaluation/sampling.js';
import type { EvalPrompt, Pillar } from '../../../evaluation/types.js';
import { PILLARS } from '../../../evaluation/types.js';
import { findHarnessesByIds, listPrompts, promptColumns } from '../../custom-harnesses/custom-harnesses.repo.js';
import { harnessNamesOf } from '../evaluations.mapping.js';
import type { EvaluationRow } from '../evaluations.repo.js';

/** A prompt of a run: its place in the plan, and (custom harnesses) where it came from. */
export interface PlannedPrompt extends EvalPrompt {
  ordinal: number;
  lineage: Record<string, unknown> | null;
  /** Custom prompts: what a configured model judges the answer against. */
  passCriteria: string | null;
}

/** What is sent together and stored together: one prompt, or both members of a paraphrase pair. */
export type Unit = PlannedPrompt[];

export interface HarnessInfo {
  name: string;
  pillar: Pillar;
}

export interface Plan {
  prompts: PlannedPrompt[];
  harnesses: Map<string, HarnessInfo>;
}

/** A plan cannot be made (an unknown harness, a custom harness gone or empty): the run fails with this. */
export class PlanError extends Error {}

const isPillar = (value: string): value is Pillar => (PILLARS as readonly string[]).includes(value);

/**
 * The harnesses of a run with their names and pillars, without their prompts (a stopped run's
 * report): a custom harness deleted since is left out (its results then count toward no pillar).
 */
export async function harnessesOf(db: Kysely<DB>, evaluation: EvaluationRow): Promise<Map<string, HarnessInfo>> {
  const names = harnessNamesOf(evaluation);
  const harnesses = new Map<string, HarnessInfo>();
  if (evaluation.harness_type === 'custom') {
    for (const row of await findHarnessesByIds(db, names)) {
      if (row.team_id === evaluation.team_id) harnesses.set(row.id, { name: row.name, pillar: isPillar(row.pillar) ? row.pillar : 'safety' });
    }
  } else {
    for (const id of names) {
      const harness = getStandardHarness(id);
      if (harness !== undefined) harnesses.set(id, { name: harness.name, pillar: harness.pillar });
    }
  }
  return harnesses;
}

/**
 * The prompts a run sends, in order: for each harness asked for, its prompts (standard: the
 * catalogue's; custom: the harness's stored ones), sampled with the run's seed. The same
 * evaluation gives the same plan each time it is made, so a resumed run finds its stored
 * prompts by id.
 */
export async function buildPlan(db: Kysely<DB>, evaluation: EvaluationRow): Promise<Plan> {
  const names = harnessNamesOf(evaluation);
  const seed = evaluation.seed ?? 0;
  const harnesses = new Map<string, HarnessInfo>();
  const chosen: Array<EvalPrompt & { lineage?: Record<string, unknown> | null; passCriteria?: string | null }> = [];
  if (evaluation.harness_type === 'custom') {
    const rows = new Map((await findHarnessesByIds(db, names)).map((row) => [row.id, row]));
    for (const id of names) {
      const harness = rows.get(id);
      if (harness === undefined || harness.team_id !== evaluation.team_id) throw new PlanError(`The custom harness ${id} no longer exists`);
      harnesses.set(id, { name: harness.name, pillar: isPillar(harness.pillar) ? harness.pillar : 'safety' });
      const prompts = (await listPrompts(db, id)).map((row) => ({
        id: `${id}.${row.ordinal}`,
        harness: id,
        scenario: row.scenario,
        probe: row.probe,
        turns: [row.prompt_text],
        base: `prompt-${row.ordinal}`,
        variation: 'plain',
        ...promptColumns(row),
        passCriteria: row.pass_criteria,
      }));
      if (prompts.length === 0) throw new PlanError(`The custom harness '${harness.name}' has no prompts`);
      chosen.push(...selectPrompts(prompts, evaluation.sample_size, seed));
    }
  } else {
    for (const id of names) {
      const harness = getStandardHarness(id);
      if (harness === undefined) throw new PlanError(`Unknown harness '${id}'`);
      harnesses.set(id, { name: harness.name, pillar: harness.pillar });
      chosen.push(...selectPrompts(harness, evaluation.sample_size, seed));
    }
  }
  const prompts = chosen.map((prompt, ordinal) => ({ ...prompt, ordinal, lineage: prompt.lineage ?? null, passCriteria: prompt.passCriteria ?? null }));
  return { prompts, harnesses };
}

/** The plan's prompts as units: paraphrase pair members together (judged on both answers), others alone; plan order. */
export function unitsOf(prompts: readonly PlannedPrompt[]): Unit[] {
  const units: Unit[] = [];
  const pairs = new Map<string, Unit>();
  for (const prompt of prompts) {
    if (prompt.expect.kind !== 'consistent') {
      units.push([prompt]);
      continue;
    }
    const key = `${prompt.harness}\u0000${prompt.expect.pair}`;
    const unit = pairs.get(key);
    if (unit !== undefined) unit.push(prompt);
    else {
      const fresh: Unit = [prompt];
      pairs.set(key, fresh);
      units.push(fresh);
    }
  }
  return units;
}
