import { Type, type Static } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';

/** The reference's custom harnesses (tag "Diamond", custom-harnesses): docs/evaluations.md, "Custom harnesses". */

const enumOf = <const T extends readonly string[]>(values: T, title: string) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title });

export const CUSTOM_HARNESS_STATUSES = ['draft', 'active', 'archived', 'failed'] as const;
export type CustomHarnessStatus = (typeof CUSTOM_HARNESS_STATUSES)[number];
export const WORKFLOW_STATUSES = ['created', 'starting', 'running', 'succeeded', 'failed', 'cancelled'] as const;

export const CustomHarnessStatusSchema = enumOf(CUSTOM_HARNESS_STATUSES, 'CustomHarnessStatus');
const WorkflowStatusSchema = enumOf(WORKFLOW_STATUSES, 'WorkflowStatus');

const TeamId = () => Type.Optional(Nullable(Uuid({ description: "Team ID (the caller's primary team when omitted)" })));
export const TeamScopeQuery = Type.Object({ team_id: TeamId() });
export const HarnessIdParams = Type.Object({ harness_id: Uuid() });

/** Personas and policies a harness is built from: bounded so that a generation stays a bounded job. */
export const MAX_SOURCES = 50;

export const CustomHarnessCreate = Type.Object(
  {
    id: Type.Optional(Nullable(Uuid())),
    name: Type.String({ minLength: 1, maxLength: 255 }),
    description: Type.Optional(Nullable(Type.String({ maxLength: 10_000 }))),
    agent_id: Uuid(),
    persona_ids: Type.Optional(Type.Array(Uuid(), { maxItems: MAX_SOURCES })),
    policy_ids: Type.Optional(Type.Array(Uuid(), { maxItems: MAX_SOURCES })),
    system_prompt: Type.Optional(
      Nullable(Type.String({ maxLength: 100_000, description: "What the agent does, for the generator; the agent's purpose and system prompt when omitted" })),
    ),
  },
  { title: 'CustomHarnessCreate' },
);
export type CustomHarnessCreateBody = Static<typeof CustomHarnessCreate>;

export const CustomHarness = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    agent_id: Uuid(),
    persona_ids: Type.Array(Uuid()),
    policy_ids: Type.Array(Uuid()),
    status: CustomHarnessStatusSchema,
    workflow_id: Nullable(Uuid({ description: 'The generation job' })),
    s3_key: Nullable(Type.String()),
    generated_at: Nullable(EpochSeconds()),
    prompt_count: Nullable(Type.Integer()),
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    created_by: Uuid(),
    creation_error: Nullable(Type.String()),
    pillar: Type.String({ description: 'Warden addition: the pillar its scores count toward' }),
    generator: Nullable(Type.String({ description: "Warden addition: what wrote its prompts ('templates' or 'llm')" })),
  },
  { title: 'CustomHarness' },
);
export type CustomHarnessOut = Static<typeof CustomHarness>;

export const WorkflowStatusInfo = Type.Object(
  {
    status: WorkflowStatusSchema,
    phase: Nullable(Type.String()),
    error_message: Nullable(Type.String()),
    task_id: Nullable(Type.String()),
    session_id: Nullable(Type.String()),
  },
  { title: 'WorkflowStatusInfo' },
);
export const CustomHarnessResponse = Type.Object({ harness: CustomHarness, workflow: Nullable(WorkflowStatusInfo) }, { title: 'CustomHarnessResponse' });

export const CustomHarnessListQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Maximum number of results (default 10)' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' }),
  status: Type.Optional(Nullable(CustomHarnessStatusSchema)),
  agent_id: Type.Optional(Nullable(Uuid({ description: 'Filter by agent ID' }))),
});
export type CustomHarnessListQueryIn = Static<typeof CustomHarnessListQuery>;

export const CustomHarnessListItem = Type.Object(
  {
    id: Uuid(),
    name: Type.String(),
    description: Nullable(Type.String()),
    status: CustomHarnessStatusSchema,
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    agent_id: Uuid(),
    agent_name: Nullable(Type.String()),
    policy_ids: Type.Array(Uuid()),
    persona_ids: Type.Array(Uuid()),
    prompt_count: Nullable(Type.Integer()),
  },
  { title: 'CustomHarnessListItem' },
);
export const CustomHarnessListResponse = Type.Object(
  { results: Type.Array(CustomHarnessListItem), total: Type.Integer() },
  { title: 'CustomHarnessListResponse' },
);

export const CustomHarnessLineage = Type.Object(
  {
    principle: Type.String(),
    theme: Type.String(),
    policy_section: Type.String(),
    persona: Type.String(),
    diagnostic_hooks: Type.Array(Type.String()),
    rule_id: Nullable(Type.String()),
    policy_id: Nullable(Type.String()),
    persona_id: Nullable(Type.String()),
  },
  { title: 'CustomHarnessLineage' },
);
export type CustomHarnessLineageOut = Static<typeof CustomHarnessLineage>;
export const CustomHarnessPrompt = Type.Object(
  { dimension_name: Type.String(), prompt_text: Type.String(), pass_criteria: Type.String(), lineage: CustomHarnessLineage },
  { title: 'CustomHarnessPrompt' },
);
export const HarnessPromptsResponse = Type.Object({ prompts: Type.Array(CustomHarnessPrompt), count: Type.Integer() }, { title: 'HarnessPromptsResponse' });

export const CancelResponse = Type.Record(Type.String(), Type.String(), { title: 'Response Cancel Custom Harness' });
