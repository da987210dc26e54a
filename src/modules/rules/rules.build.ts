import type { Insertable } from 'kysely';
import type { PolicyRulesTable } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { json, normaliseProvenance } from './rules.mapping.js';
import type { PolicyRuleCreateBody, RuleProvenanceValue } from './rules.schemas.js';

type ConsequenceInput = { action?: string | undefined; severity?: string | undefined; message?: string | null | undefined; [key: string]: unknown };

/**
 * A consequence as stored and answered: action, severity and message always present (with the
 * defaults of RuleConsequence), and any other key the client sent kept as it was sent.
 */
export const normaliseConsequence = ({ action, severity, message, ...extra }: ConsequenceInput) => ({
  ...extra,
  action: action ?? 'warn',
  severity: severity ?? 'medium',
  message: message ?? null,
});

/** rule_id when none is given: short, readable and unique enough to tell rules apart in a list. */
export const defaultRuleId = (id: string) => `R-${id.slice(-8)}`;

export interface NewRule {
  policyId: string;
  teamId: string;
  body: PolicyRuleCreateBody;
  provenance: RuleProvenanceValue | null;
  reviewerId: string;
  at: number;
}

/** The row for a new rule; a rule created already approved or rejected records who reviewed it. */
export function buildRuleRow({ policyId, teamId, body, provenance, reviewerId, at }: NewRule): Insertable<PolicyRulesTable> {
  const id = body.id ?? newId();
  const status = body.status ?? 'draft';
  const reviewed = status === 'approved' || status === 'rejected';
  return {
    id,
    policy_id: policyId,
    team_id: teamId,
    rule_id: body.rule_id ?? defaultRuleId(id),
    rule_type: body.rule_type,
    action: body.action,
    target: body.target ?? null,
    assignee: body.assignee === undefined ? 'agent' : body.assignee,
    constraints: JSON.stringify(body.constraints ?? []),
    constraint_logic: body.constraint_logic ?? 'all',
    consequence: JSON.stringify(normaliseConsequence(body.consequence)),
    natural_language: body.natural_language,
    provenance: json(normaliseProvenance(provenance ?? { extracted_by: 'manual' })),
    category: body.category === undefined ? 'security' : body.category,
    tags: json(body.tags),
    status,
    reviewed_by: reviewed ? reviewerId : null,
    reviewed_at: reviewed ? at : null,
    review_notes: null,
    created_at: at,
    updated_at: at,
  };
}
