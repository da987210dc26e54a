import { Type, type Static } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';
import { enumOf, Limit, Offset, Opt, OptNullable, PolicyCategorySchema, Str, Tags, TeamIdQuery } from '../policies/policies.schemas.js';

export const RULE_TYPES = ['permission', 'prohibition', 'obligation', 'recommendation'] as const;
export const RULE_STATUSES = ['draft', 'approved', 'rejected', 'modified'] as const;
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
/** Decisions of ours where the seed says "not shown" (docs/policies.md). */
export const CONSEQUENCE_ACTIONS = ['block', 'redact', 'warn', 'log', 'escalate'] as const;
export const ASSIGNEES = ['agent', 'user', 'operator', 'system'] as const;
export const CONSTRAINT_LOGICS = ['all', 'any', 'none'] as const;
export const CONSTRAINT_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'not_contains', 'matches'] as const;

export type RuleStatus = (typeof RULE_STATUSES)[number];

export const RuleTypeSchema = enumOf(RULE_TYPES, 'RuleType');
export const RuleStatusSchema = enumOf(RULE_STATUSES, 'RuleStatus');
export const SeveritySchema = enumOf(SEVERITIES, 'Severity');
export const ConstraintOperatorSchema = enumOf(CONSTRAINT_OPERATORS, 'ConstraintOperator');

/** Any string, as the reference; CONSTRAINT_LOGICS are the values Warden writes and suggests. */
const ConstraintLogic = () => Str(255, { description: `How the constraints combine; suggested: ${CONSTRAINT_LOGICS.join(', ')}` });

/** Most keys a consequence may carry (action, severity, message and a client's own). */
const CONSEQUENCE_MAX_KEYS = 32;

/**
 * The reference types `consequence.action` as any string and keeps a client's extra keys (its
 * consequence is `RuleConsequence | free-form object`), so Warden does too: CONSEQUENCE_ACTIONS
 * are the values Warden suggests and extraction uses, not the only ones accepted. `severity`
 * stays the reference's Severity enum (docs/policies.md, "Rule bodies").
 */
export const RuleConsequence = Type.Object(
  {
    action: Type.String({ description: `What the guardrail does when the rule is violated; suggested: ${CONSEQUENCE_ACTIONS.join(', ')}` }),
    severity: SeveritySchema,
    message: Nullable(Type.String()),
  },
  { title: 'RuleConsequence', additionalProperties: true },
);

export const RuleConsequenceInput = Type.Object(
  {
    action: Type.Optional(Str(255, { description: `default warn; suggested: ${CONSEQUENCE_ACTIONS.join(', ')}` })),
    severity: Type.Optional(enumOf(SEVERITIES, 'Severity', 'default medium')),
    message: OptNullable(Str(2_000)),
  },
  { title: 'RuleConsequence', additionalProperties: true, maxProperties: CONSEQUENCE_MAX_KEYS },
);

const ConstraintValue = Type.Union([Str(1_000), Type.Integer(), Type.Number(), Type.Boolean(), Type.Array(Str(1_000), { maxItems: 200 })]);

/**
 * The constraint shape Warden writes (presets, extraction) and can evaluate: the four fields,
 * `operator` one of CONSTRAINT_OPERATORS. Extraction keeps only constraints of this shape.
 */
export const StructuredConstraint = Type.Object(
  {
    condition_type: Str(64, { minLength: 1, description: 'What is tested: content, context, data, user, purpose, time, channel or custom' }),
    field: Str(255, { minLength: 1 }),
    operator: ConstraintOperatorSchema,
    value: ConstraintValue,
  },
  { title: 'StructuredConstraint' },
);

/** The reference's RuleConstraint: the four fields, `operator` any string. */
export const RuleConstraint = Type.Object(
  {
    condition_type: Type.String(),
    field: Type.String(),
    operator: Type.String({ description: `suggested: ${CONSTRAINT_OPERATORS.join(', ')}` }),
    value: Type.Union([Type.String(), Type.Integer(), Type.Number(), Type.Boolean(), Type.Array(Type.String())]),
  },
  { title: 'RuleConstraint' },
);

/** Most keys a free-form constraint may carry. */
const CONSTRAINT_MAX_KEYS = 32;
const MAX_CONSTRAINTS = 50;
/**
 * As the reference: a list of RuleConstraint, or a list of free-form objects (kept as sent).
 * A free-form object matches every RuleConstraint too, so this accepts any list of objects.
 */
const ConstraintsInput = () =>
  Type.Union(
    [
      Type.Array(RuleConstraint, { maxItems: MAX_CONSTRAINTS }),
      Type.Array(Type.Object({}, { additionalProperties: true, maxProperties: CONSTRAINT_MAX_KEYS }), { maxItems: MAX_CONSTRAINTS }),
    ],
    { description: `At most ${MAX_CONSTRAINTS}; RuleConstraint items or free-form objects` },
  );

/** Longest quoted passage a rule's provenance keeps (about eight pages of text); extraction drops longer quotes. */
export const RULE_SOURCE_TEXT_MAX = 20_000;

