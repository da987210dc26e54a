import { Type, type Static, type TSchema } from 'typebox';
import { EpochSeconds, FreeObject, Nullable, Uuid } from '../../http/schemas.js';

const enumOf = <const T extends readonly string[]>(values: T, title: string) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values], title });

export const KNOWLEDGE_LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'] as const;
export const SKILL_LEVELS = ['novice', 'competent', 'proficient', 'expert'] as const;
export const INTENTS = ['benign', 'curious', 'adversarial', 'malicious'] as const;
export const PRIVILEGE_LEVELS = ['guest', 'user', 'power_user', 'admin', 'super_admin'] as const;
export const DATA_ACCESS_SCOPES = ['own', 'team', 'organization', 'global'] as const;
export const PRESET_CATEGORIES = ['professional', 'support', 'adversarial'] as const;

export type KnowledgeLevel = (typeof KNOWLEDGE_LEVELS)[number];
export type SkillLevel = (typeof SKILL_LEVELS)[number];
export type Intent = (typeof INTENTS)[number];
export type PrivilegeLevel = (typeof PRIVILEGE_LEVELS)[number];
export type DataAccessScope = (typeof DATA_ACCESS_SCOPES)[number];

export const KnowledgeLevelSchema = enumOf(KNOWLEDGE_LEVELS, 'KnowledgeLevel');
export const SkillLevelSchema = enumOf(SKILL_LEVELS, 'SkillLevel');
export const IntentSchema = enumOf(INTENTS, 'Intent');
export const PrivilegeLevelSchema = enumOf(PRIVILEGE_LEVELS, 'PrivilegeLevel');
export const DataAccessScopeSchema = enumOf(DATA_ACCESS_SCOPES, 'DataAccessScope');

/** Bounds of our own (the reference sets few): every string has one. */
const Str = (max: number, options: { minLength?: number; description?: string } = {}) => Type.String({ maxLength: max, ...options });
const OptNullable = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));
const Names = () => Type.Array(Str(255), { maxItems: 200 });

/** The reference's typed shape: a value that matches it is stored completed (see personas.mapping.ts). */
export const PersonaAccessPermissions = Type.Object(
  {
    privilege_level: Type.Optional(PrivilegeLevelSchema),
    allowed_agents: OptNullable(Names()),
    allowed_tools: OptNullable(Names()),
    restricted_actions: OptNullable(Names()),
    data_access_scope: OptNullable(DataAccessScopeSchema),
  },
  { title: 'PersonaAccessPermissions', additionalProperties: true, maxProperties: 50 },
);
export type PersonaAccessPermissionsIn = Static<typeof PersonaAccessPermissions>;

/**
 * The reference's `PersonaAccessPermissions | {free-form object} | null`: any JSON object is
 * accepted. One that does not match the typed shape (e.g. a privilege level of its own) is
 * kept as sent, as the reference's free-form branch keeps it.
 */
// Free-form, but not unbounded: at most 50 keys at the top (nested values are bounded by the
// 1 MB body and the 32-level depth limit).
const AccessPermissionsInput = Type.Union([PersonaAccessPermissions, Type.Object({}, { additionalProperties: true, maxProperties: 50 })], {
  title: 'Access Permissions',
});

export const Persona = Type.Object(
  {
    id: Uuid(),
    team_id: Uuid({ description: 'The owning team; the nil UUID for a system preset' }),
    name: Type.String(),
    description: Nullable(Type.String()),
    role: Type.String(),
    role_description: Nullable(Type.String()),
    knowledge_level: KnowledgeLevelSchema,
    skill_level: SkillLevelSchema,
    intent: IntentSchema,
    language: Type.String(),
    access_permissions: Nullable(FreeObject()),
    is_preset: Type.Boolean(),
    preset_category: Nullable(Type.String()),
    tags: Nullable(Type.Array(Type.String())),
    icon_filename: Nullable(Type.String()),
    created_at: EpochSeconds(),
    updated_at: EpochSeconds(),
    created_by: Uuid({ description: 'The creating user; the nil UUID for a system preset' }),
  },
  { title: 'Persona' },
);
export type PersonaOut = Static<typeof Persona>;

