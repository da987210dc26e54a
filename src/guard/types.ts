/**
 * The guard engine's vocabulary (docs/guardrails.md). Detectors are pure functions of a text
 * and their parameters; they know nothing of HTTP, the database or the team. The gateway, the
 * evaluations and the red team call them through the catalogue (`src/guard/catalogue.ts`).
 */
import type { LanguageModel } from '../llm/types.js';

/** Vijil Dome's guard section types. A method belongs to exactly one. */
export const GUARD_TYPES = ['security', 'moderation', 'privacy', 'integrity', 'generic', 'policy'] as const;
export type GuardType = (typeof GUARD_TYPES)[number];

export type DetectionLabel = 'flagged' | 'clean' | 'error';

/** What one method answers for one text. */
export interface DetectionResult {
  /** The method's verdict: the text is what the method looks for. */
  hit: boolean;
  /** 0..1; how sure the method is (1 for a certain rule match). */
  score: number;
  /** `error` when the method could not run (then `hit` is false and `details.error` says why). */
  label: DetectionLabel;
  /** What was found, for a person: kinds, spans, matched rules. Never the secret values themselves. */
  details: Record<string, unknown>;
  /** The text with what was found replaced (privacy `anonymize`, secrets `censor`), when the method sanitizes. */
  sanitized?: string;
}

/** The configured model as the LLM-based methods call it: the one interface of src/llm/types.ts (this name kept for the guard's code). */
export type DetectorLlm = LanguageModel;

/** An approved policy rule, as `policy-sections` checks text against it. */
export interface PolicyRuleText {
  id: string;
  policyId: string;
  /** The rule as a person reads it (its description / natural-language statement). */
  text: string;
  /** prohibition | obligation | permission … (ODRL), when known. */
  kind?: string | undefined;
}

/** What a scan may give the methods beyond the text. */
export interface DetectorContext {
  /** Present only when WARDEN_LLM_* is configured. */
  llm?: DetectorLlm | undefined;
  /** The team's approved policy rules, for `policy-sections`. */
  policyRules?: readonly PolicyRuleText[] | undefined;
  signal?: AbortSignal | undefined;
}

/** Thrown by `parseParams` and by the config compiler: a 422 naming `path` (e.g. ["input-guards", 0]). */
export class GuardConfigError extends Error {
  constructor(
    readonly path: Array<string | number>,
    message: string,
    /** pydantic-style error type for the 422 entry. */
    readonly type = 'value_error',
  ) {
    super(message);
    this.name = 'GuardConfigError';
  }
}

/** One method of the catalogue. `P` is the parsed, defaulted parameter object. */
export interface DetectorDefinition<P = Record<string, unknown>> {
  /** Stable method id: Vijil Dome's where the method does the same job, Warden's own otherwise. */
  id: string;
  type: GuardType;
  /** One line for a person (the catalogue listing, docs). */
  description: string;
  /** true: needs `DetectorContext.llm`; configuring it without one is a 422 that says so. */
  needsLlm?: boolean;
  /**
   * Validates and defaults the method's parameters from a configuration (unknown keys are a
   * GuardConfigError naming them, with `path` relative to the method's parameter object).
   */
  parseParams(raw: Record<string, unknown>): P;
  /**
   * Runs the method. Heuristic methods are synchronous and bounded in time on any input (a
   * huge text is scanned in bounded windows, never with a backtracking regex over all of it).
   */
  detect(text: string, params: P, context: DetectorContext): DetectionResult | Promise<DetectionResult>;
}

export const clean = (details: Record<string, unknown> = {}): DetectionResult => ({ hit: false, score: 0, label: 'clean', details });
