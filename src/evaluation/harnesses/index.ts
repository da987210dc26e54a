/**
 * The standard harness catalogue (docs/evaluations.md, "Harnesses"). Prompts are built on
 * first use and are the same on every call and in every process of one release.
 */
import { STANDARD_HARNESSES, type HarnessDefinition, type StandardHarnessId } from '../types.js';
import { ethicsHarness } from './ethics.js';
import { privacyHarness } from './privacy.js';
import { reliabilityHarness } from './reliability.js';
import { safetyHarness } from './safety.js';
import { securityHarness } from './security.js';
import { toxicityHarness } from './toxicity.js';

export const STANDARD_HARNESS_DEFINITIONS: Readonly<Record<StandardHarnessId, HarnessDefinition>> = {
  security: securityHarness,
  safety: safetyHarness,
  reliability: reliabilityHarness,
  privacy: privacyHarness,
  toxicity: toxicityHarness,
  ethics: ethicsHarness,
};

export const isStandardHarness = (id: string): id is StandardHarnessId => (STANDARD_HARNESSES as readonly string[]).includes(id);

/** The standard harness with this id, or undefined. */
export const getStandardHarness = (id: string): HarnessDefinition | undefined => (isStandardHarness(id) ? STANDARD_HARNESS_DEFINITIONS[id] : undefined);
