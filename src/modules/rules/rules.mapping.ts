import { Type } from 'typebox';
import { decodeJsonColumn, decodeNullableJsonColumn, decodeStringList, toJsonColumn } from '../../db/json-columns.js';
import type { RuleRow } from './rules.repo.js';
import { RuleConsequence, RuleConstraint, RuleProvenance, type PolicyRuleOut, type RuleProvenanceValue } from './rules.schemas.js';

/** The stored shapes, as the answer has them (a constraint of another shape is kept as an object). */
const Constraints = Type.Array(Type.Union([RuleConstraint, Type.Object({}, { additionalProperties: true })]));

export const json = toJsonColumn;

/** Every provenance is answered complete, with nulls for what is unknown. */
export function normaliseProvenance(p: RuleProvenanceValue | null | undefined): PolicyRuleOut['provenance'] {
  if (p === null || p === undefined) return null;
  const loc = p.source_location;
  return {
    extracted_by: p.extracted_by ?? 'manual',
    model_used: p.model_used ?? null,
    confidence_score: p.confidence_score ?? null,
    source_location:
      loc === null || loc === undefined
        ? null
        : {
            section: loc.section ?? null,
            paragraph: loc.paragraph ?? null,
            char_start: loc.char_start ?? null,
            char_end: loc.char_end ?? null,
            source_text: loc.source_text ?? null,
          },
  };
}

export function toRule(row: RuleRow): PolicyRuleOut {
  return {
    id: row.id,
    policy_id: row.policy_id,
    rule_id: row.rule_id,
    rule_type: row.rule_type as PolicyRuleOut['rule_type'],
    action: row.action,
    target: row.target,
    assignee: row.assignee,
    constraints: decodeJsonColumn(Constraints, row.constraints, 'policy_rules.constraints'),
    constraint_logic: row.constraint_logic,
    consequence: decodeJsonColumn(RuleConsequence, row.consequence, 'policy_rules.consequence'),
    natural_language: row.natural_language,
    provenance: normaliseProvenance(decodeNullableJsonColumn(RuleProvenance, row.provenance, 'policy_rules.provenance')),
    category: row.category as PolicyRuleOut['category'],
    tags: decodeStringList(row.tags, 'policy_rules.tags'),
    status: row.status as PolicyRuleOut['status'],
    reviewed_by: row.reviewed_by,
    reviewed_at: row.reviewed_at,
    review_notes: row.review_notes,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
