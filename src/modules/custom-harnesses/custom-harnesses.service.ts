import type { Deps } from '../../deps.js';
import { conflict, invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { cancelJob, deleteWithJobs, enqueueJob, getJob } from '../../jobs/index.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { agentNames, findAgent } from '../agents/agents.repo.js';
import { findPreset } from '../personas/personas.presets.js';
import { teamPersonas } from '../personas/personas.repo.js';
import { teamPolicyIds } from '../policies/policies.repo.js';
import { toCustomHarness, toListItem, toPrompt, toWorkflow } from './custom-harnesses.mapping.js';
import * as repo from './custom-harnesses.repo.js';
import type { CustomHarnessCreateBody, CustomHarnessListQueryIn } from './custom-harnesses.schemas.js';
import { GENERATION_JOB, type GenerationJobPayload } from './generation/generation-job.js';

type CustomHarnessDeps = Pick<Deps, 'db' | 'now'>;
type Permission = 'evaluation:read' | 'evaluation:write';

/** Custom harnesses: made for one agent from chosen personas and policies, their prompts written by a generation job. */
export function createCustomHarnessService(deps: CustomHarnessDeps) {
  const { db, now } = deps;

  async function load(principal: Principal, id: string, teamId: string | null | undefined, permission: Permission) {
    requireAnywhere(principal, permission);
    if (teamId != null && !canSeeTeam(principal, teamId)) throw notFound('Custom harness');
    const row = await repo.findHarness(db, id);
    if (row === undefined || (teamId != null && row.team_id !== teamId)) throw notFound('Custom harness');
    authorize(principal, permission, row.team_id, 'Custom harness');
    return row;
  }

  /** Every id must name something of the team (presets count for personas); a 422 at the first that does not. */
  async function checkSources(teamId: string, personaIds: readonly string[], policyIds: readonly string[]) {
    const knownPersonas = new Set((await teamPersonas(db, teamId, personaIds)).map((r) => r.id));
    personaIds.forEach((id, i) => {
      if (!knownPersonas.has(id) && findPreset(id) === undefined) throw invalid(['body', 'persona_ids', i], 'No such persona in this team', 'value_error');
    });
    const knownPolicies = new Set(await teamPolicyIds(db, teamId, policyIds));
    policyIds.forEach((id, i) => {
      if (!knownPolicies.has(id)) throw invalid(['body', 'policy_ids', i], 'No such policy in this team', 'value_error');
    });
  }

  return {
    /** Saves it as a draft and queues its generation, in one transaction. */
    async create(principal: Principal, teamIdParam: string | null | undefined, body: CustomHarnessCreateBody) {
      requireAnywhere(principal, 'evaluation:write');
      const teamId = resolveTeam(principal, teamIdParam ?? undefined);
      authorize(principal, 'evaluation:write', teamId, 'Team');
      const agent = await findAgent(db, body.agent_id);
      if (agent === undefined || agent.team_id !== teamId) throw notFound('Agent');
      const personaIds = [...new Set(body.persona_ids ?? [])];
      const policyIds = [...new Set(body.policy_ids ?? [])];
      await checkSources(teamId, personaIds, policyIds);
      const id = body.id ?? newId();
      if (body.id != null && (await repo.findHarness(db, id)) !== undefined) throw conflict('A custom harness with this id exists already');
      const at = now();
      const row = await db.transaction().execute(async (trx) => {
        const payload: GenerationJobPayload = { harnessId: id };
        const jobId = await enqueueJob(trx, { kind: GENERATION_JOB, payload, teamId, subjectId: id, now: at });
        const values = {
          id,
          team_id: teamId,
          agent_id: agent.id,
          name: body.name,
          description: body.description ?? null,
          persona_ids: JSON.stringify(personaIds),
          policy_ids: JSON.stringify(policyIds),
          system_prompt: body.system_prompt ?? null,
          pillar: 'safety',
          status: 'draft',
          job_id: jobId,
          generator: null,
          generated_at: null,
          prompt_count: null,
          creation_error: null,
          created_by: principal.userId,
          created_at: at,
          updated_at: at,
        };
        await repo.insertHarness(trx, values);
        return values;
      });
      return toCustomHarness(row);
    },

    async list(principal: Principal, query: CustomHarnessListQueryIn) {
      requireAnywhere(principal, 'evaluation:read');
      const teamId = resolveTeam(principal, query.team_id ?? undefined);
      authorize(principal, 'evaluation:read', teamId, 'Team');
      const filter = { teamId, status: query.status, agentId: query.agent_id };
      const [rows, total] = await Promise.all([repo.listHarnesses(db, filter, query.limit, query.offset), repo.countHarnesses(db, filter)]);
      const names = await agentNames(db, rows.map((r) => r.agent_id));
      return { results: rows.map((row) => toListItem(row, names.get(row.agent_id))), total };
    },

    /** The harness and its generation job (the reference's workflow). */
    async get(principal: Principal, id: string, teamId: string | null | undefined) {
      const row = await load(principal, id, teamId, 'evaluation:read');
      const job = row.job_id === null ? undefined : await getJob(db, row.job_id);
      return { harness: toCustomHarness(row), workflow: job === undefined ? null : toWorkflow(job, row) };
    },

    async remove(principal: Principal, id: string, teamId: string | null | undefined) {
      const row = await load(principal, id, teamId, 'evaluation:write');
      await deleteWithJobs(db, row.id, { kind: GENERATION_JOB, teamId: row.team_id }, (trx) => repo.deleteHarness(trx, row.id));
    },

    /** Stops a generation still running: the harness ends `failed` ("Generation was cancelled"). */
    async cancel(principal: Principal, id: string, teamId: string | null | undefined) {
      const row = await load(principal, id, teamId, 'evaluation:write');
      if (row.status !== 'draft' || row.job_id === null) throw conflict(`The harness is ${row.status}: it is not being generated`);
      const status = await cancelJob(db, row.job_id, { now: now() });
      // A queued job is cancelled without running its onEnded: the harness is updated here.
      if (status === 'cancelled' || status === undefined) {
        await repo.updateDraft(db, row.id, { status: 'failed', creation_error: 'Generation was cancelled', updated_at: now() });
      } else if (status !== 'running') {
        throw conflict('The generation has just ended');
      }
      return { status: 'cancelled', harness_id: row.id };
    },

    /** Its prompts in order (none while it is a draft). */
    async prompts(principal: Principal, id: string, teamId: string | null | undefined) {
      const row = await load(principal, id, teamId, 'evaluation:read');
      const prompts = (await repo.listPrompts(db, row.id)).map(toPrompt);
      return { prompts, count: prompts.length };
    },
  };
}

export type CustomHarnessService = ReturnType<typeof createCustomHarnessService>;
