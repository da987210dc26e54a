import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { ID_IN_USE, loadPolicy } from './policies.access.js';
import { json, toPolicy } from './policies.mapping.js';
import type { PolicyPatch, PolicyRow } from './policies.repo.js';
import * as repo from './policies.repo.js';
import type { PolicyCreateBody, PolicyListInput, PolicyUpdateBody } from './policies.schemas.js';
import { findPreset, PRESETS } from './presets.js';
import { presetRules, presetToPolicy } from './presets.view.js';
import { buildRuleRow } from '../rules/rules.build.js';
import { insertRules, ruleReviewCounts } from '../rules/rules.repo.js';
import type { PolicyRuleCreateBody } from '../rules/rules.schemas.js';

type PolicyDeps = Pick<Deps, 'db' | 'dialect' | 'now'>;

/**
 * A policy becomes active only when it has rules and every one of them is approved; the
 * 409 says how many are not, so the reviewer knows what is left.
 */
async function assertActivatable(db: Kysely<DB>, policyId: string): Promise<void> {
  const { total, notApproved } = await ruleReviewCounts(db, policyId);
  if (total === 0) throw conflict('This policy has no rules: add or extract rules and approve them before activating it');
  if (notApproved > 0) {
    throw conflict(
      `${notApproved} of the policy's ${total} rule${total === 1 ? ' is' : 's are'} not approved: approve ${notApproved === 1 ? 'it' : 'them'} (or delete ${notApproved === 1 ? 'it' : 'them'}) before activating the policy`,
    );
  }
}

export function createPolicyService(deps: PolicyDeps) {
  const { db, dialect, now } = deps;

  async function insertOrConflict(fn: () => Promise<void>) {
    try {
      await fn();
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict(ID_IN_USE);
      throw error;
    }
  }

  return {
    async create(principal: Principal, teamIdParam: string | undefined, body: PolicyCreateBody) {
      requireAnywhere(principal, 'policy:write');
      const teamId = resolveTeam(principal, teamIdParam);
      authorize(principal, 'policy:write', teamId, 'Team');
      if (body.id != null && findPreset(body.id) !== undefined) throw conflict(ID_IN_USE);
      const at = now();
      const row: PolicyRow = {
        id: body.id ?? newId(),
        team_id: teamId,
        name: body.name,
        description: body.description ?? null,
        category: body.category,
        status: 'draft',
        source_text: body.source_text ?? null,
        file_path: null,
        file_name: null,
        file_type: null,
        file_size_bytes: null,
        converted_file_path: null,
        preset_source: null,
        tags: json(body.tags),
        created_by: principal.userId,
        created_at: at,
        updated_at: at,
      };
      await insertOrConflict(async () => {
        await repo.insertPolicy(db, row);
      });
      return toPolicy(row);
    },

    async list(principal: Principal, input: PolicyListInput) {
      requireAnywhere(principal, 'policy:read');
      const teamId = resolveTeam(principal, input.team_id);
      authorize(principal, 'policy:read', teamId, 'Team');
      const filter = { teamId, category: input.category, status: input.status, search: input.search };
      const { rows, total } = await repo.listPoliciesWithTotal(db, dialect, filter, input.limit, input.offset);
      return { results: rows.map(toPolicy), total };
    },

    /** A team's policy, or a preset (presets are readable by everyone who may read policies). */
    async get(principal: Principal, id: string) {
      requireAnywhere(principal, 'policy:read');
      const preset = findPreset(id);
      if (preset !== undefined) return presetToPolicy(preset);
      return toPolicy(await loadPolicy(db, principal, id, 'policy:read'));
    },

    async update(principal: Principal, id: string, body: PolicyUpdateBody) {
      requireAnywhere(principal, 'policy:write');
      await loadPolicy(db, principal, id, 'policy:write');
      const patch: PolicyPatch = { updated_at: now() };
      if (body.name != null) patch.name = body.name;
      if (body.category != null) patch.category = body.category;
      if (body.status != null) patch.status = body.status;
      if (body.description !== undefined) patch.description = body.description;
      if (body.source_text !== undefined) patch.source_text = body.source_text;
      if (body.tags !== undefined) patch.tags = json(body.tags);
      return db.transaction().execute(async (trx) => {
        // Setting the status to active is an activation: the same check as POST …/activate,
        // also on a policy already active (a rule added since may not be approved yet).
        if (patch.status === 'active') await assertActivatable(trx, id);
        const updated = await repo.updatePolicy(trx, id, patch);
        if (updated === undefined) throw notFound('Policy');
        return toPolicy(updated);
      });
    },

    async remove(principal: Principal, id: string) {
      requireAnywhere(principal, 'policy:write');
      await loadPolicy(db, principal, id, 'policy:write');
      if (!(await repo.deletePolicy(db, id))) throw notFound('Policy');
    },

    async activate(principal: Principal, id: string) {
      requireAnywhere(principal, 'policy:write');
      await loadPolicy(db, principal, id, 'policy:write');
      return db.transaction().execute(async (trx) => {
        await assertActivatable(trx, id);
        const updated = await repo.updatePolicy(trx, id, { status: 'active', updated_at: now() });
        if (updated === undefined) throw notFound('Policy');
        return toPolicy(updated);
      });
    },

    async listPresets(principal: Principal, input: { category?: string | undefined; limit: number; offset: number }) {
      requireAnywhere(principal, 'policy:read');
      const matching = PRESETS.filter((p) => input.category === undefined || p.category === input.category);
      return { results: matching.slice(input.offset, input.offset + input.limit).map(presetToPolicy), total: matching.length };
    },

    /**
     * Copies a preset into the caller's team: a draft policy with the preset's text and a
     * draft copy of each of its rules, which the team reviews before activating.
     */
    async copyPreset(principal: Principal, presetId: string, options: { name_override?: string | undefined; team_id?: string | undefined }) {
      requireAnywhere(principal, 'policy:write');
      const preset = findPreset(presetId);
      if (preset === undefined) throw notFound('Preset');
      const nameOverride = options.name_override;
      const teamId = resolveTeam(principal, options.team_id);
      authorize(principal, 'policy:write', teamId, 'Team');
      const at = now();
      const row: PolicyRow = {
        id: newId(),
        team_id: teamId,
        name: nameOverride?.trim() || preset.name,
        description: preset.description,
        category: preset.category,
        status: 'draft',
        source_text: preset.source_text,
        file_path: null,
        file_name: null,
        file_type: null,
        file_size_bytes: null,
        converted_file_path: null,
        preset_source: preset.slug,
        tags: json(preset.tags),
        created_by: principal.userId,
        created_at: at,
        updated_at: at,
      };
      const located = presetRules(preset);
      const rules = preset.rules.map((r, i) =>
        buildRuleRow({
          policyId: row.id,
          teamId,
          body: {
            rule_id: r.rule_id,
            rule_type: r.rule_type,
            action: r.action,
            target: r.target,
            assignee: r.assignee,
            constraints: structuredClone(r.constraints) as PolicyRuleCreateBody['constraints'],
            constraint_logic: r.constraint_logic,
            consequence: { ...r.consequence },
            natural_language: r.natural_language,
            category: r.category,
            tags: [...r.tags],
            status: 'draft',
          },
          provenance: located[i]?.provenance ?? null,
          reviewerId: principal.userId,
          at,
        }),
      );
      await db.transaction().execute(async (trx) => {
        await repo.insertPolicy(trx, row);
        await insertRules(trx, rules);
      });
      return toPolicy(row);
    },
  };
}

export type PolicyService = ReturnType<typeof createPolicyService>;
