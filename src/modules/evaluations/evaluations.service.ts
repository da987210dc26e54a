import { randomInt } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { STANDARD_HARNESSES } from '../../evaluation/types.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { cancelJob, deleteWithJobs, enqueueJob, listJobLogs } from '../../jobs/index.js';
import { agentNames, findAgent } from '../agents/agents.repo.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, holds, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { findRunnableHarnesses } from '../custom-harnesses/custom-harnesses.repo.js';
import { loadEvaluation } from './access.js';
import { toEvaluationItem, toEvaluationStatus } from './evaluations.mapping.js';
import * as repo from './evaluations.repo.js';
import type { CreateEvaluationBody } from './evaluations.schemas.js';
import { EVALUATION_JOB, type EvaluationJobPayload } from './run/evaluation-job.js';
import { cancelledMessage, QUEUED_MESSAGE } from './run/messages.js';

type EvaluationDeps = Pick<Deps, 'db' | 'now'>;

/** A fresh seed for a run that gave none: a non-negative 31-bit integer. */
const newSeed = (): number => randomInt(0, 2 ** 31);

const describeList = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

/** Standard harness names, checked and without repeats; a wrong one is a 422 at its index. */
function standardNames(names: readonly string[]): string[] {
  names.forEach((name, i) => {
    if (!(STANDARD_HARNESSES as readonly string[]).includes(name)) {
      throw invalid(['body', 'harness_names', i], `Input should be ${describeList(STANDARD_HARNESSES)} (or use harness_type 'custom')`, 'enum');
    }
  });
  return [...new Set(names)];
}

