import { sameKeyOrigin } from '../../connector/index.js';
import { encryptSecret } from '../../crypto/keys.js';
import type { Deps } from '../../deps.js';
import { createCountMemo } from '../../db/count-memo.js';
import { invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { API_KEY_MASK, apiKeyHint, json, maskedApiKey, toAgent, toDecimalString, toLifecycleEvent } from './agents.mapping.js';
import type { AgentPatch, AgentRow } from './agents.repo.js';
import * as repo from './agents.repo.js';
import type { AgentCreateBody, AgentUpdateBody, TrustStage } from './agents.schemas.js';
import { AGENT_STATUSES } from './agents.schemas.js';
import { toEvaluationConfig } from './agents.views.js';
import { findEvidenceOf, latestEvaluations } from '../evaluations/evaluations.repo.js';

type AgentDeps = Pick<Deps, 'db' | 'dialect' | 'keys' | 'now' | 'readVersion'>;

const SECONDS_PER_DAY = 86_400;
const DEFAULT_STATUSES = AGENT_STATUSES.filter((s) => s !== 'archived');

/** Fields whose Agent type is not nullable: null leaves them as they are (CONTRACT.md). */
const NON_NULLABLE_SCALARS = [
  'agent_name',
  'model_name',
  'status',
  'hub',
  'access_level',
  'protocol',
  'protection_status',
  'rate_limit_requests_per_minute',
] as const;
const NULLABLE_SCALARS = ['agent_url', 'agent_system_prompt', 'purpose', 'last_tested_by', 'last_evaluated_at', 'dome_config_id'] as const;
const NULLABLE_JSON = ['agent_params', 'mcp_config', 'white_box_config', 'agent_metadata', 'evaluated_harnesses'] as const;

/** What an import sets beyond the create body (stored as JSON, answered as they are). */
export interface ImportedAgentFields {
  import_metadata: Record<string, unknown>;
  capabilities: Record<string, unknown> | null;
  skills: Array<Record<string, unknown>>;
}

export interface ListAgentsInput {
  statuses?: string[] | undefined;
  search?: string | undefined;
  trust_stage?: string | undefined;
  limit: number;
  offset: number;
  include_scores: boolean;
  team_id?: string | undefined;
}

export function createAgentService(deps: AgentDeps) {
  const { db, dialect, now } = deps;
  const counts = createCountMemo(deps.readVersion);

  /** The agent, if the caller may act on it with `permission` (404 when its team is not visible). */
  async function loadAuthorized(principal: Principal, id: string, permission: 'agent:read' | 'agent:write'): Promise<AgentRow> {
    const row = await repo.findAgent(db, id);
    if (row === undefined) throw notFound('Agent');
    authorize(principal, permission, row.team_id, 'Agent');
    return row;
  }

  function sealApiKey(key: string, current: Pick<AgentRow, 'api_key_enc' | 'api_key_hint'> | null): AgentPatch | undefined {
    if (current !== null && key === maskedApiKey(current)) return undefined; // the masked value sent back: unchanged
    if (key.startsWith(API_KEY_MASK)) {
      throw invalid(['body', 'api_key'], 'This looks like a masked key; send the real key, or leave the field out to keep the current one');
    }
    return { api_key_enc: encryptSecret(deps.keys.agentSecrets, key), api_key_hint: apiKeyHint(key) };
  }

  /** The columns an update body sets; absent fields are not touched. */
  function patchFrom(body: AgentUpdateBody, current: AgentRow | null): AgentPatch {
    const patch: AgentPatch = {};
    const set = patch as Record<string, unknown>;
    for (const field of NON_NULLABLE_SCALARS) if (body[field] != null) set[field] = body[field];
    for (const field of NULLABLE_SCALARS) if (body[field] !== undefined) set[field] = body[field];
    for (const field of NULLABLE_JSON) if (body[field] !== undefined) set[field] = json(body[field]);
    if (body.delegated_agents != null) patch.delegated_agents = JSON.stringify(body.delegated_agents);
    if (body.dome_manually_configured != null) patch.dome_manually_configured = body.dome_manually_configured ? 1 : 0;
    if (body.test_score !== undefined) {
      patch.test_score = body.test_score === null ? null : toDecimalString(body.test_score, ['body', 'test_score']);
    }
    if (body.api_key === null || body.api_key === '') Object.assign(patch, { api_key_enc: null, api_key_hint: null });
    else if (body.api_key !== undefined) Object.assign(patch, sealApiKey(body.api_key, current));
    // A key is sent only to the origin it was given for: moving the agent to another scheme, host or
    // port (or to no URL) without a new key in the same body drops it (the masked value sent back is no new key).
    const keySet = patch.api_key_enc !== undefined;
    if (current !== null && body.agent_url !== undefined && !keySet && !sameKeyOrigin(current.agent_url, body.agent_url)) {
      Object.assign(patch, { api_key_enc: null, api_key_hint: null });
    }
    return patch;
  }

  async function withScores(rows: AgentRow[], include: boolean) {
    if (!include) return rows.map((r) => toAgent(r));
    const ids = rows.map((r) => r.id);
    const [latest, evidence] = await Promise.all([latestEvaluations(db, ids), findEvidenceOf(db, ids)]);
    return rows.map((r) => toAgent(r, latest.get(r.id) ?? null, evidence.get(r.id) ?? []));
  }

  /**
   * The one path that inserts an agent (with its first lifecycle event): registration, and
   * import, which adds the fields only an import sets (import_metadata, capabilities, skills).
   */
  async function register(principal: Principal, teamIdParam: string | undefined, body: AgentCreateBody, imported: ImportedAgentFields | null) {
    requireAnywhere(principal, 'agent:write');
    const teamId = resolveTeam(principal, teamIdParam);
    authorize(principal, 'agent:write', teamId, 'Team');
    const at = now();
    const params = body.agent_params ?? (body.rag_params != null || body.function_route_params != null ? {} : null);
    if (params !== null) {
      if (body.rag_params != null) params.rag_params = body.rag_params;
      if (body.function_route_params != null) params.function_route_params = body.function_route_params;
    }
    const row: AgentRow = {
      id: newId(),
      team_id: teamId,
      created_by: principal.userId,
      agent_name: body.agent_name,
      model_name: body.model_name,
      agent_url: null,
      hub: 'custom',
      api_key_enc: null,
      api_key_hint: null,
      agent_system_prompt: null,
      rate_limit_requests_per_minute: 100,
      status: 'active',
      access_level: 'black_box',
      agent_params: null,
      mcp_config: null,
      delegated_agents: '[]',
      white_box_config: null,
      agent_metadata: null,
      purpose: null,
      protocol: 'chat_completions',
      test_score: null,
      last_tested_by: null,
      evaluated_harnesses: null,
      last_evaluated_at: null,
      protection_status: 'unprotected',
      trust_stage: 'registered',
      trusted_at: null,
      ttt_days: null,
      dome_config_id: null,
      dome_manually_configured: 0,
      import_metadata: null,
      capabilities: null,
      skills: '[]',
      created_at: at,
      updated_at: at,
    };
    Object.assign(row, patchFrom({ ...body, agent_params: params }, null));
    if (imported !== null) {
      row.import_metadata = json(imported.import_metadata);
      row.capabilities = json(imported.capabilities);
      row.skills = JSON.stringify(imported.skills);
    }
    await db.transaction().execute(async (trx) => {
      await repo.insertAgent(trx, row);
      await repo.insertLifecycleEvent(trx, {
        id: newId(),
        agent_id: row.id,
        team_id: teamId,
        from_stage: null,
        to_stage: 'registered',
        changed_by: principal.userId,
        changed_at: at,
      });
    });
    return toAgent(row);
  }

  return {
    create: (principal: Principal, teamIdParam: string | undefined, input: AgentCreateBody) => register(principal, teamIdParam, input, null),

    /** An agent registered by import (src/modules/agent-import): the same checks and insert as `create`. */
    createImported: (principal: Principal, teamIdParam: string | undefined, input: AgentCreateBody, imported: ImportedAgentFields) =>
      register(principal, teamIdParam, input, imported),

    async list(principal: Principal, input: ListAgentsInput) {
      requireAnywhere(principal, 'agent:read');
      const teamId = resolveTeam(principal, input.team_id);
      authorize(principal, 'agent:read', teamId, 'Team');
      const statuses = input.statuses && input.statuses.length > 0 ? [...new Set(input.statuses)] : DEFAULT_STATUSES;
      const filter = { teamId, statuses, search: input.search, trustStage: input.trust_stage, limit: input.limit, offset: input.offset };
      const [rows, count] = await Promise.all([repo.listAgents(db, filter), repo.countAgents(db, filter, counts)]);
      return { results: await withScores(rows, input.include_scores), count };
    },

    async get(principal: Principal, id: string, includeScores: boolean) {
      requireAnywhere(principal, 'agent:read');
      const row = await loadAuthorized(principal, id, 'agent:read');
      const [agent] = await withScores([row], includeScores);
      return agent as NonNullable<typeof agent>;
    },

    async update(principal: Principal, id: string, body: AgentUpdateBody) {
      requireAnywhere(principal, 'agent:write');
      // The agent as last committed, read without the writer: the patch is decided on it (whether
      // the key stays depends on the URL it is written beside), and the UPDATE applies only while
      // the key and URL are still those read, one statement in all (docs/decisions.md, "Agent
      // updates"). An agent not yet committed, or whose key or URL moved meanwhile, is read
      // again under the writer, locked, as before.
      const seen = await repo.findAgent(db, id);
      if (seen !== undefined) {
        // An agent never changes team, so the row read without the writer decides access as the locked one would.
        authorize(principal, 'agent:write', seen.team_id, 'Agent');
        const updated = await repo.updateAgentIfKeyOrigin(db, id, seen, { ...patchFrom(body, seen), updated_at: now() });
        if (updated !== undefined) return toAgent(updated);
      }
      const updated = await db.transaction().execute(async (trx) => {
        const current = await repo.findAgentForUpdate(trx, dialect, id);
        if (current === undefined) throw notFound('Agent');
        authorize(principal, 'agent:write', current.team_id, 'Agent');
        return repo.updateAgent(trx, id, { ...patchFrom(body, current), updated_at: now() });
      });
      if (updated === undefined) throw notFound('Agent');
      return toAgent(updated);
    },

    async archive(principal: Principal, id: string) {
      requireAnywhere(principal, 'agent:write');
      await loadAuthorized(principal, id, 'agent:write');
      const updated = await repo.updateAgent(db, id, { status: 'archived', updated_at: now() });
      if (updated === undefined) throw notFound('Agent');
      return toAgent(updated);
    },

    /**
     * Seed 4.1 and section 3: any stage may be set. Every move to `hardened` captures
     * trusted_at and ttt_days = (trusted_at − created_at) / 86400; other moves leave both.
     * Every call is kept in the history, in order (the row lock serialises writers).
     */
    async updateLifecycle(principal: Principal, id: string, stage: TrustStage) {
      requireAnywhere(principal, 'agent:write');
      // The agent as last committed, read without the writer: the UPDATE below applies only if
      // its stage is still the one read, and the history row follows it in the same batch, so
      // the usual move is one call to the writer (docs/decisions.md, "Lifecycle moves"). A move
      // that lost a race, or an agent not yet committed, reads the row again under the writer.
      const seen = await repo.findAgent(db, id);
      const at = now();
      const patchFor = (agent: AgentRow): AgentPatch =>
        stage === 'hardened'
          ? { trust_stage: stage, updated_at: at, trusted_at: at, ttt_days: (at - agent.created_at) / SECONDS_PER_DAY }
          : { trust_stage: stage, updated_at: at };
      const eventFrom = (agent: AgentRow) => ({
        id: newId(),
        agent_id: id,
        team_id: agent.team_id,
        from_stage: agent.trust_stage,
        to_stage: stage,
        changed_by: principal.userId,
        changed_at: at,
      });
      if (seen !== undefined) {
        // An agent never changes team, so the row read without the writer decides access as the locked one would.
        authorize(principal, 'agent:write', seen.team_id, 'Agent');
        const moved = await repo.moveStageIfUnchanged(db, seen, patchFor(seen), eventFrom(seen));
        if (moved !== undefined) return toAgent(moved);
      }
      return db.transaction().execute(async (trx) => {
        const current = await repo.findAgentForUpdate(trx, dialect, id);
        if (current === undefined) throw notFound('Agent');
        authorize(principal, 'agent:write', current.team_id, 'Agent');
        const updated = await repo.updateAgent(trx, id, patchFor(current));
        if (updated === undefined) throw notFound('Agent');
        await repo.insertLifecycleEvent(trx, eventFrom(current));
        return toAgent(updated);
      });
    },

    /** What an evaluation needs to call the agent (the key masked: it is never answered in clear). */
    async evaluationConfig(principal: Principal, id: string) {
      requireAnywhere(principal, 'agent:read');
      return toEvaluationConfig(await loadAuthorized(principal, id, 'agent:read'));
    },

    async lifecycleHistory(principal: Principal, id: string, limit: number, offset: number) {
      requireAnywhere(principal, 'agent:read');
      await loadAuthorized(principal, id, 'agent:read');
      const [rows, count] = await Promise.all([repo.listLifecycleEvents(db, id, limit, offset), repo.countLifecycleEvents(db, id, counts)]);
      return { results: rows.map(toLifecycleEvent), count };
    },
  };
}

export type AgentService = ReturnType<typeof createAgentService>;
