/**
 * The method catalogue: every method Warden runs, and every Vijil Dome method id it answers
 * for. Dome's model-based ids are aliases of the Warden method that does the same job offline
 * (or, for Dome's LLM-backed ids, through WARDEN_LLM_*); their model settings (window sizes,
 * devices, thresholds of a classifier Warden does not run) are accepted and dropped, so a real
 * Dome configuration loads unchanged. docs/guardrails.md, "Methods".
 */
import { detectSecrets } from './detectors/detect-secrets.js';
import { encodingHeuristics } from './detectors/encoding-heuristics.js';
import { promptHarmfulnessWarden } from './detectors/harmful-intent.js';
import { jbNgramPerplexity } from './detectors/ngram-perplexity.js';
import { factCheckLlm, genericLlm, hallucinationLlm, moderationLlm, securityLlm, stereotypeLlm } from './detectors/llm-methods.js';
import { moderationFlashtext } from './detectors/moderation-flashtext.js';
import { policySections } from './detectors/policy-sections.js';
import { privacyPresidio } from './detectors/privacy-presidio.js';
import { promptInjectionWarden, SECURITY_ALIASES } from './detectors/prompt-injection.js';
import { keywordBanlist, maxLength } from './detectors/text-rules.js';
import type { DetectorDefinition, GuardType } from './types.js';

/** Definitions of every parameter type (methods are bivariant in their parameters). */
type AnyDefinition = DetectorDefinition<unknown>;

const DEFINITIONS: readonly AnyDefinition[] = [
  promptInjectionWarden,
  encodingHeuristics,
  jbNgramPerplexity,
  securityLlm,
  moderationFlashtext,
  promptHarmfulnessWarden,
  moderationLlm,
  stereotypeLlm,
  privacyPresidio,
  detectSecrets,
  maxLength,
  hallucinationLlm,
  factCheckLlm,
  genericLlm,
  keywordBanlist,
  policySections,
];

/** Dome's documented parameters of its model-based methods (DETECTOR_INFO.md), dropped when the id is an alias. */
const TRANSFORMER = ['truncation', 'max_length', 'window_stride', 'device', 'score_threshold'];
const SAFEGUARD = ['api_key', 'api_key_name', 'base_url', 'model', 'temperature', 'max_tokens', 'reasoning_effort', 'timeout_seconds', 'max_input_chars'];
const DOME_MODEL_PARAMS: Record<string, readonly string[]> = {
  'prompt-injection-deberta-v3-base': TRANSFORMER,
  'prompt-injection-deberta-finetuned-11122024': TRANSFORMER,
  'prompt-injection-mbert': TRANSFORMER,
  'prompt-injection-mbert-safeguard': SAFEGUARD,
  'prompt-injection-mbert-hybrid': [...TRANSFORMER, ...SAFEGUARD, 'confidence_threshold'],
  'security-promptguard': TRANSFORMER,
  'security-embeddings': ['engine', 'model', 'threshold', 'in_mem'],
  'jb-length-per-perplexity': ['model_id', 'batch_size', 'stride_length', 'threshold'],
  'jb-prefix-suffix-perplexity': ['model_id', 'batch_size', 'stride_length', 'prefix_threshold', 'suffix_threshold', 'prefix_length', 'suffix_length'],
  'moderation-deberta': TRANSFORMER,
  'moderation-mbert': TRANSFORMER,
  'moderation-mbert-hybrid': [...TRANSFORMER, ...SAFEGUARD, 'confidence_threshold'],
  'moderations-oai-api': ['score_threshold_dict'],
  'moderation-perspective-api': ['api_key', 'attributes', 'score_threshold'],
  'stereotype-eeoc-fast': ['score_threshold', 'max_length'],
  'stereotype-eeoc-hybrid': ['score_threshold', 'max_length', 'confidence_threshold'],
  'hhem-hallucination': ['factual_consistency_score_threshold', 'trust_remote_code'],
  'prompt-harmfulness-fast': ['model_name', 'tokenizer_name', 'score_threshold', 'max_length', 'window_stride'],
};

const WARDEN_ALIASES: Record<string, AliasSpec> = {
  'moderation-deberta': { target: 'moderation-flashtext', type: 'moderation' },
  'moderation-mbert': { target: 'moderation-flashtext', type: 'moderation' },
  'moderation-mbert-hybrid': { target: 'moderation-flashtext', type: 'moderation' },
  'moderations-oai-api': { target: 'moderation-flashtext', type: 'moderation' },
  'moderation-perspective-api': { target: 'moderation-flashtext', type: 'moderation' },
  'moderation-mbert-safeguard': { target: 'moderation-prompt-engineering', type: 'moderation' },
  'moderation-llamaguard': { target: 'moderation-prompt-engineering', type: 'moderation' },
  'stereotype-eeoc-fast': { target: 'stereotype-eeoc-safeguard', type: 'moderation' },
  'stereotype-eeoc-hybrid': { target: 'stereotype-eeoc-safeguard', type: 'moderation' },
  'hhem-hallucination': { target: 'hallucination-llm', type: 'integrity' },
  'fact-check-roberta': { target: 'fact-check-llm', type: 'integrity' },
  'policy-gpt-oss-safeguard': { target: 'policy-sections', type: 'generic' },
  'prompt-harmfulness-fast': { target: 'prompt-harmfulness-warden', type: 'moderation' },
  'prompt-harmfulness-safeguard': { target: 'moderation-prompt-engineering', type: 'moderation' },
};

