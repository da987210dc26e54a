import { Type, type Static, type TSchema } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';

const enumOf = <const T extends readonly string[]>(values: T, title: string, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title, ...(description ? { description } : {}) });

export const POLICY_CATEGORIES = ['privacy', 'ethics', 'security', 'compliance', 'operational', 'brand', 'custom'] as const;
export const POLICY_STATUSES = ['draft', 'active', 'archived'] as const;
export const RULE_TYPES = ['permission', 'prohibition', 'obligation', 'recommendation'] as const;
export const RULE_STATUSES = ['draft', 'approved', 'rejected', 'modified'] as const;
export const SEVERITIES = ['info', 'low', 'medium', 'high', 'critical'] as const;
/** Decisions of ours where the seed says "not shown" (docs/policies.md). */
export const CONSEQUENCE_ACTIONS = ['block', 'redact', 'warn', 'log', 'escalate'] as const;
export const ASSIGNEES = ['agent', 'user', 'operator', 'system'] as const;
export const CONSTRAINT_LOGICS = ['all', 'any', 'none'] as const;
export const CONSTRAINT_OPERATORS = ['eq', 'neq', 'gt', 'gte', 'lt', 'lte', 'in', 'not_in', 'contains', 'not_contains', 'matches'] as const;

export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];
export type PolicyStatus = (typeof POLICY_STATUSES)[number];
export type RuleStatus = (typeof RULE_STATUSES)[number];

export const PolicyCategorySchema = enumOf(POLICY_CATEGORIES, 'PolicyCategory');
export const PolicyStatusSchema = enumOf(POLICY_STATUSES, 'PolicyStatus');
export const RuleTypeSchema = enumOf(RULE_TYPES, 'RuleType');
export const RuleStatusSchema = enumOf(RULE_STATUSES, 'RuleStatus');
export const SeveritySchema = enumOf(SEVERITIES, 'Severity');
export const ConstraintOperatorSchema = enumOf(CONSTRAINT_OPERATORS, 'ConstraintOperator');

const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Tags = () => Type.Array(Str(100), { maxItems: 50 });

// ---------------------------------------------------------------- policies

export const Policy = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    category: PolicyCategorySchema,
    status: PolicyStatusSchema,
    source_text: Nullable(Type.String()),
    file_path: Nullable(Type.String()),
    file_name: Nullable(Type.String()),
    file_type: Nullable(Type.String()),
    file_size_bytes: Nullable(Type.Integer()),
    converted_file_path: Nullable(Type.String()),
    is_preset: Type.Boolean(),
    preset_source: Nullable(Type.String()),
    tags: Nullable(Type.Array(Type.String())),
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    created_by: Uuid(),
  },
  { title: 'Policy' },
);
export type PolicyOut = Static<typeof Policy>;

/**
 * Bounds of our own: the reference sets none beyond `name`. The source text may be as long
 * as the largest document (10 MB of text); a JSON body is further bounded by the body limit.
 */
export const SOURCE_TEXT_MAX = 10 * 1024 * 1024;

export const PolicyCreate = Type.Object(
  {
    id: OptNullable(Uuid()),
    name: Str(255, { minLength: 1 }),
    description: OptNullable(Str(10_000)),
    category: PolicyCategorySchema,
    source_text: OptNullable(Str(SOURCE_TEXT_MAX)),
    tags: OptNullable(Tags()),
  },
  { title: 'PolicyCreate' },
);
export type PolicyCreateBody = Static<typeof PolicyCreate>;

export const PolicyUpdate = Type.Object(
  {
    name: OptNullable(Str(255, { minLength: 1 })),
    description: OptNullable(Str(10_000)),
    category: OptNullable(PolicyCategorySchema),
    status: OptNullable(PolicyStatusSchema),
    source_text: OptNullable(Str(SOURCE_TEXT_MAX)),
    tags: OptNullable(Tags()),
  },
  { title: 'PolicyUpdate', description: 'An absent field is left as it is; null clears a nullable field.' },
);
export type PolicyUpdateBody = Static<typeof PolicyUpdate>;

const Limit = (max: number, dflt: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `Maximum number of results (default ${dflt})` });
const Offset = () => Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' });

/** An addition to the reference (as on the agent operations): members of several teams choose one. */
const TeamIdQuery = () => Opt(Uuid({ description: 'Act on this team (one of yours; default: your primary team). An addition to the reference' }));
export const TeamQuery = Type.Object({ team_id: TeamIdQuery() });

export const PolicyListQuery = Type.Object({
  team_id: TeamIdQuery(),
  category: Opt(PolicyCategorySchema),
  status: Opt(PolicyStatusSchema),
  search: Opt(Str(255, { description: 'Case-insensitive substring of the name or description' })),
  limit: Limit(100, 10),
  offset: Offset(),
});
export type PolicyListInput = Static<typeof PolicyListQuery>;

export const PresetListQuery = Type.Object({ category: Opt(PolicyCategorySchema), limit: Limit(1000, 100), offset: Offset() });
export const PresetParams = Type.Object({ preset_id: Uuid() });
export const PresetCopyQuery = Type.Object({ name_override: Opt(Str(255, { minLength: 1 })), team_id: TeamIdQuery() });

export const PolicyListResponse = Type.Object({ results: Type.Array(Policy), total: Type.Integer() }, { title: 'PolicyListResponse' });

export const PolicyParams = Type.Object({ policy_id: Uuid() });

// ---------------------------------------------------------------- rules

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
    conditions: OptNullable(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50, description: 'Accepted and ignored (use constraints)' })),
    status: Type.Optional(RuleStatusSchema),
  },
  { title: 'PolicyRuleCreate' },
);
export type PolicyRuleCreateBody = Static<typeof PolicyRuleCreate>;

export const PolicyRuleUpdate = Type.Object(
  {
    ...ruleContent,
    conditions: OptNullable(Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 50, description: 'Accepted and ignored (use constraints)' })),
    status: OptNullable(RuleStatusSchema),
  },
  { title: 'PolicyRuleUpdate', description: 'An absent field is left as it is; null clears a nullable field (target, assignee, category, tags, provenance).' },
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

export const ExtractionResponse = Type.Object(
  {
    results: Type.Array(PolicyRule),
    total: Type.Integer({ description: 'Rules created' }),
    skipped: Type.Integer({ description: "Rules the model proposed that were dropped (invalid, or their source text is not in the document)" }),
  },
  { title: 'RuleExtractionResponse' },
);

/** The upload's body, as the reference describes it (the route reads the stream itself). */
export const DocumentUploadBody = Type.Object(
  { file: Type.String({ format: 'binary', description: 'The document: PDF, TXT or MD, at most 10 MB' }) },
  { title: 'Body_upload_file_v1_policies__policy_id__upload_post' },
);
