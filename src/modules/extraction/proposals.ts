import { Value } from 'typebox/value';
import type { ChatMessage } from '../../llm/client.js';
import { POLICY_CATEGORIES, type PolicyCategory } from '../policies/policies.schemas.js';
import {
  ASSIGNEES,
  CONSEQUENCE_ACTIONS,
  CONSTRAINT_LOGICS,
  RULE_SOURCE_TEXT_MAX,
  RULE_TYPES,
  StructuredConstraint,
  SEVERITIES,
  type PolicyRuleCreateBody,
} from '../rules/rules.schemas.js';
import { locateSource, type LocatedSource } from '../rules/source-location.js';

/** Longest text sent to the model: about 50,000 tokens, within every current context window. */
export const EXTRACTION_MAX_CHARS = 200_000;
/** Most rules kept from one extraction. */
export const EXTRACTION_MAX_RULES = 200;

export function extractionMessages(policy: { name: string; category: string }, text: string): ChatMessage[] {
  const system = [
    'You turn policy documents into machine-readable rules for an AI agent guardrail (an ODRL-inspired model).',
    'Answer with one JSON object: {"rules": [ ... ]}. Each rule has:',
    `- "rule_type": one of ${RULE_TYPES.join(', ')} (must not = prohibition, must = obligation, may = permission, should = recommendation)`,
    '- "action": a short snake_case verb phrase for what is governed, e.g. "disclose_personal_data" (at most 100 characters)',
    '- "target": what asset or data is affected, or null',
    `- "assignee": who must comply: one of ${ASSIGNEES.join(', ')} (usually "agent")`,
    '- "constraints": conditions under which the rule applies, a list of {"condition_type", "field", "operator", "value"}; operator one of eq, neq, gt, gte, lt, lte, in, not_in, contains, not_contains, matches; [] when it always applies',
    `- "constraint_logic": ${CONSTRAINT_LOGICS.join(', ')} (how the constraints combine)`,
    `- "consequence": {"action": one of ${CONSEQUENCE_ACTIONS.join(', ')}, "severity": one of ${SEVERITIES.join(', ')}, "message": a short message for the user}`,
    '- "natural_language": the rule in one plain sentence',
    `- "category": one of ${POLICY_CATEGORIES.join(', ')}`,
    '- "tags": a few short keywords',
    '- "confidence": your confidence from 0 to 1 that this rule is stated by the document',
    '- "source_text": the exact passage of the document the rule comes from, copied character for character (do not paraphrase, fix or shorten it)',
    '- "char_start", "char_end": the offsets of source_text in the document, counted in characters from 0, end exclusive',
    '- "section": the heading of the section the passage is in, or null',
    'Only extract rules the document states; do not invent any. Answer with the JSON object only.',
  ].join('\n');
  const user = `Policy: ${policy.name} (category: ${policy.category})\n\nDocument:\n<<<\n${text}\n>>>`;
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export interface ExtractedRule {
  body: PolicyRuleCreateBody;
  confidence: number | null;
  location: LocatedSource;
}

const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim().length > 0 ? v.trim().slice(0, max) : undefined);
const oneOf = <T extends string>(values: readonly T[], v: unknown): T | undefined =>
  typeof v === 'string' && (values as readonly string[]).includes(v.toLowerCase()) ? (v.toLowerCase() as T) : undefined;
const int = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : undefined);

/**
 * Turns what the model proposed into rules: fields that are wrong fall back to their
 * defaults, rules without a type, action or sentence are dropped, and so is every rule
 * whose source text cannot be found in the document (its offsets are recomputed from the
 * document, never trusted).
 */
export function normaliseProposals(raw: unknown, document: string, policyCategory: PolicyCategory): { rules: ExtractedRule[]; skipped: number } {
  const list = Array.isArray(raw) ? raw : Array.isArray((raw as { rules?: unknown } | null)?.rules) ? (raw as { rules: unknown[] }).rules : [];
  const rules: ExtractedRule[] = [];
  let skipped = 0;
  for (const item of list) {
    const rule = rules.length < EXTRACTION_MAX_RULES ? normaliseOne(item, document, policyCategory) : undefined;
    if (rule === undefined) skipped++;
    else rules.push(rule);
  }
  return { rules, skipped };
}

function normaliseOne(item: unknown, document: string, policyCategory: PolicyCategory): ExtractedRule | undefined {
  if (item === null || typeof item !== 'object') return undefined;
  const r = item as Record<string, unknown>;
  const ruleType = oneOf(RULE_TYPES, r.rule_type);
  const action = str(r.action, 100);
  const sentence = str(r.natural_language, 10_000);
  if (ruleType === undefined || action === undefined || sentence === undefined) return undefined;
  const location = locateSource(document, {
    source_text: typeof r.source_text === 'string' ? r.source_text : undefined,
    char_start: int(r.char_start),
    char_end: int(r.char_end),
  });
  if (location === undefined) return undefined;
  // A quote longer than a rule may keep is not the passage of one rule (docs/policies.md).
  if (location.source_text.length > RULE_SOURCE_TEXT_MAX && [...location.source_text].length > RULE_SOURCE_TEXT_MAX) return undefined;
  const section = str(r.section, 500);
  if (location.section === null && section !== undefined) location.section = section;
  const c = (r.consequence ?? {}) as Record<string, unknown>;
  const constraints = Array.isArray(r.constraints) ? r.constraints.filter((x) => Value.Check(StructuredConstraint, x)).slice(0, 50) : [];
  const tags = Array.isArray(r.tags) ? r.tags.map((t) => str(t, 100)).filter((t): t is string => t !== undefined).slice(0, 50) : null;
  const confidenceRaw = typeof r.confidence === 'number' ? r.confidence : typeof r.confidence_score === 'number' ? r.confidence_score : undefined;
  return {
    body: {
      rule_type: ruleType,
      action,
      target: str(r.target, 500) ?? null,
      assignee: oneOf(ASSIGNEES, r.assignee) ?? 'agent',
      constraints: constraints as PolicyRuleCreateBody['constraints'],
      constraint_logic: oneOf(CONSTRAINT_LOGICS, r.constraint_logic) ?? 'all',
      consequence: {
        action: oneOf(CONSEQUENCE_ACTIONS, c.action) ?? 'warn',
        severity: oneOf(SEVERITIES, c.severity) ?? 'medium',
        message: str(c.message, 2_000) ?? null,
      },
      natural_language: sentence,
      category: oneOf(POLICY_CATEGORIES, r.category) ?? policyCategory,
      tags,
      status: 'draft',
    },
    confidence: confidenceRaw !== undefined && Number.isFinite(confidenceRaw) ? Math.min(1, Math.max(0, confidenceRaw)) : null,
    location,
  };
}
