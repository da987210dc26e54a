import type { Deps } from '../../deps.js';
import { STANDARD_HARNESS_DEFINITIONS } from '../../evaluation/harnesses/index.js';
import { STANDARD_HARNESSES } from '../../evaluation/types.js';
import { notFound } from '../../http/errors.js';
import { agentNames } from '../agents/agents.repo.js';
import type { Principal } from '../auth/permissions.js';
import { readBoundedPage } from '../bounded-page.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { loadEvaluation } from './access.js';
import { harnessNamesOf, toListItem, toResult, toSummary } from './evaluations.mapping.js';
import * as repo from './evaluations.repo.js';
import type { SummaryListQueryIn } from './evaluations.schemas.js';

type ResultDeps = Pick<Deps, 'db'>;

/**
 * When the standard catalogue last changed (epoch seconds): HarnessListItem.updated_at. Moved
 * with every release that changes a harness's prompts.
 */
export const CATALOGUE_UPDATED_AT = 1_795_000_000;

/** The team a list acts on: `team_id` (a team the caller sees) or the caller's primary team. */
function listTeam(principal: Principal, teamId: string | undefined): string {
  requireAnywhere(principal, 'evaluation:read');
  const team = resolveTeam(principal, teamId);
  authorize(principal, 'evaluation:read', team, 'Team');
  return team;
}

/** Completed evaluations, their per-prompt results, their summaries, and the harness catalogue. */
export function createResultService(deps: ResultDeps) {
  const { db } = deps;

  async function summaryOf(principal: Principal, id: string, teamId: string | undefined, permission: 'evaluation:read' | 'evaluation:write') {
    const row = await loadEvaluation(db, principal, id, teamId, permission);
    if (row.summary_deleted === 1) throw notFound('Evaluation summary');
    return row;
  }

  return {
    /** The six standard harnesses (global, read-only), with their pillar and size. */
    harnesses(principal: Principal, teamId: string | undefined) {
      listTeam(principal, teamId);
      return STANDARD_HARNESSES.map((id) => {
        const harness = STANDARD_HARNESS_DEFINITIONS[id];
        return {
          name: id,
          updated_at: CATALOGUE_UPDATED_AT,
          description: harness.description,
          pillar: harness.pillar,
          scenarios: harness.scenarios.length,
          prompt_count: harness.prompts().length,
        };
      });
    },

    /** A team's completed evaluations, newest first. */
    async completed(principal: Principal, query: { team_id?: string | undefined; limit: number; offset: number }) {
      const teamId = listTeam(principal, query.team_id);
      const [rows, total] = await Promise.all([repo.listCompleted(db, teamId, query.limit, query.offset), repo.countCompleted(db, teamId)]);
      const names = await agentNames(db, rows.map((r) => r.agent_id));
      return { results: rows.map((row) => toListItem(row, names.get(row.agent_id))), total };
    },

    /**
     * One row per prompt, in the order they were planned, with the evaluation's scores. Answered
     * whatever the status: a running evaluation shows what it has stored so far.
     */
    async results(principal: Principal, id: string, query: { team_id?: string | undefined; limit: number; offset: number; passed?: boolean | undefined }) {
      const row = await loadEvaluation(db, principal, id, query.team_id, 'evaluation:read');
      const filter = { evaluationId: row.id, passed: query.passed };
      const [page, total] = await Promise.all([
        readBoundedPage({ offset: query.offset, limit: query.limit, read: (offset, limit) => repo.listResults(db, filter, limit, offset), map: toResult }),
        repo.countResults(db, filter),
      ]);
      const summary = toSummary(row);
      return {
        evaluation_id: row.id,
        team_id: row.team_id,
        agent_id: row.agent_id,
        agent_name: row.agent_name,
        status: row.status,
        harness_names: harnessNamesOf(row),
        harness_type: row.harness_type,
        sample_size: row.sample_size,
        seed: row.seed,
        created_at: row.created_at,
        completed_at: row.completed_at,
        scores: {
          overall: row.overall_score,
          reliability: row.reliability_score,
          security: row.security_score,
          safety: row.safety_score,
          details: summary.pillar_details,
        },
        total,
        limit: query.limit,
        offset: query.offset,
        // Additions: the page may stop before `limit` rows at its size bound (docs/api.md, "Bounds").
        next_offset: page.end < total ? page.end : null,
        size_limited: page.sizeLimited,
        results: page.items,
      };
    },

    async summaries(principal: Principal, query: SummaryListQueryIn) {
      const teamId = listTeam(principal, query.team_id);
      const filter = { teamId, agentId: query.agent_id, status: query.status, harnessType: query.harness_type, testedBy: query.tested_by };
      const [rows, total] = await Promise.all([repo.listSummaries(db, filter, query.limit, query.offset), repo.countSummaries(db, filter)]);
      return { results: rows.map(toSummary), total, limit: query.limit, offset: query.offset };
    },

    async latestByAgent(principal: Principal, teamId: string | undefined) {
      const team = listTeam(principal, teamId);
      const rows = await repo.latestSummaryPerAgent(db, team);
      return { results: rows.map(toSummary), total: rows.length, limit: rows.length, offset: 0 };
    },

    async summary(principal: Principal, id: string, teamId: string | undefined) {
      return toSummary(await summaryOf(principal, id, teamId, 'evaluation:read'));
    },

    /** Removes the summary only: the evaluation, its results and reports stay (DELETE /v1/evaluations/{id} removes them). */
    async deleteSummary(principal: Principal, id: string, teamId: string | undefined) {
      const row = await summaryOf(principal, id, teamId, 'evaluation:write');
      await repo.updateEvaluation(db, row.id, { summary_deleted: 1 });
    },
  };
}

export type ResultService = ReturnType<typeof createResultService>;
