import { Type, type Static } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';

/**
 * The reference's Dome operations (tag "Dome"): saved guard configurations, their application
 * to agents, Dome instances registering, detections; plus Warden's scan (docs/guardrails.md).
 */

const TeamId = () => Type.Optional(Uuid({ description: "Team ID (the caller's primary team when omitted)" }));
const HttpUrl = () => Type.String({ format: 'uri', minLength: 1, maxLength: 2083 });

export const TeamScopeQuery = Type.Object({ team_id: TeamId() });
export const ConfigIdParams = Type.Object({ config_id: Uuid() });
export const AgentIdParams = Type.Object({ agent_id: Uuid() });
export const AgentTeamQuery = Type.Object({ team_id: Uuid({ description: 'Team ID (required): the team the agent belongs to' }) });

export const DomeConfigListQuery = Type.Object({
  team_id: TeamId(),
  agent_id: Type.Optional(Nullable(Uuid({ description: 'If set, only configs whose dome_configs.agent_id matches (paginated).' }))),
  limit: Type.Integer({ minimum: 1, maximum: 1000, default: 100, description: 'Page size' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Pagination offset' }),
});

export const DomeConfigCreate = Type.Object(
  {
    config_body: Type.Optional(Nullable(FreeObject())),
    agent_id: Type.Optional(Nullable(Uuid())),
  },
  { title: 'DomeConfigCreate' },
);
export const DomeConfigUpdate = Type.Object({ config_body: FreeObject() }, { title: 'DomeConfigUpdate' });
export const DomeConfigPatch = Type.Object({ dome_instance_url: Nullable(HttpUrl()) }, { title: 'DomeConfigPatch' });

export const DomeConfigResponse = Type.Object(
  {
    id: Uuid(),
    status: Type.String({ description: '"pending" until applied to its agent, then "applied"' }),
    agent_id: Nullable(Uuid()),
    config_body: FreeObject(),
    dome_instance_url: Nullable(Type.String()),
    created_at: EpochSeconds(),
    created_by: Uuid(),
    updated_at: Nullable(EpochSeconds()),
    updated_by: Nullable(Uuid()),
  },
  { title: 'DomeConfigResponse' },
);
export const DomeConfigListResponse = Type.Object(
  { dome_configs: Type.Array(DomeConfigResponse), count: Type.Integer() },
  { title: 'DomeConfigListResponse' },
);

export const DefaultDomeConfig = Type.Object({}, { additionalProperties: true, title: 'Response Get Default Dome Config' });

export const RegisterDomeRequest = Type.Object(
  {
    agent_id: Uuid({ description: 'The agent being protected' }),
    team_id: Uuid({ description: 'Team that owns the agent' }),
    dome_url: HttpUrl(),
  },
  { title: 'RegisterDomeRequest' },
);
export const RegisterDomeResponse = Type.Object(
  { status: Type.String(), agent_id: Uuid(), team_id: Uuid(), dome_url: Type.String() },
  { title: 'RegisterDomeResponse' },
);
export const WebhookHeaders = Type.Object({
  'x-webhook-api-key': Type.Optional(Nullable(Type.String({ maxLength: 512, description: 'A Warden API key (or send it as a Bearer token)' }))),
});

export const ScanRequest = Type.Object(
  {
    direction: Type.Unsafe<'input' | 'output'>({ type: 'string', enum: ['input', 'output'] }),
    text: Type.String({ maxLength: 1_000_000 }),
  },
  { title: 'ScanRequest' },
);
const MethodTrace = Type.Object({}, { additionalProperties: true });
export const ScanResponse = Type.Object(
  {
    flagged: Type.Boolean(),
    enforced: Type.Boolean(),
    response_string: Type.String(),
    trace: Type.Record(Type.String(), MethodTrace),
    exec_time: Type.Number({ description: 'milliseconds' }),
    detection_score: Type.Number(),
    triggered_methods: Type.Array(Type.String()),
    errored_methods: Type.Array(Type.String()),
  },
  { title: 'ScanResponse' },
);

// ------------------------------------------------------------------ agent views

export const AgentDomeConfigResponse = Type.Object(DomeConfigResponse.properties, { title: 'AgentDomeConfigResponse' });

const Names = () => Type.Array(Type.String());
export const DomeGuardConfig = Type.Object(
  { input_guards: Names(), output_guards: Names(), guards: Type.Record(Type.String(), FreeObject()) },
  { title: 'DomeGuardConfig' },
);
export const ToolPermission = Type.Object(
  { name: Type.String(), identity: Type.String(), endpoint: Type.String(), allowed_actions: Type.Optional(Nullable(Names())) },
  { title: 'ToolPermission' },
);
export const OrganizationConstraints = Type.Object(
  { required_input_guards: Names(), required_output_guards: Names(), denied_tools: Names(), max_model_tier: Type.Optional(Nullable(Type.String())) },
  { title: 'OrganizationConstraints' },
);
export const AgentConstraints = Type.Object(
  {
    agent_id: Type.String(),
    dome_config: DomeGuardConfig,
    tool_permissions: Type.Array(ToolPermission),
    organization: OrganizationConstraints,
    enforcement_mode: Type.Unsafe<'warn' | 'enforce'>({ type: 'string', enum: ['warn', 'enforce'] }),
    updated_at: Type.String({ format: 'date-time' }),
  },
  { title: 'AgentConstraints' },
);

// ------------------------------------------------------------------ detections

const OptText = () => Type.Optional(Nullable(Type.String({ maxLength: 200_000 })));
export const DetectionInput = Type.Object(
  { response: OptText(), question: OptText(), prompt: OptText(), dome_detection_method: Type.Optional(Nullable(Type.String({ maxLength: 255 }))) },
  { title: 'DetectionInput' },
);
export const DetectionParams = Type.Object(
  {
    api_key_proxy: Type.Optional(Nullable(Type.String({ maxLength: 512 }))),
    hub: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
    model: Type.Optional(Nullable(Type.String({ maxLength: 255 }))),
  },
  { title: 'DetectionParams' },
);
export const DetectionRequest = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 255 }),
    detector_id: Type.String({ minLength: 1, maxLength: 255 }),
    detector_params: Type.Optional(DetectionParams),
    detector_inputs: Type.Array(DetectionInput, { maxItems: 100 }),
  },
  { title: 'DetectionRequest' },
);
export const DetectionOutput = Type.Object(
  { score: Type.Number(), label: Nullable(Type.String()), details: Nullable(FreeObject()) },
  { title: 'DetectionOutput' },
);
export const DetectionResponse = Type.Object(
  {
    id: Type.String(),
    status: Type.String({ description: 'CREATED, PROCESSING, COMPLETED or ERROR' }),
    detector_inputs: Type.Array(DetectionInput),
    detector_outputs: Type.Array(DetectionOutput),
    error_message: Nullable(Type.String()),
  },
  { title: 'DetectionResponse' },
);
export const DetectionIdParams = Type.Object({ detection_id: Type.String({ minLength: 1, maxLength: 255 }) });

export type DomeConfigOut = Static<typeof DomeConfigResponse>;
export type DomeConfigListQueryIn = Static<typeof DomeConfigListQuery>;
export type DetectionRequestBody = Static<typeof DetectionRequest>;
export type DetectionOut = Static<typeof DetectionResponse>;
export type DetectionInputIn = Static<typeof DetectionInput>;
