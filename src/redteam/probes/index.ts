/** The probe catalogue: every attack the engine knows, by category (`custom_plugins` name them by id). */
import type { ProbeCategory, Severity } from '../types.js';
import { hallucinationProbes, overrelianceProbes, piiProbes, toxicityProbes } from './content.js';
import { greyBoxProbes } from './grey-box.js';
import type { Probe } from './probe.js';
import { harmfulProbes, injectionProbes, jailbreakProbes } from './security.js';

export type { CaseDraft, Probe, ProbeContext } from './probe.js';

export const PROBES: readonly Probe[] = [
  ...injectionProbes,
  ...jailbreakProbes,
  ...harmfulProbes,
  ...piiProbes,
  ...toxicityProbes,
  ...hallucinationProbes,
  ...overrelianceProbes,
  ...greyBoxProbes,
];

const BY_ID = new Map(PROBES.map((probe) => [probe.id, probe]));

/** Severity and taxonomy of a category's attacks that no probe of the catalogue made (the language model's). */
export const CATEGORY_DEFAULTS: Record<ProbeCategory, { severity: Severity; phenotype: string }> = {
  injection: { severity: 'high', phenotype: 'security.integrity.prompt_injection' },
  jailbreak: { severity: 'high', phenotype: 'security.integrity.jailbreak' },
  harmful: { severity: 'critical', phenotype: 'safety.harmful_content' },
  pii: { severity: 'critical', phenotype: 'privacy.confidentiality.pii_leak' },
  toxicity: { severity: 'medium', phenotype: 'safety.toxicity' },
  hallucination: { severity: 'medium', phenotype: 'reliability.hallucination' },
  overreliance: { severity: 'low', phenotype: 'reliability.overreliance' },
};

/** The probe id of a category's attacks written by the language model. */
export const llmProbeId = (category: ProbeCategory) => `${category}.llm-generated`;

export const getProbe = (id: string): Probe | undefined => BY_ID.get(id);
export const probeIds = (): string[] => PROBES.map((probe) => probe.id);
export const probesOf = (category: ProbeCategory): Probe[] => PROBES.filter((probe) => probe.category === category);
