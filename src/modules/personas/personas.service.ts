import type { Deps } from '../../deps.js';
import { createCountMemo } from '../../db/count-memo.js';
import { isUniqueViolation } from '../../db/errors.js';
import { AppError, conflict, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { normaliseAccessPermissions, toPersona } from './personas.mapping.js';
import { findPreset, PRESETS } from './personas.presets.js';
import type { PersonaPatch, PersonaRow } from './personas.repo.js';
import * as repo from './personas.repo.js';
import type { PersonaCreateBody, PersonaListQueryIn, PersonaOut, PersonaUpdateBody } from './personas.schemas.js';

type PersonaDeps = Pick<Deps, 'db' | 'now' | 'readVersion'>;

/** Fields whose Persona type is not nullable: null in an update leaves them as they are. */
const NON_NULLABLE = ['name', 'role', 'knowledge_level', 'skill_level', 'intent', 'language'] as const;
const NULLABLE_TEXT = ['description', 'role_description', 'preset_category', 'icon_filename'] as const;

const presetIsReadOnly = () =>
  new AppError('forbidden', 'System presets are read-only: create a team persona from it with POST /v1/personas/from-preset/{preset_id}');

export interface PresetListInput {
  team_id?: string | undefined;
  preset_category?: string | undefined;
  limit: number;
  offset: number;
}

export function createPersonaService(deps: PersonaDeps) {
  const { db, now } = deps;
  const counts = createCountMemo(deps.readVersion);

  async function loadAuthorized(principal: Principal, id: string, permission: 'persona:read' | 'persona:write'): Promise<PersonaRow> {
    const row = await repo.findPersona(db, id);
    if (row === undefined) throw notFound('Persona');
    authorize(principal, permission, row.team_id, 'Persona');
    return row;
  }

  async function insert(row: PersonaRow): Promise<PersonaOut> {
    try {
      await repo.insertPersona(db, row);
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(`A persona with id ${row.id} already exists`);
      throw error;
    }
    return toPersona(row);
  }

  return {
    async create(principal: Principal, body: PersonaCreateBody) {
      requireAnywhere(principal, 'persona:write');
      authorize(principal, 'persona:write', body.team_id, 'Team');
      const id = body.id ?? newId();
      if (findPreset(id) !== undefined) throw conflict(`A persona with id ${id} already exists`);
      const at = now();
      return insert({
        id,
        team_id: body.team_id,
        created_by: principal.userId,
        name: body.name,
        description: body.description ?? null,
        role: body.role,
        role_description: body.role_description ?? null,
        knowledge_level: body.knowledge_level ?? 'intermediate',
        skill_level: body.skill_level ?? 'competent',
        intent: body.intent ?? 'benign',
        language: body.language ?? 'en',
        access_permissions: normaliseAccessPermissions(body.access_permissions),
        is_preset: body.is_preset === true ? 1 : 0,
        preset_category: body.preset_category ?? null,
        tags: body.tags == null ? null : JSON.stringify(body.tags),
        icon_filename: body.icon_filename ?? null,
        created_at: at,
        updated_at: at,
      });
    },

    async list(principal: Principal, query: PersonaListQueryIn) {
      requireAnywhere(principal, 'persona:read');
      const teamId = resolveTeam(principal, query.team_id);
      authorize(principal, 'persona:read', teamId, 'Team');
      const filter = { teamId, intents: query.intents ? [...new Set(query.intents)] : undefined, isPreset: query.is_preset, search: query.search };
      const [rows, total] = await Promise.all([repo.listPersonas(db, filter, query.limit, query.offset), repo.countPersonas(db, filter, counts)]);
      return { results: rows.map(toPersona), total };
    },

    /** A team persona, or a system preset (readable by anyone holding persona:read). */
    async get(principal: Principal, id: string, teamIdParam: string | undefined) {
      requireAnywhere(principal, 'persona:read');
      if (teamIdParam !== undefined) authorize(principal, 'persona:read', resolveTeam(principal, teamIdParam), 'Team');
      const preset = findPreset(id);
      if (preset !== undefined) return preset;
      const row = await loadAuthorized(principal, id, 'persona:read');
      if (teamIdParam !== undefined && row.team_id !== teamIdParam) throw notFound('Persona');
      return toPersona(row);
    },

    async update(principal: Principal, id: string, body: PersonaUpdateBody) {
      requireAnywhere(principal, 'persona:write');
      if (findPreset(id) !== undefined) throw presetIsReadOnly();
      await loadAuthorized(principal, id, 'persona:write');
      const patch: PersonaPatch = {};
      const set = patch as Record<string, unknown>;
      for (const field of NON_NULLABLE) if (body[field] != null) set[field] = body[field];
      for (const field of NULLABLE_TEXT) if (body[field] !== undefined) set[field] = body[field];
      if (body.is_preset != null) patch.is_preset = body.is_preset ? 1 : 0;
      if (body.tags !== undefined) patch.tags = body.tags === null ? null : JSON.stringify(body.tags);
      if (body.access_permissions !== undefined) patch.access_permissions = normaliseAccessPermissions(body.access_permissions);
      const updated = await repo.updatePersona(db, id, { ...patch, updated_at: now() });
      if (updated === undefined) throw notFound('Persona');
      return toPersona(updated);
    },

    async remove(principal: Principal, id: string) {
      requireAnywhere(principal, 'persona:write');
      if (findPreset(id) !== undefined) throw presetIsReadOnly();
      await loadAuthorized(principal, id, 'persona:write');
      if (!(await repo.deletePersona(db, id))) throw notFound('Persona');
    },

    async listPresets(principal: Principal, input: PresetListInput) {
      requireAnywhere(principal, 'persona:read');
      authorize(principal, 'persona:read', resolveTeam(principal, input.team_id), 'Team');
      const category = input.preset_category?.toLowerCase();
      const matching = category === undefined || category === '' ? PRESETS : PRESETS.filter((p) => p.preset_category === category);
      return { results: matching.slice(input.offset, input.offset + input.limit), total: matching.length };
    },

    /** A team persona copied from a system preset: every field but the name (unless overridden) comes from it. */
    async createFromPreset(principal: Principal, presetId: string, nameOverride: string | null | undefined, teamIdParam: string | undefined) {
      requireAnywhere(principal, 'persona:write');
      const teamId = resolveTeam(principal, teamIdParam);
      authorize(principal, 'persona:write', teamId, 'Team');
      const preset = findPreset(presetId);
      if (preset === undefined) throw notFound('Preset');
      const at = now();
      return insert({
        id: newId(),
        team_id: teamId,
        created_by: principal.userId,
        name: nameOverride == null || nameOverride === '' ? preset.name : nameOverride,
        description: preset.description,
        role: preset.role,
        role_description: preset.role_description,
        knowledge_level: preset.knowledge_level,
        skill_level: preset.skill_level,
        intent: preset.intent,
        language: preset.language,
        access_permissions: preset.access_permissions === null ? null : JSON.stringify(preset.access_permissions),
        is_preset: 0,
        preset_category: preset.preset_category,
        tags: preset.tags === null ? null : JSON.stringify(preset.tags),
        icon_filename: preset.icon_filename,
        created_at: at,
        updated_at: at,
      });
    },
  };
}

export type PersonaService = ReturnType<typeof createPersonaService>;
