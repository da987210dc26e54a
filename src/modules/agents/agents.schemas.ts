import { Type, type Static, type TSchema } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';

const enumOf = <const T extends readonly string[]>(values: T, title: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title });

export const TRUST_STAGES = ['registered', 'tested', 'hardened', 'trusted', 'optimized', 'adapted'] as const;
export const AGENT_STATUSES = ['draft', 'creating', 'active', 'under_review', 'deprecated', 'archived', 'pending', 'rejected'] as const;
export const ACCESS_LEVELS = ['black_box', 'grey_box', 'white_box'] as const;
export const PROTOCOLS = ['chat_completions', 'a2a'] as const;
export const PROTECTION_STATUSES = ['unprotected', 'configured', 'domed'] as const;
export const MCP_ACCESS_LEVELS = ['read', 'write', 'admin'] as const;

export type TrustStage = (typeof TRUST_STAGES)[number];
export type AgentStatus = (typeof AGENT_STATUSES)[number];

export const TrustLifecycleStage = enumOf(TRUST_STAGES, 'TrustLifecycleStage');
export const AgentStatusSchema = enumOf(AGENT_STATUSES, 'AgentStatus');
export const AccessLevel = enumOf(ACCESS_LEVELS, 'AccessLevel');
export const ProtocolType = enumOf(PROTOCOLS, 'ProtocolType');
export const ProtectionStatus = enumOf(PROTECTION_STATUSES, 'ProtectionStatus');
export const MCPAccessLevel = enumOf(MCP_ACCESS_LEVELS, 'MCPAccessLevel');

/** Bounds of our own (the reference sets none): every string has one. */
const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Url = () => Type.String({ format: 'uri', minLength: 1, maxLength: 2083 });
const Tags = () => Type.Array(Str(255), { maxItems: 100 });

export const TEST_SCORE_PATTERN = '^(?!^[-+.]*$)[+-]?0*\\d*\\.?\\d*$';

export const AgentParams = Type.Object(
  {
    temperature: OptNullable(Type.Number()),
    top_p: OptNullable(Type.Number()),
    max_tokens: OptNullable(Type.Integer()),
    timeout: OptNullable(Type.Integer()),
    rag_params: OptNullable(FreeObject()),
    function_route_params: OptNullable(FreeObject()),
  },
  { title: 'AgentParams' },
);

export const MCPConfig = Type.Object(
  {
    proxy_url: OptNullable(Url()),
    access_level: OptNullable(MCPAccessLevel),
    server_urls: OptNullable(Type.Array(Url(), { maxItems: 100 })),
  },
  { title: 'MCPConfig' },
);

export const DelegatedAgent = Type.Object(
  {
    url: Str(2083),
    agent_card_url: OptNullable(Str(2083)),
    name: OptNullable(Str(255)),
    capabilities: OptNullable(Tags()),
  },
  { title: 'DelegatedAgent' },
);

export const WhiteBoxConfig = Type.Object(
  {
    source_code: OptNullable(Str(1_000_000)),
    repo_url: OptNullable(Str(2083)),
    github_username: OptNullable(Str(255)),
    repo_branch: OptNullable(Str(255)),
    entry_point: OptNullable(Str(1024)),
  },
  { title: 'WhiteBoxConfig' },
);

export const AgentMetadata = Type.Object(
  {
    role: OptNullable(Str(255)),
    job_description: OptNullable(Str(10_000)),
    version: OptNullable(Str(255)),
    author: OptNullable(Str(255)),
    tags: OptNullable(Tags()),
  },
  { title: 'AgentMetadata' },
);

export const ImportMetadata = Type.Object(
  {
    source: OptNullable(enumOf(['manual'] as const, 'ImportSource')),
    source_url: OptNullable(Str(2083)),
    imported_at: OptNullable(Type.Integer()),
    original_format: OptNullable(Str(255)),
  },
  { title: 'ImportMetadata' },
);

export const AgentCapabilities = Type.Object(
  {
    streaming: Type.Optional(Type.Boolean({ default: false })),
    push_notifications: Type.Optional(Type.Boolean({ default: false })),
    code_execution: Type.Optional(Type.Boolean({ default: false })),
    memory: Type.Optional(Type.Boolean({ default: false })),
    delegation: Type.Optional(Type.Boolean({ default: false })),
    tools: Type.Optional(Tags()),
  },
  { title: 'AgentCapabilities' },
);

