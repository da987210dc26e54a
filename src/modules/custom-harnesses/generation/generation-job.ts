import type { Kysely } from 'kysely';
import type { LlmConfig } from '../../../config.js';
import type { DB } from '../../../db/schema.js';
import type { JobHandler } from '../../../jobs/types.js';
import { findAgent } from '../../agents/agents.repo.js';
import { findPreset } from '../../personas/personas.presets.js';
import { deletePrompts, findHarness, insertPrompts, updateDraftOf, type CustomHarnessRow } from '../custom-harnesses.repo.js';
import { llmPrompts } from './llm.js';
import { pillarOf, type GenerationSource, type SourcePersona } from './source.js';
import { templatePrompts } from './templates.js';
import { Type } from 'typebox';

export const GENERATION_JOB = 'custom-harness-generation';

export interface GenerationJobPayload {
  harnessId: string;
}

export interface GenerationOptions {
  db: Kysely<DB>;
  llm?: LlmConfig | undefined;
  /** Epoch seconds. */
  now: () => number;
}

const parseIds = (text: string): string[] => {
  const value = JSON.parse(text) as unknown;
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
};

/** The agent, personas and approved rules a harness is built from, read when its generation runs. */
export async function loadSource(db: Kysely<DB>, harness: CustomHarnessRow): Promise<GenerationSource> {
  const agent = await findAgent(db, harness.agent_id);
  if (agent === undefined) throw new Error('The agent was deleted');
  const personaIds = parseIds(harness.persona_ids);
  const rows =
    personaIds.length === 0 ? [] : await db.selectFrom('personas').selectAll().where('id', 'in', personaIds).where('team_id', '=', harness.team_id).execute();
  const personas: SourcePersona[] = [];
  for (const id of personaIds) {
    const persona = rows.find((r) => r.id === id) ?? findPreset(id);
    if (persona === undefined) continue; // deleted since: the others still count
    const { name, role, role_description: roleDescription, intent, language } = persona;
    personas.push({ id, name, role, roleDescription, intent, language });
  }
  const policyIds = parseIds(harness.policy_ids);
  const rules =
    policyIds.length === 0
      ? []
      : await db
          .selectFrom('policy_rules')
          .innerJoin('policies', 'policies.id', 'policy_rules.policy_id')
          .select([
            'policy_rules.id',
            'policy_rules.rule_id',
            'policy_rules.policy_id',
            'policies.name as policy_name',
            'policies.category as policy_category',
            'policy_rules.rule_type',
            'policy_rules.action',
            'policy_rules.target',
            'policy_rules.natural_language',
            'policy_rules.category',
          ])
          .where('policy_rules.policy_id', 'in', policyIds)
          .where('policy_rules.team_id', '=', harness.team_id)
          .where('policy_rules.status', '=', 'approved')
          .orderBy('policy_rules.policy_id')
          .orderBy('policy_rules.created_at')
          .orderBy('policy_rules.id')
          .execute();
  return {
    agentName: agent.agent_name,
    description: harness.system_prompt ?? agent.purpose ?? agent.agent_system_prompt,
    personas,
    rules: rules.map((r) => ({
      id: r.id,
      ruleId: r.rule_id,
      policyId: r.policy_id,
      policyName: r.policy_name,
      policyCategory: r.policy_category,
      ruleType: r.rule_type,
      action: r.action,
      target: r.target,
      naturalLanguage: r.natural_language,
      category: r.category,
    })),
  };
}

/**
 * Builds a custom harness's prompts (docs/evaluations.md, "Custom harnesses"): from templates
 * offline, by the configured model otherwise. The prompts and the harness's `active` status
 * are written in one transaction; a failure or a cancel leaves it `failed` with the reason.
 * A restart runs the generation again from the start (nothing partial was stored).
 */
export function createGenerationJob(options: GenerationOptions): JobHandler<GenerationJobPayload> {
  const { db, now } = options;
  return {
    kind: GENERATION_JOB,
    payload: Type.Object({ harnessId: Type.String() }),
    onInterrupted: 'resume',
    async run({ id: jobId, payload, signal, progress, log, fenced }) {
      const harness = await findHarness(db, payload.harnessId);
      // Deleted (perhaps re-created under the same id, with another job), or no longer a draft: nothing to do.
      if (harness === undefined || harness.status !== 'draft' || harness.job_id !== jobId) return;
      const source = await loadSource(db, harness);
      await log(`Sources: ${source.rules.length} approved rules, ${source.personas.length} personas`);
      let prompts;
      let generator: 'templates' | 'llm' = 'templates';
      if (options.llm !== undefined && source.rules.length > 0) {
        generator = 'llm';
        const onPair = (done: number, total: number) => void progress({ done, total, message: `${done} of ${total} rule and persona pairs` });
        const report = await llmPrompts(options.llm, source, signal, onPair);
        if (report.fallbacks > 0) await log(`The model failed on ${report.fallbacks} of ${report.pairs} pairs: templates used for them`, 'warn');
        prompts = report.prompts;
      } else {
        prompts = templatePrompts(source);
      }
      if (signal.aborted) throw new Error('generation stopped');
      if (prompts.length === 0) {
        throw new Error('Nothing to build prompts from: choose personas, or policies with approved prohibition or obligation rules');
      }
      const at = now();
      // The job's fenced transaction: only while this run holds its job, and the harness is still
      // a draft generated by it (not cancelled, deleted or re-created meanwhile): a stopped generation writes no prompt.
      const written = await fenced(async (trx) => {
        const active = await updateDraftOf(trx, harness.id, jobId, {
          status: 'active',
          prompt_count: prompts.length,
          generated_at: at,
          generator,
          pillar: pillarOf(source.rules),
          creation_error: null,
          updated_at: at,
        });
        if (!active) return false;
        await deletePrompts(trx, harness.id);
        await insertPrompts(
          trx,
          prompts.map((p, ordinal) => ({
            harness_id: harness.id,
            ordinal,
            dimension_name: p.dimension_name,
            scenario: p.scenario,
            probe: p.probe,
            prompt_text: p.prompt_text,
            pass_criteria: p.pass_criteria,
            lineage: JSON.stringify(p.lineage),
            expect: JSON.stringify(p.expect),
          })),
        );
        return true;
      });
      await log(written ? `Generated ${prompts.length} prompts (${generator})` : 'The harness was cancelled or deleted meanwhile: no prompt was written');
    },
    async onEnded(job, trx) {
      const reason = job.status === 'cancelled' ? 'Generation was cancelled' : job.reason;
      // Conditional (still a draft of this job): a completion or a cancel that committed first stands.
      await updateDraftOf(trx, job.payload.harnessId, job.id, { status: 'failed', creation_error: reason.slice(0, 1000), updated_at: now() });
    },
  };
}
