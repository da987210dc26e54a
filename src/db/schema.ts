import type { ColumnType, Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. Rows are not API objects: each feature converts
 * explicitly (`toAgent(row)`), so a new column never leaks into a response.
 * Booleans are stored as 0/1 and JSON as text in both engines, which keeps the
 * SQLite and PostgreSQL paths identical.
 */
export interface UsersTable {
  id: string;
  email: string;
  password_hash: string;
  given_name: string | null;
  family_name: string | null;
  external_user_id: string | null;
  profile_image: string | null;
  is_active: number;
  is_verified: number;
  is_super_admin: number;
  password_change_required: number;
  created_at: number;
  updated_at: number;
}

export interface TeamsTable {
  id: string;
  name: string;
  description: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface MembershipsTable {
  id: string;
  team_id: string;
  user_id: string;
  role: string;
  created_at: number;
  updated_at: number;
}

export interface InvitationsTable {
  id: string;
  team_id: string;
  email: string;
  invited_by: string;
  role: string;
  status: string;
  created_at: number;
  expires_at: number;
}

export interface SessionsTable {
  id: string;
  user_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

export interface ApiKeysTable {
  id: string;
  user_id: string;
  name: string;
  secret_hash: string;
  /** JSON array of permission names, or null for "everything the user holds". */
  permissions: string | null;
  created_at: number;
  expires_at: number | null;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface AgentsTable {
  id: string;
  team_id: string;
  created_by: string;
  agent_name: string;
  model_name: string;
  agent_url: string | null;
  hub: string;
  /** AES-256-GCM ciphertext of the agent's API key (see src/crypto/secret-box.ts). */
  api_key_enc: string | null;
  /** Last 4 characters of the key, kept to mask it without decrypting on every read. */
  api_key_hint: string | null;
  agent_system_prompt: string | null;
  rate_limit_requests_per_minute: number;
  status: string;
  access_level: string;
  agent_params: string | null;
  mcp_config: string | null;
  delegated_agents: string;
  white_box_config: string | null;
  agent_metadata: string | null;
  purpose: string | null;
  protocol: string;
  test_score: string | null;
  last_tested_by: string | null;
  evaluated_harnesses: string | null;
  last_evaluated_at: number | null;
  protection_status: string;
  trust_stage: string;
  trusted_at: number | null;
  ttt_days: number | null;
  dome_config_id: string | null;
  dome_manually_configured: number;
  import_metadata: string | null;
  capabilities: string | null;
  skills: string;
  created_at: number;
  updated_at: number;
}

export interface AgentLifecycleEventsTable {
  /** Monotonic order of events; the row lock on the agent makes it the order of changes. */
  seq: Generated<number>;
  id: string;
  agent_id: string;
  team_id: string;
  from_stage: string | null;
  to_stage: string;
  changed_by: string;
  changed_at: number;
}

export interface EvaluationsTable {
  id: string;
  team_id: string;
  agent_id: string;
  status: string;
  overall_score: number | null;
  reliability_score: number | null;
  security_score: number | null;
  safety_score: number | null;
  created_at: number;
  completed_at: number | null;
  // From 0008 (docs/evaluations.md).
  created_by: string | null;
  /** The engine that ran it (`diamond`). */
  tested_by: Generated<string>;
  eval_type: Generated<string>;
  /** standard | custom. */
  harness_type: Generated<string>;
  /** JSON array of harness names (custom: ids). */
  harness_names: Generated<string>;
  sample_size: number | null;
  seed: number | null;
  started_at: number | null;
  error_message: string | null;
  status_message: string | null;
  progress_done: Generated<number>;
  progress_total: Generated<number>;
  error_count: Generated<number>;
  /** JSON: harness id → its score, interval, errors, pillar and name. */
  harness_scores: string | null;
  /** JSON: overall and pillar scores, and the scenario / probe tree. */
  pillar_details: string | null;
  /** JSON: the request as made (never a secret). */
  request_params: string | null;
  summary_deleted: Generated<number>;
  agent_name: string | null;
  agent_model_name: string | null;
  agent_url: string | null;
  job_id: string | null;
}

/** One prompt sent by an evaluation, its answer and its verdict. */
export interface EvaluationResultsTable {
  evaluation_id: string;
  prompt_id: string;
  ordinal: number;
  harness: string;
  scenario: string;
  probe: string;
  base: string;
  variation: string;
  prompt: string;
  response: string | null;
  /** 1 passed, 0 failed, null: no verdict (an error). */
  passed: number | null;
  /** JSON: detector / check id → 0..1. */
  scores: string;
  reason: string;
  error: string | null;
  latency_ms: number | null;
  /** JSON lineage of a custom harness prompt; null for standard prompts. */
  lineage: string | null;
  /** JSON `{"prompt"?: n, "response"?: n}`: original lengths of the texts cut for storage; null when none was. */
  truncated: string | null;
  created_at: number;
}

/** An evaluation's reports, rendered once and served until regenerated. */
export interface EvaluationReportsTable {
  evaluation_id: string;
  html: string;
  pdf: Uint8Array;
  generated_by: string | null;
  generated_at: number;
}

/** The latest measurement of each pillar of an agent (migration 0012; docs/evaluations.md, "The agent's evidence"). */
export interface AgentPillarEvidenceTable {
  agent_id: string;
  pillar: string;
  evaluation_id: string;
  /** JSON array of harness names. */
  harnesses: string;
  score: number;
  n: number;
  low: number;
  high: number;
  measured_at: number;
}

export interface CustomHarnessesTable {
  id: string;
  team_id: string;
  agent_id: string;
  name: string;
  description: string | null;
  /** JSON arrays of ids. */
  persona_ids: string;
  policy_ids: string;
  system_prompt: string | null;
  pillar: string;
  /** draft | active | failed | archived. */
  status: string;
  job_id: string | null;
  /** templates | llm. */
  generator: string | null;
  generated_at: number | null;
  prompt_count: number | null;
  creation_error: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface CustomHarnessPromptsTable {
  harness_id: string;
  ordinal: number;
  dimension_name: string;
  scenario: string;
  probe: string;
  prompt_text: string;
  pass_criteria: string;
  /** JSON: CustomHarnessLineage plus rule_id, policy_id, persona_id. */
  lineage: string;
  /** JSON ScoringSpec. */
  expect: string;
}

export interface PoliciesTable {
  id: string;
  team_id: string;
  name: string;
  description: string | null;
  category: string;
  status: string;
  source_text: string | null;
  file_path: string | null;
  file_name: string | null;
  file_type: string | null;
  file_size_bytes: number | null;
  converted_file_path: string | null;
  preset_source: string | null;
  /** JSON array of strings, or null. */
  tags: string | null;
  created_by: string;
  created_at: number;
  updated_at: number;
}

export interface PolicyFilesTable {
  policy_id: string;
  /** The uploaded document as sent (Buffer on SQLite and pg; Uint8Array on some drivers). */
  content: Uint8Array;
  content_type: string;
  converted_markdown: string | null;
  created_at: number;
}

export interface PolicyRulesTable {
  id: string;
  policy_id: string;
  team_id: string;
  rule_id: string;
  rule_type: string;
  action: string;
  target: string | null;
  assignee: string | null;
  /** JSON array of RuleConstraint. */
  constraints: string;
  constraint_logic: string;
  /** JSON RuleConsequence. */
  consequence: string;
  natural_language: string;
  /** JSON RuleProvenance, or null. */
  provenance: string | null;
  category: string | null;
  /** JSON array of strings, or null. */
  tags: string | null;
  status: string;
  reviewed_by: string | null;
  reviewed_at: number | null;
  review_notes: string | null;
  created_at: number;
  updated_at: number;
}

export interface PersonasTable {
  id: string;
  team_id: string;
  created_by: string;
  name: string;
  description: string | null;
  role: string;
  role_description: string | null;
  knowledge_level: string;
  skill_level: string;
  intent: string;
  language: string;
  /** JSON object (PersonaAccessPermissions plus any extra keys), or null. */
  access_permissions: string | null;
  is_preset: number;
  preset_category: string | null;
  /** JSON array of strings, or null. */
  tags: string | null;
  icon_filename: string | null;
  created_at: number;
  updated_at: number;
}

export interface DemographicDimensionsTable {
  id: string;
  name: string;
  display_name: string;
  protected_class: number;
  description: string | null;
  created_at: number;
}

export interface DemographicValuesTable {
  id: string;
  dimension_id: string;
  value: string;
  display_name: string | null;
  /** JSON object, or null. */
  value_metadata: string | null;
  sort_order: number;
  created_at: number;
}

export interface DomeConfigsTable {
  id: string;
  team_id: string;
  agent_id: string | null;
  /** `pending` until applied to its agent, then `applied` (docs/guardrails.md). */
  status: string;
  /** JSON: the configuration as it was sent (Dome's hyphen keys or the Console's underscores). */
  config_body: string;
  dome_instance_url: string | null;
  created_by: string;
  created_at: number;
  updated_by: string | null;
  updated_at: number | null;
}

/** The configuration Warden's gateway enforces for an agent (migration 0014, docs/gateway.md). */
export interface GatewayEnforcementsTable {
  agent_id: string;
  team_id: string;
  dome_config_id: string;
  enforced_at: number;
}

/** A Dome instance that registered for an agent (POST /v1/webhooks/register-dome). */
export interface DomeInstancesTable {
  agent_id: string;
  team_id: string;
  dome_url: string;
  registered_by: string;
  registered_at: number;
}

export interface DetectionsTable {
  team_id: string;
  id: string;
  detector_id: string;
  detector_params: string | null;
  detector_inputs: string;
  detector_outputs: string;
  status: string;
  error_message: string | null;
  created_by: string;
  created_at: number;
}

/** Background jobs (docs/jobs.md). Written in the background while a job runs (progress, leases). */
export interface JobsTable {
  id: string;
  kind: string;
  team_id: string;
  subject_id: string;
  /** JSON: the handler's payload. */
  payload: string;
  /** queued | running | completed | failed | cancelled. */
  status: string;
  /** 1, plus one per interrupted run that was resumed. */
  attempt: number;
  max_attempts: number;
  progress_done: number;
  progress_total: number;
  progress_message: string | null;
  error: string | null;
  cancel_requested: number;
  /** The worker that claimed it (kept after it ends, for the record). */
  locked_by: string | null;
  /** Epoch milliseconds (not seconds): leases are short and compared across processes. */
  lease_expires_at: number | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  updated_at: number;
  /** Times it was claimed: the claim number fences a run's writes (docs/jobs.md, "Fencing"). */
  claims: Generated<number>;
  /** Runs in a row interrupted without progress (the attempt budget). */
  strikes: Generated<number>;
  /** The highest progress_done reported: going past it is progress (and resets `strikes`). */
  progress_best: Generated<number>;
  /** Times in a row, without progress, it gave its slot back to wait for its agent. */
  deferrals: Generated<number>;
  /** Epoch milliseconds before which a queued job is not claimed (its agent asked to wait). */
  not_before: number | null;
  /** What it calls (an agent id, a campaign's URL): claims are shared fairly between targets. */
  target_key: string | null;
}

/** The last lines of each job's log. Written in the background while a job runs. */
export interface JobLogsTable {
  job_id: string;
  /** 1, 2, … per job; lines older than the runner's limit are deleted. */
  seq: number;
  /** Epoch milliseconds. */
  at: number;
  /** info | warn | error. */
  level: string;
  message: string;
}

/** A red-team campaign (docs/redteam.md). JSON columns are text. */
export interface RedteamCampaignsTable {
  id: string;
  team_id: string;
  created_by: string;
  tool: string;
  agent_id: string | null;
  /** The URL attacked: the bare URL given, or the agent's at creation (for the record). */
  agent_url: string | null;
  agent_protocol: string;
  /** AES-256-GCM ciphertext of the campaign's `agent_api_key`; never answered. */
  agent_api_key_enc: string | null;
  agent_model_name: string | null;
  purpose: string;
  /** JSON array of categories. */
  categories: string;
  /** JSON array of probe ids, or null. */
  custom_plugins: string | null;
  /** JSON array of strategies. */
  strategies: string;
  num_tests: number;
  /** JSON: the provider_config options Warden reads (best_of_n, crescendo_turns…), defaults filled. */
  options: string;
  access_level: string;
  seed: number;
  /** The Dome configuration the campaign sends its attacks through, or null. */
  dome_config_id: string | null;
  /** pending | running | completed | failed | cancelled. */
  status: string;
  status_message: string | null;
  error_message: string | null;
  job_id: string | null;
  /** JSON: the planned cases (written on the first run, so a resumed run attacks the same). */
  cases: string | null;
  /** JSON: the summary and success rates at completion. */
  summary: string | null;
  /** JSON: the suggested Dome configuration, or null. */
  suggestion: string | null;
  created_at: number;
  started_at: number | null;
  completed_at: number | null;
  updated_at: number;
}

/** One attack of a campaign: its finding and conversation. Written in the background while a campaign runs. */
export interface RedteamFindingsTable {
  campaign_id: string;
  attack_id: string;
  seq: number;
  category: string;
  probe: string;
  strategy: string;
  severity: string;
  /** 1 resisted, 0 the attack worked, null errored. */
  passed: number | null;
  attack_prompt: string;
  agent_response: string;
  phenotype_category: string | null;
  attack_score: number | null;
  detector_id: string | null;
  /** JSON object. */
  metadata: string;
  /** JSON array of ConversationTurn. */
  conversation: string;
  error: string | null;
  created_at: number;
}

export interface DB {
  users: UsersTable;
  teams: TeamsTable;
  memberships: MembershipsTable;
  invitations: InvitationsTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  agents: AgentsTable;
  agent_lifecycle_events: AgentLifecycleEventsTable;
  agent_pillar_evidence: AgentPillarEvidenceTable;
  evaluations: EvaluationsTable;
  evaluation_results: EvaluationResultsTable;
  evaluation_reports: EvaluationReportsTable;
  custom_harnesses: CustomHarnessesTable;
  custom_harness_prompts: CustomHarnessPromptsTable;
  policies: PoliciesTable;
  policy_files: PolicyFilesTable;
  policy_rules: PolicyRulesTable;
  personas: PersonasTable;
  demographic_dimensions: DemographicDimensionsTable;
  demographic_values: DemographicValuesTable;
  dome_configs: DomeConfigsTable;
  gateway_enforcements: GatewayEnforcementsTable;
  dome_instances: DomeInstancesTable;
  detections: DetectionsTable;
  jobs: JobsTable;
  redteam_campaigns: RedteamCampaignsTable;
  redteam_findings: RedteamFindingsTable;
  job_logs: JobLogsTable;
  telemetry_points: TelemetryPointsTable;
  telemetry_spans: TelemetrySpansTable;
  telemetry_logs: TelemetryLogsTable;
}

/** Telemetry (migration 0013, docs/telemetry.md). Nanosecond times come back as numbers (SQLite) or strings (PostgreSQL's int8). */
export interface TelemetryPointsTable {
  team_id: string;
  name: string;
  /** `gauge` and `summary` (OTLP metrics of every kind) fit migration 0013's columns: kind is varchar(16), data JSON text. */
  kind: 'sum' | 'gauge' | 'samples' | 'histogram' | 'summary';
  at_ms: number;
  value: number;
  count: number;
  data: string | null;
  labels: string;
  service_name: string | null;
  agent_configuration_id: string | null;
  evaluation_id: string | null;
  campaign_id: string | null;
}

export interface TelemetrySpansTable {
  team_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  kind: string;
  start_ns: ColumnType<number | string, bigint | number | string, never>;
  end_ns: ColumnType<number | string, bigint | number | string, never>;
  duration_ns: ColumnType<number | string, bigint | number | string, never>;
  status: string;
  status_message: string | null;
  service_name: string;
  attributes: string;
  agent_configuration_id: string | null;
}

export interface TelemetryLogsTable {
  team_id: string;
  time_ns: ColumnType<number | string, bigint | number | string, never>;
  severity: string;
  body: string;
  labels: string;
  trace_id: string | null;
  span_id: string | null;
}