/** One entry of the catalogue: a method, or a Dome id answered by one. */
export interface CatalogueMethod {
  /** The id as configured (a method's own id, or a Dome alias). */
  id: string;
  /** The guard type it is listed under. */
  type: GuardType;
  description: string;
  needsLlm: boolean;
  /** The method that runs, for an alias; null for a method. */
  aliasOf: string | null;
  /** The method that runs. */
  definition: AnyDefinition;
  /** The definition's `parseParams`, after dropping the alias's Dome-only model settings. */
  parseParams(raw: Record<string, unknown>): unknown;
}

export interface MethodListing {
  id: string;
  type: GuardType;
  description: string;
  needsLlm: boolean;
  aliasOf: string | null;
}

/** A set of methods and aliases a configuration is read against. */
export interface Catalogue {
  get(id: string): CatalogueMethod | undefined;
  list(): MethodListing[];
  /** The ids a guard of `type` may list (for error messages). */
  idsOfType(type: GuardType): string[];
}

export interface AliasSpec {
  target: string;
  /** The Dome guard type the alias belongs to (a Dome configuration lists it under a guard of this type). */
  type: GuardType;
}

/**
 * A catalogue of `definitions` and `aliases` (alias id → method). Dome's documented model
 * settings of an alias id (`modelParams`) are dropped before the method reads its parameters.
 */
export function createCatalogue(
  definitions: readonly AnyDefinition[],
  aliases: Record<string, AliasSpec>,
  modelParams: Record<string, readonly string[]> = DOME_MODEL_PARAMS,
): Catalogue {
  const entries = new Map<string, CatalogueMethod>();
  for (const definition of definitions) {
    if (entries.has(definition.id)) throw new Error(`guard catalogue: method ${definition.id} defined twice`);
    entries.set(definition.id, {
      id: definition.id,
      type: definition.type,
      description: definition.description,
      needsLlm: definition.needsLlm === true,
      aliasOf: null,
      definition,
      parseParams: (raw) => definition.parseParams(raw),
    });
  }
  for (const [id, spec] of Object.entries(aliases)) {
    // A method's own id is never shadowed by an alias of the same name.
    if (entries.get(id)?.aliasOf === null) continue;
    const target = entries.get(spec.target);
    if (!target || target.aliasOf !== null) throw new Error(`guard catalogue: alias ${id} names ${spec.target}, which is not a method`);
    const dropped = new Set(modelParams[id] ?? []);
    const definition = target.definition;
    entries.set(id, {
      id,
      type: spec.type,
      description: `Vijil Dome's ${id}, answered by ${definition.id}: ${definition.description}`,
      needsLlm: definition.needsLlm === true,
      aliasOf: definition.id,
      definition,
      parseParams: (raw) => definition.parseParams(Object.fromEntries(Object.entries(raw).filter(([key]) => !dropped.has(key)))),
    });
  }
  const sorted = [...entries.values()].sort(
    (a, b) => Number(a.aliasOf !== null) - Number(b.aliasOf !== null) || a.type.localeCompare(b.type) || a.id.localeCompare(b.id),
  );
  return {
    get: (id) => entries.get(id),
    list: () => sorted.map(({ id, type, description, needsLlm, aliasOf }) => ({ id, type, description, needsLlm, aliasOf })),
    idsOfType: (type) => sorted.filter((m) => m.type === type).map((m) => m.id),
  };
}

/** Warden's catalogue: its methods, the security branch's aliases and Warden's own. */
export const CATALOGUE: Catalogue = createCatalogue(DEFINITIONS, {
  ...Object.fromEntries(Object.entries(SECURITY_ALIASES).map(([id, target]): [string, AliasSpec] => [id, { target, type: 'security' }])),
  ...WARDEN_ALIASES,
});

/** A method or a Dome alias by id; undefined when Warden knows neither. */
export function getMethod(id: string): CatalogueMethod | undefined {
  return CATALOGUE.get(id);
}

/** Every id a configuration may name: methods first, then aliases, each group by type then id. */
export function listMethods(): MethodListing[] {
  return CATALOGUE.list();
}