export const AgentSkill = Type.Object(
  {
    id: Str(255, { minLength: 1 }),
    name: Str(255, { minLength: 1 }),
    description: OptNullable(Str(10_000)),
    input_modes: Type.Optional(Tags()),
    output_modes: Type.Optional(Tags()),
  },
  { title: 'AgentSkill' },
);

export const AgentLatestEvaluation = Type.Object(
  {
    evaluation_id: Uuid(),
    overall_score: Nullable(Type.Number()),
    reliability_score: Nullable(Type.Number()),
    security_score: Nullable(Type.Number()),
    safety_score: Nullable(Type.Number()),
    completed_at: Nullable(Type.Integer()),
  },
  { title: 'AgentLatestEvaluation' },
);

const PillarMeasurement = Type.Object(
  {
    score: Type.Number(),
    n: Type.Integer(),
    low: Type.Number(),
    high: Type.Number(),
    harnesses: Type.Array(Type.String()),
    evaluation_id: Type.String(),
    measured_at: Type.Integer(),
  },
  { title: 'AgentPillarMeasurement' },
);

/**
 * The evidence behind `test_score` (an addition, with `include_scores`): each pillar's latest
 * measurement, whichever run made it; `measured_at` is the oldest of them (the score's age).
 */
export const AgentEvidence = Type.Object(
  {
    test_score: Nullable(Type.Number()),
    measured_at: Nullable(Type.Integer()),
    pillars: Type.Object({
      reliability: Nullable(PillarMeasurement),
      security: Nullable(PillarMeasurement),
      safety: Nullable(PillarMeasurement),
    }),
    missing_pillars: Type.Array(Type.String()),
  },
  { title: 'AgentEvidence' },
);

/** The Agent as every agent operation answers it (seed 2.1). */
export const Agent = Type.Object(
  {
    id: Uuid(),
    agent_name: Type.String(),
    model_name: Type.String(),
    agent_url: Nullable(Type.String()),
    hub: Type.String(),
    api_key: Nullable(Type.String({ description: 'Masked: the last 4 characters behind a fixed mask' })),
    agent_system_prompt: Nullable(Type.String()),
    rate_limit_requests_per_minute: Type.Integer({ minimum: 1 }),
    team_id: Uuid(),
    created_by: Uuid(),
    status: AgentStatusSchema,
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    access_level: AccessLevel,
    agent_params: Nullable(FreeObject()),
    mcp_config: Nullable(FreeObject()),
    delegated_agents: Type.Array(FreeObject()),
    white_box_config: Nullable(FreeObject()),
    agent_metadata: Nullable(FreeObject()),
    purpose: Nullable(Type.String()),
    protocol: ProtocolType,
    test_score: Nullable(Type.String({ pattern: TEST_SCORE_PATTERN })),
    last_tested_by: Nullable(Type.String()),
    evaluated_harnesses: Nullable(Type.Array(Type.String())),
    last_evaluated_at: Nullable(Type.Integer()),
    protection_status: ProtectionStatus,
    trust_stage: TrustLifecycleStage,
    trusted_at: Nullable(Type.Integer()),
    ttt_days: Nullable(Type.Number()),
    dome_config_id: Nullable(Uuid()),
    dome_manually_configured: Type.Boolean(),
    import_metadata: Nullable(FreeObject()),
    capabilities: Nullable(FreeObject()),
    skills: Type.Array(FreeObject()),
    latest_evaluation: Type.Optional(Nullable(AgentLatestEvaluation)),
    evidence: Type.Optional(AgentEvidence),
  },
  { title: 'Agent' },
);
export type AgentOut = Static<typeof Agent>;

