import { Type, type Static } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';
import { ATTACK_CATEGORIES } from '../../redteam/types.js';

/**
 * The reference's Red Team operations (tag "Red Team"): tools, campaigns, their status,
 * results, downloads, logs, cancel and delete (docs/redteam.md).
 */

const TeamId = () => Type.Optional(Uuid({ description: "Team that owns this campaign (the caller's primary team when omitted)" }));
const OptNullable = <T extends Parameters<typeof Nullable>[0]>(schema: T) => Type.Optional(Nullable(schema));

/**
 * The reference's RedteamTool, the names a result may carry: Warden's engine answers
 * `diamond_security`. A request's `tool` is a plain string checked by the service (decisions.md,
 * "Red team"), so that its 422 can say which tools this installation runs.
 */
export const REDTEAM_TOOLS = ['diamond_security', 'promptfoo', 'garak', 'pyrit', 'unknown'] as const;
export const RedteamTool = Type.Unsafe<(typeof REDTEAM_TOOLS)[number]>({ type: 'string', enum: [...REDTEAM_TOOLS], title: 'RedteamTool' });

export const AttackCategory = Type.Unsafe<(typeof ATTACK_CATEGORIES)[number]>({ type: 'string', enum: [...ATTACK_CATEGORIES], title: 'AttackCategory' });

export const TeamScopeQuery = Type.Object({ team_id: TeamId() });
export const CampaignIdParams = Type.Object({ campaign_id: Uuid() });
export const CampaignListQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size (newest first)' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Pagination offset' }),
});
export const CampaignResultsQuery = Type.Object({
  team_id: TeamId(),
  offset: Type.Integer({
    minimum: 0,
    default: 0,
    description: 'Warden addition: findings to skip. A page holds the findings that fit 4 MiB; raw_output.next_offset is where the next page starts',
  }),
});
export const DownloadQuery = Type.Object({
  team_id: TeamId(),
  format: Type.Unsafe<'json' | 'jsonl' | 'csv'>({
    type: 'string',
    enum: ['json', 'jsonl', 'csv'],
    default: 'json',
    description: 'json (the results), jsonl or csv (one finding a line)',
  }),
});
/** An addition: the campaign's report (docs/redteam.md, "Reports"). */
export const ReportQuery = Type.Object({
  team_id: TeamId(),
  format: Type.Unsafe<'html' | 'pdf'>({
    type: 'string',
    enum: ['html', 'pdf'],
    default: 'html',
    description: 'html (a self-contained page) or pdf',
  }),
});
export const LogsQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 5000, default: 200, description: 'The last lines of the log' }),
});

export const CreateCampaignRequest = Type.Object(
  {
    team_id: TeamId(),
    tool: Type.String({ maxLength: 64, description: 'Red team tool to use: diamond_security (Warden\u2019s own engine)' }),
    agent_url: OptNullable(Type.String({ format: 'uri', minLength: 1, maxLength: 2083, description: 'Target agent endpoint URL' })),
    agent_id: OptNullable(Uuid({ description: 'Agent ID from Agent Registry (resolves URL)' })),
    agent_api_key: OptNullable(Type.String({ maxLength: 4096, description: 'API key for the target agent (stored encrypted, never answered)' })),
    agent_model_name: OptNullable(Type.String({ maxLength: 255, description: 'Model name if agent is an LLM gateway' })),
    purpose: Type.String({ minLength: 1, maxLength: 10_000, description: 'Agent purpose description (for context-aware attacks)' }),
    categories: Type.Array(AttackCategory, { minItems: 1, maxItems: 16, description: 'Attack categories to test' }),
    custom_plugins: OptNullable(
      Type.Array(Type.String({ maxLength: 100 }), { maxItems: 50, description: 'Probe names of the catalogue (for the custom category)' }),
    ),
    strategies: OptNullable(Type.Array(Type.String({ maxLength: 64 }), { maxItems: 20, description: 'Delivery strategies (default ["basic"])' })),
    num_tests: Type.Integer({ minimum: 1, maximum: 100, default: 25, description: 'Number of test cases per category' }),
    provider_config: OptNullable(FreeObject()),
  },
  { title: 'CreateCampaignRequest' },
);
export type CreateCampaignBody = Static<typeof CreateCampaignRequest>;

