import type { Pillar, ScoringSpec } from '../../../evaluation/types.js';
import type { CustomHarnessLineageOut } from '../custom-harnesses.schemas.js';

/** What a custom harness is generated from (docs/evaluations.md, "Custom harnesses"). */
export interface GenerationSource {
  agentName: string;
  /** What the agent does: the harness's system_prompt, else the agent's purpose, else its system prompt. */
  description: string | null;
  personas: SourcePersona[];
  rules: SourceRule[];
}

export interface SourcePersona {
  id: string;
  name: string;
  role: string;
  roleDescription: string | null;
  intent: string;
  language: string;
}

export interface SourceRule {
  /** The rule's row id. */
  id: string;
  /** The policy's own label for it (PDP-1). */
  ruleId: string;
  policyId: string;
  policyName: string;
  policyCategory: string;
  ruleType: string;
  action: string;
  target: string | null;
  naturalLanguage: string;
  category: string | null;
}

export interface GeneratedPrompt {
  dimension_name: string;
  scenario: string;
  probe: string;
  prompt_text: string;
  pass_criteria: string;
  lineage: CustomHarnessLineageOut;
  expect: ScoringSpec;
}

/** At most this many prompts per harness: a run of it stays a bounded job. */
export const MAX_GENERATED_PROMPTS = 10_000;

/** Privacy and security policies test the security pillar; every other policy, and persona-only harnesses, safety (CONTRACT.md, "Pillars"). */
export function pillarOf(rules: readonly Pick<SourceRule, 'policyCategory'>[]): Pillar {
  if (rules.length > 0 && rules.every((r) => r.policyCategory === 'security' || r.policyCategory === 'privacy')) return 'security';
  return 'safety';
}

/** A short slug for scenario and probe ids. */
export const slug = (text: string, max = 60) =>
  text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, max) || 'item';