/** The writable fields shared by create and update (seed 2.5). */
const writableFields = {
  status: OptNullable(AgentStatusSchema),
  agent_name: OptNullable(Str(255)),
  agent_url: OptNullable(Str(2083)),
  model_name: OptNullable(Str(255)),
  api_key: OptNullable(Str(4096, { description: 'Stored encrypted; answered masked. "" or null removes the key' })),
  agent_system_prompt: OptNullable(Str(200_000)),
  hub: OptNullable(Str(255)),
  // No bound of our own (the seed sets none) beyond the ±(2^53 − 1) of every integer: a bigint column.
  rate_limit_requests_per_minute: OptNullable(Type.Integer({ minimum: 1 })),
  access_level: OptNullable(AccessLevel),
  agent_params: OptNullable(AgentParams),
  mcp_config: OptNullable(MCPConfig),
  delegated_agents: OptNullable(Type.Array(DelegatedAgent, { maxItems: 100 })),
  white_box_config: OptNullable(WhiteBoxConfig),
  agent_metadata: OptNullable(AgentMetadata),
  purpose: OptNullable(Str(10_000)),
  protocol: OptNullable(ProtocolType),
  test_score: OptNullable(Type.Union([Type.Number(), Type.String({ pattern: TEST_SCORE_PATTERN, maxLength: 64 })])),
  last_tested_by: OptNullable(Str(255)),
  evaluated_harnesses: OptNullable(Type.Array(Str(255), { maxItems: 1000 })),
  last_evaluated_at: OptNullable(Type.Integer()),
  protection_status: OptNullable(ProtectionStatus),
  dome_config_id: OptNullable(Uuid()),
  dome_manually_configured: OptNullable(Type.Boolean()),
};

export const AgentUpdate = Type.Object(writableFields, {
  title: 'AgentUpdate',
  description: 'Every field is optional: an absent field is left as it is; null clears a nullable field.',
});
export type AgentUpdateBody = Static<typeof AgentUpdate>;

/**
 * The reference's AgentConfigRequest, plus (an addition) every writable field of
 * AgentUpdate, so that an agent can be registered complete in one call.
 */
export const AgentCreate = Type.Object(
  {
    ...writableFields,
    agent_name: Str(255, { minLength: 1 }),
    model_name: Str(255, { minLength: 1 }),
    rag_params: OptNullable(FreeObject()),
    function_route_params: OptNullable(FreeObject()),
  },
  { title: 'AgentConfigRequest' },
);
export type AgentCreateBody = Static<typeof AgentCreate>;

export const AgentLifecycleUpdate = Type.Object({ trust_stage: TrustLifecycleStage }, { title: 'AgentLifecycleUpdate' });

const Limit = (max: number) => Type.Integer({ minimum: 1, maximum: max, default: 100, description: 'Maximum number of results' });
const Offset = () => Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip' });
const IncludeScores = Type.Boolean({ default: false, description: 'Attach the latest completed evaluation scores' });
const TeamIdQuery = Type.Optional(Uuid({ description: 'Act on this team (default: your primary team)' }));

export const AgentListQuery = Type.Object({
  statuses: Type.Optional(
    Type.Array(AgentStatusSchema, { maxItems: AGENT_STATUSES.length, description: 'Filter by status(es); default: every status but archived' }),
  ),
  search: Type.Optional(Str(255, { description: 'Case-insensitive substring of the agent name or of its id (a Warden addition)' })),
  trust_stage: Type.Optional(
    Type.Unsafe<TrustStage>({ type: 'string', enum: [...TRUST_STAGES], description: 'Only agents at this trust lifecycle stage (a Warden addition)' }),
  ),
  limit: Limit(1000),
  offset: Offset(),
  include_scores: IncludeScores,
  team_id: TeamIdQuery,
});

export const AgentGetQuery = Type.Object({ include_scores: IncludeScores });
export const AgentCreateQuery = Type.Object({ team_id: TeamIdQuery });

export const AgentConfigListResponse = Type.Object(
  { results: Type.Array(Agent), count: Type.Integer() },
  { title: 'AgentConfigListResponse' },
);

export const LifecycleEvent = Type.Object(
  {
    id: Uuid(),
    agent_id: Uuid(),
    from_stage: Nullable(TrustLifecycleStage),
    to_stage: TrustLifecycleStage,
    changed_by: Uuid(),
    changed_at: EpochSeconds(),
  },
  { title: 'AgentLifecycleEvent' },
);

export const LifecycleHistoryQuery = Type.Object({ limit: Limit(1000), offset: Offset() });
export const LifecycleHistory = Type.Object(
  { results: Type.Array(LifecycleEvent), count: Type.Integer() },
  { title: 'AgentLifecycleHistory' },
);
