import { Type, type Static } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';

/**
 * The reference's Diamond operations (tag "Diamond"): evaluations, their results, summaries and
 * reports, and the standard harness list (docs/evaluations.md, "The API"). Custom harnesses are
 * in custom-harnesses.schemas.ts.
 */

const enumOf = <const T extends readonly string[]>(values: T, title: string) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title });

export const EVALUATION_STATUSES = ['running', 'completed', 'failed', 'cancelled'] as const;
export type EvaluationStatus = (typeof EVALUATION_STATUSES)[number];
export const EVALUATION_TOOLS = ['diamond', 'promptfoo', 'garak', 'pyrit'] as const;
export const HARNESS_TYPES = ['standard', 'custom'] as const;
export type HarnessType = (typeof HARNESS_TYPES)[number];

export const EvaluationStatusSchema = enumOf(EVALUATION_STATUSES, 'EvaluationStatus');
export const EvaluationToolSchema = enumOf(EVALUATION_TOOLS, 'EvaluationTool');
export const HarnessTypeSchema = enumOf(HARNESS_TYPES, 'HarnessType');

const TeamId = (description = "Team ID (the caller's primary team when omitted)") => Type.Optional(Uuid({ description }));
export const TeamScopeQuery = Type.Object({ team_id: TeamId() });
export const EvaluationIdParams = Type.Object({ evaluation_id: Uuid() });

/** The largest seed: a non-negative 31-bit integer (it fits every integer column). */
export const MAX_SEED = 2 ** 31 - 1;

export const CreateEvaluationRequest = Type.Object(
  {
    agent_id: Uuid({ description: 'UUID of the agent to evaluate' }),
    team_id: TeamId('UUID of the team that owns this evaluation (the caller\'s primary team when omitted)'),
    type: Type.String({ default: 'behavioral', maxLength: 64, description: "Type of evaluation to run. Only 'behavioral' is supported." }),
    harness_names: Type.Array(Type.String({ minLength: 1, maxLength: 255 }), {
      minItems: 1,
      maxItems: 50,
      description:
        "Harnesses to run: standard names (security, safety, reliability, privacy, toxicity, ethics) or, with harness_type 'custom', custom harness ids",
    }),
    // The reference's default, published (an inline enum: HarnessType's component has none).
    harness_type: Type.Unsafe<HarnessType>({ type: 'string', enum: [...HARNESS_TYPES], default: 'standard' }),
    sample_size: Type.Optional(
      Nullable(Type.Integer({ minimum: 1, maximum: 1000, description: 'Prompts drawn per harness (a seeded, stratified sample); all of them when omitted' })),
    ),
    evaluation_id: Type.Optional(Nullable(Uuid({ description: 'The id to give the evaluation (one is made when omitted)' }))),
    seed: Type.Optional(
      Nullable(
        Type.Integer({
          minimum: 0,
          maximum: MAX_SEED,
          description: 'Warden addition: the sampling seed, to repeat an earlier run exactly (made when omitted)',
        }),
      ),
    ),
  },
  { title: 'CreateEvaluationRequest' },
);
export type CreateEvaluationBody = Static<typeof CreateEvaluationRequest>;

export const CreateEvaluationResponse = Type.Object({ evaluation_id: Uuid(), status: Type.String() }, { title: 'CreateEvaluationResponse' });

const Progress = Type.Object({
  done: Type.Integer({ description: 'Prompts answered (or given up) so far' }),
  total: Type.Integer({ description: 'Prompts the run sends (0 until the run has planned them)' }),
  errors: Type.Integer({ description: 'Prompts the agent could not answer (counted apart, out of every score)' }),
});

export const EvaluationStatusResponse = Type.Object(
  {
    evaluation_id: Uuid(),
    status: Type.String({ description: 'running, completed, failed or cancelled; a queued run is running with started_at null' }),
    scores: Nullable(Type.Record(Type.String(), Type.Number(), { description: 'Per-harness scores (0..1) once completed' })),
    created_at: EpochSeconds(),
    started_at: Nullable(EpochSeconds()),
    completed_at: Nullable(EpochSeconds()),
    error_message: Nullable(Type.String()),
    status_message: Nullable(Type.String()),
    team_id: Type.String(),
    agent_id: Type.String(),
    harness_names: Type.Array(Type.String()),
    harness_type: Type.String(),
    sample_size: Nullable(Type.Integer()),
    seed: Nullable(Type.Integer()),
    progress: Progress,
  },
  { title: 'EvaluationStatusResponse' },
);
export type EvaluationStatusOut = Static<typeof EvaluationStatusResponse>;

export const EvaluationListQuery = Type.Object({
  team_id: TeamId('Only this team (default: every team of the caller)'),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Warden addition: page size, newest first' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Warden addition: evaluations to skip' }),
});
/** The reference's `{ "evaluations": [...] }`: every property of it must be a list, so no count. */
export const EvaluationListAll = Type.Object({ evaluations: Type.Array(FreeObject()) }, { title: 'Response List Team Evaluations V1 Evaluations  Get' });

