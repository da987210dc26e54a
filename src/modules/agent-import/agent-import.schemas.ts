import { Type, type Static, type TSchema } from 'typebox';
import { Nullable } from '../../http/schemas.js';
import { Agent } from '../agents/agents.schemas.js';

const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

export const SourceCodeUpload = Type.Object(
  {
    files: Type.Unsafe<Record<string, string>>({
      type: 'object',
      additionalProperties: { type: 'string', maxLength: 1_000_000 },
      propertyNames: { maxLength: 1024 },
      maxProperties: 200,
      description: "Map of file name to content. Use 'main.py' for a single file.",
    }),
    entry_point: Type.Optional(Str(1024, { description: 'Main file (must be one of files)', minLength: 1 })),
    framework: Type.Optional(Str(255, { description: 'Framework identifier (informational)' })),
    agent_name: OptNullable(Str(255, { minLength: 1 })),
    model_name: OptNullable(Str(255, { minLength: 1 })),
    description: OptNullable(Str(10_000)),
    system_prompt: OptNullable(Str(200_000)),
    tools: OptNullable(Type.Array(Str(255), { maxItems: 100 })),
  },
  { title: 'SourceCodeUpload' },
);
export type SourceCodeUploadIn = Static<typeof SourceCodeUpload>;

export const UnifiedImportRequest = Type.Object(
  {
    agent_url: OptNullable(Str(2083, { description: 'Black box: the endpoint to call; its A2A card is looked for at /.well-known/' })),
    agent_card: OptNullable(Type.Object({}, { additionalProperties: true, description: 'Grey box: an A2A AgentCard (0.2, 0.3 or 1.0)' })),
    source_code: OptNullable(SourceCodeUpload),
    framework: OptNullable(Str(255)),
    entry_point: OptNullable(Str(1024, { minLength: 1 })),
    override_name: OptNullable(Str(255, { minLength: 1 })),
    rate_limit_requests_per_minute: Type.Integer({ minimum: 1, maximum: 1_000_000, default: 100 }),
    api_key: OptNullable(Str(4096, { minLength: 1, description: 'Stored encrypted; answered masked' })),
    external_id: OptNullable(Str(255)),
    identity_provider: OptNullable(Str(255)),
    idp_metadata: OptNullable(Type.Object({}, { additionalProperties: true, maxProperties: 100 })),
  },
  { title: 'UnifiedImportRequest' },
);
export type UnifiedImportRequestIn = Static<typeof UnifiedImportRequest>;

export const UnifiedValidationResponse = Type.Object(
  {
    valid: Type.Boolean(),
    access_level: Nullable(Type.String()),
    agent_card: Nullable(Type.Object({}, { additionalProperties: true })),
    errors: Type.Array(Type.String()),
    warnings: Type.Array(Type.String()),
    external_id: Nullable(Type.String()),
    identity_provider: Nullable(Type.String()),
  },
  { title: 'UnifiedValidationResponse' },
);

export const UnifiedImportResponse = Type.Object(
  {
    agent: Agent,
    access_level: Type.String(),
    warnings: Type.Array(Type.String()),
    external_id: Nullable(Type.String()),
    identity_provider: Nullable(Type.String()),
  },
  { title: 'UnifiedImportResponse' },
);