export const SourceLocation = Type.Object(
  {
    section: OptNullable(Str(500)),
    paragraph: OptNullable(Type.Integer({ minimum: 0 })),
    char_start: OptNullable(Type.Integer({ minimum: 0 })),
    char_end: OptNullable(Type.Integer({ minimum: 0 })),
    source_text: OptNullable(Str(RULE_SOURCE_TEXT_MAX)),
  },
  { title: 'SourceLocation' },
);

export const RuleProvenance = Type.Object(
  {
    extracted_by: Type.Optional(enumOf(['llm', 'manual'] as const, 'ExtractedBy')),
    model_used: OptNullable(Str(255)),
    confidence_score: OptNullable(Type.Number({ minimum: 0, maximum: 1 })),
    source_location: OptNullable(SourceLocation),
  },
  { title: 'RuleProvenance' },
);
export type RuleProvenanceValue = Static<typeof RuleProvenance>;

export const PolicyRule = Type.Object(
  {
    id: Uuid(),
    policy_id: Uuid(),
    rule_id: Type.String(),
    rule_type: RuleTypeSchema,
    action: Type.String(),
    target: Nullable(Type.String()),
    assignee: Nullable(Type.String()),
    constraints: Type.Array(Type.Union([RuleConstraint, Type.Object({}, { additionalProperties: true })])),
    constraint_logic: Type.String(),
    consequence: RuleConsequence,
    natural_language: Type.String(),
    provenance: Nullable(RuleProvenance),
    category: Nullable(PolicyCategorySchema),
    tags: Nullable(Type.Array(Type.String())),
    status: RuleStatusSchema,
    reviewed_by: Nullable(Uuid()),
    reviewed_at: Nullable(EpochSeconds()),
    review_notes: Nullable(Type.String()),
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
  },
  { title: 'PolicyRule' },
);
export type PolicyRuleOut = Static<typeof PolicyRule>;

/** What a rule says: the fields whose change turns an approved or rejected rule into `modified`. */
const ruleContent = {
  rule_id: OptNullable(Str(100, { minLength: 1 })),
  rule_type: OptNullable(RuleTypeSchema),
  action: OptNullable(Str(100, { minLength: 1 })),
  target: OptNullable(Str(500)),
  assignee: OptNullable(Str(255, { description: `Who must comply; suggested: ${ASSIGNEES.join(', ')}` })),
  constraints: OptNullable(ConstraintsInput()),
  constraint_logic: OptNullable(ConstraintLogic()),
  consequence: OptNullable(RuleConsequenceInput),
  natural_language: OptNullable(Str(10_000, { minLength: 1 })),
  category: OptNullable(PolicyCategorySchema),
  tags: OptNullable(Tags()),
  provenance: OptNullable(RuleProvenance),
};
export const RULE_CONTENT_FIELDS = Object.keys(ruleContent) as Array<keyof typeof ruleContent>;

export const PolicyRuleCreate = Type.Object(
  {
    ...ruleContent,
    id: OptNullable(Uuid()),
    rule_type: RuleTypeSchema,
    action: Str(100, { minLength: 1 }),
    consequence: RuleConsequenceInput,
    natural_language: Str(10_000, { minLength: 1 }),
    // Not nullable in the reference's PolicyRuleCreate: null is a 422 there, and here.
    constraints: Opt(ConstraintsInput()),
    constraint_logic: Opt(ConstraintLogic()),
    category: Opt(PolicyCategorySchema),
    conditions: OptNullable(
      Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50, description: 'Accepted and ignored (use constraints)' }),
    ),
    status: Type.Optional(RuleStatusSchema),
  },
  { title: 'PolicyRuleCreate' },
);
export type PolicyRuleCreateBody = Static<typeof PolicyRuleCreate>;

export const PolicyRuleUpdate = Type.Object(
  {
    ...ruleContent,
    conditions: OptNullable(
      Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50, description: 'Accepted and ignored (use constraints)' }),
    ),
    status: OptNullable(RuleStatusSchema),
  },
  {
    title: 'PolicyRuleUpdate',
    description: 'An absent field is left as it is; null clears a nullable field (target, assignee, category, tags, provenance).',
  },
);
export type PolicyRuleUpdateBody = Static<typeof PolicyRuleUpdate>;

export const RuleParams = Type.Object({ rule_id: Uuid() });

export const PolicyRulesQuery = Type.Object({ limit: Limit(1000, 100), offset: Offset() });
export const PolicyRuleListResponse = Type.Object({ results: Type.Array(PolicyRule), total: Type.Integer() }, { title: 'PolicyRuleListResponse' });

/** GET /v1/rules/ (seed 4.3, CONTRACT.md). */
export const RuleListQuery = Type.Object({
  team_id: TeamIdQuery(),
  policy_id: Opt(Uuid()),
  status: Opt(RuleStatusSchema),
  category: Opt(PolicyCategorySchema),
  limit: Limit(1000, 100),
  offset: Offset(),
});
export type RuleListInput = Static<typeof RuleListQuery>;
export const RuleListResponse = Type.Object({ results: Type.Array(PolicyRule), count: Type.Integer() }, { title: 'RuleListResponse' });

export const ApproveQuery = Type.Object({ notes: Opt(Str(10_000)) });
export const RejectQuery = Type.Object({ reason: Str(10_000, { minLength: 1 }) });