export const StringMap = (title: string) => Type.Record(Type.String(), Type.String(), { title });
export const LogsQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 5000, default: 200, description: 'Warden addition: the last lines to answer' }),
});

export const ReportQuery = Type.Object({ team_id: TeamId('Team that owns this evaluation') });
export const GenerateReportQuery = Type.Object({
  team_id: TeamId('Team that owns this evaluation'),
  force_regenerate: Type.Boolean({ default: false, description: 'Render again even if cached' }),
});
export const GenerateReportResponse = Type.Object({}, { additionalProperties: true, title: 'Response Generate Report On Demand' });
/** A download: bytes with their media type (and a Content-Disposition header), as /openapi.json declares it. */
const fileDownload = (description: string, mediaType: string) =>
  Type.Unsafe<Buffer | string>({ description, content: { [mediaType]: { schema: { type: 'string', format: 'binary' } } } });
export const HtmlBody = fileDownload('The HTML report (self-contained; charts as inline SVG)', 'text/html');
export const PdfBody = fileDownload('The PDF report (vector charts)', 'application/pdf');

// ------------------------------------------------------------------ evaluation-results

export const CompletedListQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Maximum number of results to return' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' }),
});
export const EvaluationListItem = Type.Object(
  {
    evaluation_id: Uuid(),
    team_id: Uuid(),
    created_by: Nullable(Uuid()),
    created_at: Nullable(EpochSeconds()),
    completed_at: Nullable(EpochSeconds()),
    agent_id: Nullable(Uuid()),
    agent_name: Nullable(Type.String()),
  },
  { title: 'EvaluationListItem' },
);
export const EvaluationListResponse = Type.Object({ results: Type.Array(EvaluationListItem), total: Type.Integer() }, { title: 'EvaluationListResponse' });

export const ResultsQuery = Type.Object({
  team_id: TeamId(),
  limit: Type.Integer({ minimum: 1, maximum: 2_000, default: 1000, description: 'Warden addition: prompts per page, in the order they were planned' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Warden addition: prompts to skip' }),
  passed: Type.Optional(Type.Boolean({ description: 'Warden addition: only passed (true) or failed (false) prompts' })),
});
export const ResultsResponse = Type.Object({}, { additionalProperties: true, title: 'Response Get Evaluation Results' });

// ------------------------------------------------------------------ evaluation-summaries

export const SummaryListQuery = Type.Object({
  team_id: TeamId('Team ID to list summaries for'),
  agent_id: Type.Optional(Nullable(Uuid({ description: 'Filter by agent ID' }))),
  status: Type.Optional(Nullable(EvaluationStatusSchema)),
  harness_type: Type.Optional(Nullable(HarnessTypeSchema)),
  tested_by: Type.Optional(Nullable(EvaluationToolSchema)),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Maximum number of results to return' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' }),
});
export type SummaryListQueryIn = Static<typeof SummaryListQuery>;

export const EvaluationSummaryResponse = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid(),
    agent_id: Uuid(),
    tested_by: Type.String(),
    status: Type.String(),
    reliability_score: Nullable(Type.Number()),
    security_score: Nullable(Type.Number()),
    safety_score: Nullable(Type.Number()),
    overall_score: Nullable(Type.Number()),
    pillar_details: FreeObject(),
    harness_names: Type.Array(Type.String()),
    harness_type: Nullable(Type.String()),
    resource_version: Nullable(Type.String()),
    created_by: Nullable(Uuid()),
    created_at: EpochSeconds(),
    completed_at: Nullable(EpochSeconds()),
    request_params: Nullable(FreeObject()),
    // Additions (docs/evaluations.md, "The PASS rule"): PASS / FAIL only when every pillar was measured by a completed run.
    verdict: Nullable(Type.Union([Type.Literal('PASS'), Type.Literal('FAIL'), Type.Literal('INCOMPLETE'), Type.Literal('NOT MEASURED')])),
    missing_pillars: Nullable(Type.Array(Type.Union([Type.Literal('reliability'), Type.Literal('security'), Type.Literal('safety')]))),
  },
  { title: 'EvaluationSummaryResponse' },
);
export type EvaluationSummaryOut = Static<typeof EvaluationSummaryResponse>;
export const EvaluationSummaryListResponse = Type.Object(
  { results: Type.Array(EvaluationSummaryResponse), total: Type.Integer(), limit: Type.Integer(), offset: Type.Integer() },
  { title: 'EvaluationSummaryListResponse' },
);

// ------------------------------------------------------------------ harnesses

export const HarnessListQuery = Type.Object({ team_id: TeamId('Team ID (for the permission check)') });
export const HarnessListItem = Type.Object(
  {
    name: Type.String(),
    updated_at: EpochSeconds(),
    description: Type.String(),
    pillar: Type.String(),
    scenarios: Type.Integer(),
    prompt_count: Type.Integer(),
  },
  { title: 'HarnessListItem' },
);
export const HarnessListResponse = Type.Array(HarnessListItem);