export const CreateCampaignResponse = Type.Object({ campaign_id: Uuid(), status: Type.String() }, { title: 'CreateCampaignResponse' });

const Progress = Type.Object({ done: Type.Integer(), total: Type.Integer() });

export const CampaignStatusResponse = Type.Object(
  {
    campaign_id: Uuid(),
    status: Type.String({ description: 'pending, running, completed, failed or cancelled' }),
    tool: Type.String(),
    created_at: EpochSeconds(),
    started_at: Nullable(EpochSeconds()),
    completed_at: Nullable(EpochSeconds()),
    error_message: Nullable(Type.String()),
    team_id: Uuid(),
    status_message: Nullable(Type.String()),
    progress: Progress,
  },
  { title: 'CampaignStatusResponse' },
);

export const RedteamSummarySchema = Type.Object(
  {
    total_tests: Type.Integer({ minimum: 0 }),
    passed: Type.Integer({ minimum: 0 }),
    failed: Type.Integer({ minimum: 0 }),
    errors: Type.Integer({ minimum: 0 }),
    categories_tested: Type.Array(Type.String()),
    vulnerabilities_found: Type.Boolean(),
  },
  { title: 'RedteamSummary' },
);

const CampaignItem = Type.Object(
  {
    campaign_id: Uuid(),
    team_id: Uuid(),
    tool: Type.String(),
    status: Type.String(),
    agent_id: Nullable(Uuid()),
    agent_url: Nullable(Type.String()),
    agent_model_name: Nullable(Type.String()),
    purpose: Type.String(),
    categories: Type.Array(Type.String()),
    custom_plugins: Nullable(Type.Array(Type.String())),
    strategies: Type.Array(Type.String()),
    num_tests: Type.Integer(),
    access_level: Type.String(),
    dome_config_id: Nullable(Uuid()),
    created_at: EpochSeconds(),
    started_at: Nullable(EpochSeconds()),
    completed_at: Nullable(EpochSeconds()),
    error_message: Nullable(Type.String()),
    summary: Nullable(RedteamSummarySchema),
  },
  { additionalProperties: true },
);
export const CampaignListResponse = Type.Object({ campaigns: Type.Array(CampaignItem) }, { title: 'Response List Campaigns V1 Campaigns Get' });

export const Finding = Type.Object(
  {
    category: Type.String(),
    severity: Type.String(),
    attack_prompt: Type.String(),
    agent_response: Type.String(),
    passed: Type.Boolean(),
    metadata: Nullable(FreeObject()),
    attack_type: Nullable(Type.String()),
    phenotype_category: Nullable(Type.String()),
    attack_score: Nullable(Type.Number()),
    detector_id: Nullable(Type.String()),
    raw_metadata: FreeObject(),
  },
  { title: 'Finding' },
);
export type FindingOut = Static<typeof Finding>;

export const RedteamResult = Type.Object(
  {
    job_id: Uuid(),
    tool: RedteamTool,
    findings: Type.Array(Finding),
    summary: RedteamSummarySchema,
    raw_output: FreeObject(),
  },
  { title: 'RedteamResult' },
);
export type RedteamResultOut = Static<typeof RedteamResult>;

export const ToolInfo = Type.Object({ tool: Type.String(), categories: Type.Array(Type.String()) }, { title: 'ToolInfo' });
export const ToolList = Type.Array(ToolInfo);

/** The reference answers these as objects of strings. */
export const StringMap = (title: string) => Type.Record(Type.String(), Type.String(), { title });
