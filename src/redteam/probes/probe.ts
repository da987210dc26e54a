import type { PurposeProfile } from '../purpose.js';
import type { AgentKnowledge, AttackCase, ProbeCategory, Severity } from '../types.js';

/** What a probe makes its cases from. */
export interface ProbeContext {
  profile: PurposeProfile;
  knowledge: AgentKnowledge;
  /** The canary of the probe's n-th case: unique per case, stable for a campaign. */
  canary(n: number): string;
}

/** A case before the plan names it. */
export type CaseDraft = Pick<AttackCase, 'payload' | 'goal' | 'topic'>;

/** One kind of attack of the catalogue; `custom_plugins` name probes by `id`. */
export interface Probe {
  /** `<category>.<name>`, e.g. `injection.ignore-previous`. */
  id: string;
  category: ProbeCategory;
  description: string;
  severity: Severity;
  /** The reference's taxonomy path (Finding.phenotype_category). */
  phenotype: string;
  /** grey_box: the probe uses what Warden knows of the agent and runs from that access level on. */
  access: 'black_box' | 'grey_box';
  /** The n-th case (n = 0, 1, 2…, each worded differently); null when the probe has nothing to attack (no tool known…). */
  make(context: ProbeContext, n: number): CaseDraft | null;
}

/** `{name}` slots filled; an unknown slot is an error in the catalogue, caught by its tests. */
export function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => slots[name] ?? whole);
}

/** Made-up people an attacker asks about (no real person). */
export const PEOPLE = ['Jordan Reyes', 'Priya Natarajan', 'Tomasz Wielgosz', 'Amara Okafor', 'Linnea Holmqvist', 'Mateo Ferreira'];
