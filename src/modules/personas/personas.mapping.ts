import { Value } from 'typebox/value';
import type { PersonaRow } from './personas.repo.js';
import { PersonaAccessPermissions, type AccessPermissionsBody, type PersonaOut } from './personas.schemas.js';
import { Type } from 'typebox';
import { decodeNullableJsonColumn, decodeStringList } from '../../db/json-columns.js';

/** The stored access permissions: an object (the answer's `access_permissions`). */
const AccessPermissions = Type.Record(Type.String(), Type.Unknown());

/**
 * Access permissions that match the reference's PersonaAccessPermissions are stored
 * complete: every known key present (the reference's model fills `privilege_level: "user"`
 * and nulls), extra keys kept as sent. Any other object (the reference's free-form branch,
 * e.g. a privilege level of the client's own) is stored exactly as sent.
 */
export function normaliseAccessPermissions(value: AccessPermissionsBody | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!Value.Check(PersonaAccessPermissions, value)) return JSON.stringify(value);
  return JSON.stringify({
    ...value,
    privilege_level: value.privilege_level ?? 'user',
    allowed_agents: value.allowed_agents ?? null,
    allowed_tools: value.allowed_tools ?? null,
    restricted_actions: value.restricted_actions ?? null,
    data_access_scope: value.data_access_scope ?? null,
  });
}

export function toPersona(row: PersonaRow): PersonaOut {
  return {
    id: row.id,
    team_id: row.team_id,
    name: row.name,
    description: row.description,
    role: row.role,
    role_description: row.role_description,
    knowledge_level: row.knowledge_level as PersonaOut['knowledge_level'],
    skill_level: row.skill_level as PersonaOut['skill_level'],
    intent: row.intent as PersonaOut['intent'],
    language: row.language,
    access_permissions: decodeNullableJsonColumn(AccessPermissions, row.access_permissions, 'personas.access_permissions'),
    is_preset: row.is_preset === 1,
    preset_category: row.preset_category,
    tags: decodeStringList(row.tags, 'personas.tags'),
    icon_filename: row.icon_filename,
    created_at: row.created_at,
    updated_at: row.updated_at,
    created_by: row.created_by,
  };
}
