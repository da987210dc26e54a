import { isUniqueViolation } from '../../db/errors.js';
import { createVersionedMemo } from '../../db/versioned-memo.js';
import { createCountMemo } from '../../db/count-memo.js';
import type { Deps } from '../../deps.js';
import { conflict, notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, holds, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { ID_IN_USE, loadPolicy } from '../policies/policies.access.js';
import { findPolicy } from '../policies/policies.repo.js';
import { findPreset } from '../policies/presets.js';
import { presetRules } from '../policies/presets.view.js';
import { loadRule } from './rules.access.js';
import { buildRuleRow, normaliseConsequence } from './rules.build.js';
import { json, normaliseProvenance, toRule } from './rules.mapping.js';
import type { RulePatch, RuleRow } from './rules.repo.js';
import * as repo from './rules.repo.js';
import type { PolicyRuleCreateBody, PolicyRuleUpdateBody, RuleListInput } from './rules.schemas.js';

type RuleDeps = Pick<Deps, 'db' | 'dialect' | 'now' | 'readVersion'>;

/**
 * The columns that say what a rule means. Changing one of them on an approved or rejected
 * rule sends it back to review (`modified`); rule_id, tags and provenance are labels, not meaning.
 */
const MEANING_COLUMNS = [
  'rule_type',
  'action',
  'target',
  'assignee',
  'constraints',
  'constraint_logic',
  'consequence',
  'natural_language',
  'category',
] as const;

/** The columns an update body sets; absent fields are not touched, null clears a nullable one. */
function patchFrom(body: PolicyRuleUpdateBody): RulePatch {
  const patch: RulePatch = {};
  // Not nullable in PolicyRule: null leaves them as they are.
  if (body.rule_id != null) patch.rule_id = body.rule_id;
  if (body.rule_type != null) patch.rule_type = body.rule_type;
  if (body.action != null) patch.action = body.action;
  if (body.natural_language != null) patch.natural_language = body.natural_language;
  if (body.constraint_logic != null) patch.constraint_logic = body.constraint_logic;
  if (body.constraints != null) patch.constraints = JSON.stringify(body.constraints);
  if (body.consequence != null) patch.consequence = JSON.stringify(normaliseConsequence(body.consequence));
  // Nullable in PolicyRule.
  if (body.target !== undefined) patch.target = body.target;
  if (body.assignee !== undefined) patch.assignee = body.assignee;
  if (body.category !== undefined) patch.category = body.category;
  if (body.tags !== undefined) patch.tags = json(body.tags);
  if (body.provenance !== undefined) patch.provenance = json(normaliseProvenance(body.provenance));
  return patch;
}

/** JSON columns: the same value with its object keys in another order is not a change. */
const JSON_COLUMNS: ReadonlySet<string> = new Set(['constraints', 'consequence']);

/** JSON text with every object's keys sorted (arrays keep their order: it may mean something). */
export const canonicalJson = (text: string): string =>
  JSON.stringify(JSON.parse(text), (_key, value: unknown) =>
    value !== null && typeof value === 'object' && !Array.isArray(value)
      ? Object.fromEntries(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : value,
  );

function sameValue(column: string, next: unknown, current: unknown): boolean {
  if (next === current) return true;
  if (JSON_COLUMNS.has(column) && typeof next === 'string' && typeof current === 'string') return canonicalJson(next) === canonicalJson(current);
  return false;
}

const changesMeaning = (patch: RulePatch, current: RuleRow) =>
  MEANING_COLUMNS.some((column) => patch[column] !== undefined && !sameValue(column, patch[column], current[column]));

export function createRuleService(deps: RuleDeps) {
  const { db, dialect, now } = deps;
  /** Commits that may have changed the rules move it; writes to other tables do not (SQLite only). */
  const readVersion = deps.readVersion;
  const rulesVersion = readVersion && (() => readVersion(repo.RULE_LIST_READS));
  /** Where deep pages start (rules.repo.ts, ANCHOR_STEP); kept until a commit changes the rules, SQLite only. */
  const anchors = createVersionedMemo<repo.RuleAnchor | undefined>(rulesVersion);
  /** Rule counts, kept until a commit changes the rules (SQLite only). */
  const counts = createCountMemo(rulesVersion);

  async function review(principal: Principal, id: string, status: 'approved' | 'rejected', notes: string | null) {
    requireAnywhere(principal, 'policy:write');
    await loadRule(db, principal, id, 'policy:write');
    const at = now();
    const updated = await repo.updateRule(db, id, { status, reviewed_by: principal.userId, reviewed_at: at, review_notes: notes, updated_at: at });
    if (updated === undefined) throw notFound('Rule');
    return toRule(updated);
  }

  return {
    /** A policy's rules in creation order; a preset's rules too (read-only). */
    async listForPolicy(principal: Principal, policyId: string, limit: number, offset: number) {
      requireAnywhere(principal, 'policy:read');
      const preset = findPreset(policyId);
      if (preset !== undefined) {
        const rules = presetRules(preset);
        return { results: rules.slice(offset, offset + limit), total: rules.length };
      }
      await loadPolicy(db, principal, policyId, 'policy:read');
      const filter = { policyId };
      const [rows, total] = await Promise.all([repo.listRules(db, filter, limit, offset, anchors), repo.countRules(db, filter, counts)]);
      return { results: rows.map(toRule), total };
    },

    async create(principal: Principal, policyId: string, body: PolicyRuleCreateBody) {
      requireAnywhere(principal, 'policy:write');
      const policy = await loadPolicy(db, principal, policyId, 'policy:write');
      const row = buildRuleRow({ policyId, teamId: policy.team_id, body, provenance: body.provenance ?? null, reviewerId: principal.userId, at: now() });
      try {
        await repo.insertRules(db, [row]);
      } catch (error) {
        if (isUniqueViolation(error)) throw conflict(ID_IN_USE);
        throw error;
      }
      return toRule(row as RuleRow);
    },

    /**
     * GET /v1/rules/ (seed 4.3, CONTRACT.md): the rules of the policies of the caller's team
     * (its primary team, or the `team_id` given). With `policy_id`, that policy's rules when the
     * caller may read it, whichever of their teams it is in; otherwise an empty page, so the
     * filter never tells whether another team's policy exists.
     */
    async list(principal: Principal, input: RuleListInput) {
      requireAnywhere(principal, 'policy:read');
      const { status, category } = input;
      let filter: repo.RuleListFilter;
      if (input.policy_id !== undefined) {
        if (input.team_id !== undefined) authorize(principal, 'policy:read', resolveTeam(principal, input.team_id), 'Team');
        // The repo leaves the team out of a policy's query (its team is implied): check it here.
        const policy = await findPolicy(db, input.policy_id);
        const readable =
          policy !== undefined &&
          holds(principal, 'policy:read', policy.team_id) &&
          (input.team_id === undefined || input.team_id === policy.team_id);
        if (!readable) return { results: [], count: 0 };
        filter = { policyId: input.policy_id, status, category };
      } else {
        const teamId = resolveTeam(principal, input.team_id);
        authorize(principal, 'policy:read', teamId, 'Team');
        filter = { teamId, status, category };
      }
      const [rows, count] = await Promise.all([repo.listRules(db, filter, input.limit, input.offset, anchors), repo.countRules(db, filter, counts)]);
      return { results: rows.map(toRule), count };
    },

    async get(principal: Principal, id: string) {
      requireAnywhere(principal, 'policy:read');
      return toRule(await loadRule(db, principal, id, 'policy:read'));
    },

    /**
     * A change of what an approved or rejected rule says sends it back to review as
     * `modified`, unless the update names a status itself. A status of approved or
     * rejected set here records the reviewer, as approve and reject do.
     */
    async update(principal: Principal, id: string, body: PolicyRuleUpdateBody) {
      requireAnywhere(principal, 'policy:write');
      // Read, decide and write in one transaction with the row locked: a concurrent approve,
      // reject or PATCH waits, so this decision is taken on the status it overwrites.
      return db.transaction().execute(async (trx) => {
        const current = await loadRule(trx, principal, id, 'policy:write', { dialect });
        const at = now();
        const patch = patchFrom(body);
        if (body.status != null) {
          patch.status = body.status;
          if (body.status === 'approved' || body.status === 'rejected') Object.assign(patch, { reviewed_by: principal.userId, reviewed_at: at });
        } else if ((current.status === 'approved' || current.status === 'rejected') && changesMeaning(patch, current)) {
          patch.status = 'modified';
        }
        const updated = await repo.updateRule(trx, id, { ...patch, updated_at: at });
        if (updated === undefined) throw notFound('Rule');
        return toRule(updated);
      });
    },

    async remove(principal: Principal, id: string) {
      requireAnywhere(principal, 'policy:write');
      await loadRule(db, principal, id, 'policy:write');
      if (!(await repo.deleteRule(db, id))) throw notFound('Rule');
    },

    approve: (principal: Principal, id: string, notes: string | undefined) => review(principal, id, 'approved', notes ?? null),
    reject: (principal: Principal, id: string, reason: string) => review(principal, id, 'rejected', reason),
  };
}

export type RuleService = ReturnType<typeof createRuleService>;
