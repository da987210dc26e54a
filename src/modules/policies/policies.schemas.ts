import { Type, type Static, type TSchema } from 'typebox';
import { EpochSeconds, Nullable, Uuid } from '../../http/schemas.js';

export const enumOf = <const T extends readonly string[]>(values: T, title: string, description?: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title, ...(description ? { description } : {}) });

export const POLICY_CATEGORIES = ['privacy', 'ethics', 'security', 'compliance', 'operational', 'brand', 'custom'] as const;
export const POLICY_STATUSES = ['draft', 'active', 'archived'] as const;

export type PolicyCategory = (typeof POLICY_CATEGORIES)[number];
export type PolicyStatus = (typeof POLICY_STATUSES)[number];

export const PolicyCategorySchema = enumOf(POLICY_CATEGORIES, 'PolicyCategory');
export const PolicyStatusSchema = enumOf(POLICY_STATUSES, 'PolicyStatus');

export const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(schema);
export const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
export const Tags = () => Type.Array(Str(100), { maxItems: 50 });

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

export const Limit = (max: number, dflt: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: dflt, description: `Maximum number of results (default ${dflt})` });
export const Offset = () => Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' });

/** An addition to the reference (as on the agent operations): members of several teams choose one. */
export const TeamIdQuery = () => Opt(Uuid({ description: 'Act on this team (one of yours; default: your primary team). An addition to the reference' }));
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