export function createEvaluationService(deps: EvaluationDeps) {
  const { db, now } = deps;

  async function agentOfTeam(agentId: string, teamId: string) {
    const agent = await findAgent(db, agentId);
    if (agent === undefined || agent.team_id !== teamId) throw notFound('Agent');
    if (agent.agent_url === null || agent.agent_url.trim() === '') {
      throw conflict('The agent has no agent_url: set the URL Warden should call before evaluating it');
    }
    return agent;
  }

  /** Custom harness ids (or names) → the team's active custom harnesses' ids, in the order given. */
  async function customIds(teamId: string, names: readonly string[]): Promise<string[]> {
    const found = await findRunnableHarnesses(db, teamId, names);
    return names.map((name, i) => {
      const matches = found.filter((h) => h.id === name || h.name === name);
      if (matches.length === 0) throw invalid(['body', 'harness_names', i], `No custom harness '${name}' in this team (give its id)`, 'value_error');
      if (matches.length > 1) throw invalid(['body', 'harness_names', i], `Several custom harnesses are named '${name}': give the id`, 'value_error');
      const harness = matches[0]!;
      if (harness.status !== 'active') {
        throw invalid(['body', 'harness_names', i], `The custom harness '${name}' is ${harness.status}: only an active harness can run`, 'value_error');
      }
      return harness.id;
    }).filter((id, i, all) => all.indexOf(id) === i);
  }

  return {
    async create(principal: Principal, body: CreateEvaluationBody) {
      requireAnywhere(principal, 'evaluation:write');
      const teamId = resolveTeam(principal, body.team_id);
      authorize(principal, 'evaluation:write', teamId, 'Team');
      if (body.type !== 'behavioral') throw invalid(['body', 'type'], "Input should be 'behavioral'", 'enum');
      const harnessType = body.harness_type;
      const harnessNames = harnessType === 'standard' ? standardNames(body.harness_names) : await customIds(teamId, body.harness_names);
      const agent = await agentOfTeam(body.agent_id, teamId);
      const id = body.evaluation_id ?? newId();
      if (body.evaluation_id != null && (await repo.findEvaluation(db, id)) !== undefined) {
        throw conflict('An evaluation with this evaluation_id exists already');
      }
      const seed = body.seed ?? newSeed();
      const sampleSize = body.sample_size ?? null;
      const at = now();
      const requestParams = {
        agent_id: agent.id,
        team_id: teamId,
        type: body.type,
        harness_names: body.harness_names,
        harness_type: harnessType,
        sample_size: sampleSize,
        seed,
      };
      await db.transaction().execute(async (trx) => {
        await repo.insertEvaluation(trx, {
          id,
          team_id: teamId,
          agent_id: agent.id,
          status: 'running',
          overall_score: null,
          reliability_score: null,
          security_score: null,
          safety_score: null,
          created_at: at,
          completed_at: null,
          created_by: principal.userId,
          tested_by: 'diamond',
          eval_type: body.type,
          harness_type: harnessType,
          harness_names: JSON.stringify(harnessNames),
          sample_size: sampleSize,
          seed,
          started_at: null,
          error_message: null,
          status_message: QUEUED_MESSAGE,
          harness_scores: null,
          pillar_details: null,
          request_params: JSON.stringify(requestParams),
          agent_name: agent.agent_name,
          agent_model_name: agent.model_name,
          agent_url: agent.agent_url,
          job_id: null,
        });
        const payload: EvaluationJobPayload = { evaluationId: id };
        const jobId = await enqueueJob(trx, { kind: EVALUATION_JOB, payload, teamId, subjectId: id, now: at, targetKey: agent.id });
        await repo.updateEvaluation(trx, id, { job_id: jobId });
      });
      return { evaluation_id: id, status: 'running' };
    },

    async get(principal: Principal, id: string, teamId: string | undefined) {
      return toEvaluationStatus(await loadEvaluation(db, principal, id, teamId, 'evaluation:read'));
    },

    /** Newest first: the team given, else every team the caller is a member of (a super admin: theirs too). */
    async list(principal: Principal, query: { team_id?: string | undefined; limit: number; offset: number }) {
      requireAnywhere(principal, 'evaluation:read');
      let teamIds: string[];
      if (query.team_id !== undefined) {
        if (!canSeeTeam(principal, query.team_id)) throw notFound('Team');
        authorize(principal, 'evaluation:read', query.team_id, 'Team');
        teamIds = [query.team_id];
      } else {
        teamIds = [...principal.memberships.keys()].filter((team) => holds(principal, 'evaluation:read', team));
      }
      const rows = await repo.listEvaluations(db, teamIds, query.limit, query.offset);
      const names = await agentNames(db, rows.map((r) => r.agent_id));
      return { evaluations: rows.map((row) => toEvaluationItem(row, names.get(row.agent_id))) };
    },

    /**
     * Stops a running evaluation: it is `cancelled` at once (what it stored stays), and its job
     * stops sending (at once in this process, within a poll interval in another).
     */
    async cancel(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadEvaluation(db, principal, id, teamId, 'evaluation:write');
      if (row.status !== 'running') throw conflict(`The evaluation has already ended (${row.status})`);
      const at = now();
      const changed = await repo.updateRunning(db, row.id, { status: 'cancelled', completed_at: at, status_message: cancelledMessage(row) });
      if (!changed) throw conflict('The evaluation has just ended');
      if (row.job_id !== null) await cancelJob(db, row.job_id, { now: at });
      return { status: 'cancelled', evaluation_id: row.id };
    },

    /** Deletes the evaluation, its results, reports and job (a running one stops). */
    async remove(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadEvaluation(db, principal, id, teamId, 'evaluation:write');
      await deleteWithJobs(db, row.id, { kind: EVALUATION_JOB, teamId: row.team_id }, (trx) => repo.deleteEvaluation(trx, row.id));
      return { status: 'deleted', evaluation_id: row.id };
    },

    /** The run's log, oldest line first: one line per entry, `time level message`. */
    async logs(principal: Principal, id: string, teamId: string | undefined, limit: number) {
      const row = await loadEvaluation(db, principal, id, teamId, 'evaluation:read');
      const lines = row.job_id === null ? [] : await listJobLogs(db, row.job_id, { limit });
      const text = lines.map((line) => `${new Date(line.at).toISOString()} ${line.level.toUpperCase()} ${line.message}`).join('\n');
      return { evaluation_id: row.id, status: row.status, logs: text };
    },
  };
}

export type EvaluationService = ReturnType<typeof createEvaluationService>;