const describedFields = {
  description: OptNullable(Str(10_000)),
  role_description: OptNullable(Str(10_000)),
  access_permissions: OptNullable(AccessPermissionsInput),
  preset_category: OptNullable(Str(100)),
  tags: OptNullable(Type.Array(Str(100), { maxItems: 50 })),
  icon_filename: OptNullable(Str(255)),
};

export const PersonaCreate = Type.Object(
  {
    id: OptNullable(Uuid({ description: 'Choose the id (optional); a taken id answers 409' })),
    team_id: Uuid({ description: 'The team the persona belongs to (you need persona:write there)' }),
    name: Str(255, { minLength: 1 }),
    role: Str(100, { minLength: 1 }),
    knowledge_level: Type.Optional(KnowledgeLevelSchema),
    skill_level: Type.Optional(SkillLevelSchema),
    intent: Type.Optional(IntentSchema),
    language: Type.Optional(Str(35, { description: 'A language tag (BCP 47) or name, at most 35 characters (default "en")' })),
    is_preset: Type.Optional(Type.Boolean()),
    ...describedFields,
  },
  { title: 'PersonaCreate' },
);
export type PersonaCreateBody = Static<typeof PersonaCreate>;
export type AccessPermissionsBody = NonNullable<PersonaCreateBody['access_permissions']>;

export const PersonaUpdate = Type.Object(
  {
    name: OptNullable(Str(255, { minLength: 1 })),
    role: OptNullable(Str(100, { minLength: 1 })),
    knowledge_level: OptNullable(KnowledgeLevelSchema),
    skill_level: OptNullable(SkillLevelSchema),
    intent: OptNullable(IntentSchema),
    language: OptNullable(Str(35)),
    is_preset: OptNullable(Type.Boolean()),
    ...describedFields,
  },
  {
    title: 'PersonaUpdate',
    description: 'Every field is optional: an absent field is left as it is; null clears a nullable field.',
  },
);
export type PersonaUpdateBody = Static<typeof PersonaUpdate>;

export const CreateFromPresetRequest = Type.Object(
  { name_override: OptNullable(Str(255, { description: "The new persona's name (absent, null or empty: the preset's)" })) },
  { title: 'CreateFromPresetRequest' },
);

const TeamIdQuery = Type.Optional(Uuid({ description: 'Team scope (default: your primary team)' }));

export const PersonaListQuery = Type.Object({
  team_id: TeamIdQuery,
  intents: Type.Optional(Type.Array(IntentSchema, { maxItems: INTENTS.length, description: 'Filter by intent(s)' })),
  is_preset: Type.Optional(Type.Boolean({ description: 'Filter by preset status' })),
  search: Type.Optional(Str(255, { description: 'Search in name, description and role (case-insensitive)' })),
  limit: Type.Integer({ minimum: 1, maximum: 100, default: 10, description: 'Maximum number of results (default 10)' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip for paging' }),
});
export type PersonaListQueryIn = Static<typeof PersonaListQuery>;

export const PresetListQuery = Type.Object({
  team_id: TeamIdQuery,
  preset_category: Type.Optional(Str(100, { description: 'Filter by preset category: professional, adversarial, support' })),
  limit: Type.Integer({ minimum: 1, maximum: 250, default: 100, description: 'Maximum number of results' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'Number of results to skip' }),
});

export const TeamScopeQuery = Type.Object({ team_id: TeamIdQuery });
export const PresetIdParams = Type.Object({ preset_id: Uuid() });

export const PersonaListResponse = Type.Object(
  { results: Type.Array(Persona), total: Type.Integer() },
  { title: 'PersonaListResponse' },
);
