import type { Deps } from '../../deps.js';
import { encryptSecret } from '../../crypto/keys.js';
import { AppError, conflict, invalid } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { cancelJob, deleteWithJobs, enqueueJob, getJob, listJobLogs } from '../../jobs/index.js';
import { getProbe, probeIds } from '../../redteam/probes/index.js';
import { isStrategy } from '../../redteam/strategies.js';
import { ATTACK_CATEGORIES, STRATEGIES, type AttackCategory, type Strategy } from '../../redteam/types.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, holds, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { loadCampaign } from './access.js';
import { findAgent } from '../agents/agents.repo.js';
import { findConfig } from '../dome/dome.repo.js';
import { parseOptions } from './options.js';
import { TOOL, toCampaignItem, toCampaignStatus } from './redteam.mapping.js';
import * as repo from './redteam.repo.js';
import type { CreateCampaignBody } from './redteam.schemas.js';
import { CAMPAIGN_JOB, type CampaignJobPayload } from './run/campaign-job.js';
import { MAX_CAMPAIGN_ATTACKS, mostPlanned, type PlanSize } from './run/planning.js';

type RedteamDeps = Pick<Deps, 'db' | 'now' | 'keys' | 'llm'>;

/** The reference's other red-team tools: named in the refusal so that a client sees what this installation runs instead. */
const OTHER_TOOLS = ['promptfoo', 'garak', 'pyrit'];
const QUEUED = 'Queued: waiting for a worker';
const quoted = (values: readonly string[]) => values.map((v) => `'${v}'`).join(', ');

function checkTool(tool: string): void {
  if (tool === TOOL) return;
  const why = OTHER_TOOLS.includes(tool) ? `${tool} is not installed in Warden` : `'${tool}' is not a red-team tool of this installation`;
  throw invalid(['body', 'tool'], `Input should be '${TOOL}': ${why}; the tools this installation runs are: ${TOOL}`, 'enum');
}

function checkStrategies(names: readonly string[] | null | undefined): Strategy[] {
  const given = names === null || names === undefined || names.length === 0 ? ['basic'] : names;
  given.forEach((name, i) => {
    if (!isStrategy(name)) throw invalid(['body', 'strategies', i], `Input should be one of ${quoted(STRATEGIES)}`, 'enum');
  });
  return [...new Set(given as Strategy[])];
}

/** The custom category needs probes to run; probes need the custom category. */
function checkCustomPlugins(categories: readonly AttackCategory[], plugins: readonly string[] | null | undefined): string[] | null {
  const named = plugins ?? [];
  named.forEach((name, i) => {
    if (getProbe(name) === undefined) throw invalid(['body', 'custom_plugins', i], `Unknown probe '${name}': the probes are ${quoted(probeIds())}`, 'enum');
  });
  if (categories.includes('custom') && named.length === 0) {
    throw invalid(['body', 'custom_plugins'], `The custom category runs the probes named here: name at least one of ${quoted(probeIds())}`, 'missing');
  }
  if (!categories.includes('custom') && named.length > 0) {
    throw invalid(['body', 'custom_plugins'], "custom_plugins run under the 'custom' category: add it to categories", 'value_error');
  }
  return named.length > 0 ? [...new Set(named)] : null;
}

/** The custom probes named must include one the target's access level runs (grey-box probes need grey_box). */
function checkRunnable(categories: readonly AttackCategory[], plugins: readonly string[] | null, accessLevel: string): void {
  if (!categories.includes('custom') || plugins === null || accessLevel !== 'black_box') return;
  if (plugins.some((id) => getProbe(id)?.access === 'black_box')) return;
  throw invalid(
    ['body', 'custom_plugins'],
    'These probes use what Warden knows of the agent: they run against an agent of grey_box or white_box access, not a black_box one or a bare URL',
    'value_error',
  );
}

const logText = (lines: ReadonlyArray<{ at: number; level: string; message: string }>) =>
  lines.map((line) => `${new Date(line.at).toISOString()} ${line.level.toUpperCase()} ${line.message}`).join('\n');

/** The most the plan can reach is checked here, where it can be known; the job checks the plan itself (campaign-job.ts). */
function checkCampaignSize(size: PlanSize): void {
  const most = mostPlanned(size);
  if (most.total > MAX_CAMPAIGN_ATTACKS) {
    throw invalid(
      ['body', 'num_tests'],
      `A campaign plans at most ${MAX_CAMPAIGN_ATTACKS} attacks, and this one can plan ${most.explained}; ` +
        'lower num_tests, the categories or the strategies, or split the campaign',
      'less_than_equal',
    );
  }
}

export function createRedteamService(deps: RedteamDeps) {
  const { db, now } = deps;

  /** The agent attacked and how: its access level and the Dome configuration in front of it. */
  async function resolveTarget(teamId: string, body: CreateCampaignBody, options: ReturnType<typeof parseOptions>) {
    let domeConfigId: string | null = null;
    if (options.dome_config_id !== null) {
      const config = await findConfig(db, options.dome_config_id);
      if (config === undefined || config.team_id !== teamId) {
        throw invalid(['body', 'provider_config', 'dome_config_id'], 'No Dome configuration with this id in this team', 'value_error');
      }
      domeConfigId = config.id;
    }
    if (body.agent_id == null) {
      if (body.agent_url == null) {
        throw invalid(['body', 'agent_id'], 'Give agent_id (an agent of the registry) or agent_url (an endpoint to attack)', 'missing');
      }
      if (!/^https?:\/\//i.test(body.agent_url)) throw invalid(['body', 'agent_url'], 'URL scheme should be http or https', 'url_scheme');
      return { agentId: null, url: body.agent_url, protocol: options.protocol, accessLevel: 'black_box', domeConfigId };
    }
    const agent = await findAgent(db, body.agent_id);
    if (agent === undefined || agent.team_id !== teamId) throw new AppError('not_found', 'Agent not found in this team');
    if (agent.agent_url === null || agent.agent_url.trim() === '') {
      throw conflict('The agent has no agent_url: set the URL Warden should call before attacking it');
    }
    if (body.agent_url != null && body.agent_url !== agent.agent_url) {
      throw invalid(['body', 'agent_url'], "agent_url differs from the agent's own URL: give agent_id or agent_url, not both", 'value_error');
    }
    if (domeConfigId === null && options.through_dome && agent.dome_config_id !== null) {
      const applied = await findConfig(db, agent.dome_config_id);
      if (applied !== undefined && applied.team_id === teamId) domeConfigId = applied.id;
    }
    return { agentId: agent.id, url: agent.agent_url, protocol: agent.protocol, accessLevel: agent.access_level, domeConfigId };
  }

  return {
    tools(principal: Principal) {
      requireAnywhere(principal, 'redteam:read');
      return [{ tool: TOOL, categories: [...ATTACK_CATEGORIES] }];
    },

    async create(principal: Principal, body: CreateCampaignBody) {
      requireAnywhere(principal, 'redteam:write');
      const teamId = resolveTeam(principal, body.team_id);
      authorize(principal, 'redteam:write', teamId, 'Team');
      checkTool(body.tool);
      const categories = [...new Set(body.categories)];
      const strategies = checkStrategies(body.strategies);
      const customPlugins = checkCustomPlugins(categories, body.custom_plugins);
      const options = parseOptions(body.provider_config as Record<string, unknown> | null | undefined);
      const target = await resolveTarget(teamId, body, options);
      const llm = deps.llm !== undefined;
      checkCampaignSize({ numTests: body.num_tests, categories, strategies: strategies.length, accessLevel: target.accessLevel, llm });
      checkRunnable(categories, customPlugins, target.accessLevel);
      // The seed and the configuration have columns of their own.
      const { seed, dome_config_id: _configId, ...rest } = options;
      // Whether the target is an agent of the registry: a deleted agent is not attacked as a bare URL.
      const stored = { ...rest, target: target.agentId === null ? 'url' : 'agent' };
      const id = newId();
      const at = now();
      const key = body.agent_api_key ?? '';
      await db.transaction().execute(async (trx) => {
        await repo.insertCampaign(trx, {
          id,
          team_id: teamId,
          created_by: principal.userId,
          tool: TOOL,
          agent_id: target.agentId,
          agent_url: target.url,
          agent_protocol: target.protocol,
          agent_api_key_enc: key === '' ? null : encryptSecret(deps.keys.agentSecrets, key),
          agent_model_name: body.agent_model_name ?? null,
          purpose: body.purpose,
          categories: JSON.stringify(categories),
          custom_plugins: customPlugins === null ? null : JSON.stringify(customPlugins),
          strategies: JSON.stringify(strategies),
          num_tests: body.num_tests,
          options: JSON.stringify(stored),
          access_level: target.accessLevel,
          seed,
          dome_config_id: target.domeConfigId,
          status: 'pending',
          status_message: QUEUED,
          error_message: null,
          job_id: null,
          cases: null,
          summary: null,
          suggestion: null,
          created_at: at,
          started_at: null,
          completed_at: null,
          updated_at: at,
        });
        const payload: CampaignJobPayload = { campaignId: id };
        // Slots are shared fairly between what jobs call: the agent, or the bare URL.
        const targetKey = (target.agentId ?? target.url)?.slice(0, 255) ?? null;
        const jobId = await enqueueJob(trx, { kind: CAMPAIGN_JOB, payload, teamId, subjectId: id, now: at, targetKey });
        await repo.updateCampaign(trx, id, { job_id: jobId });
      });
      return { campaign_id: id, status: 'pending' };
    },

    async get(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadCampaign(db, principal, id, teamId, 'redteam:read');
      const job = row.job_id === null ? undefined : await getJob(db, row.job_id);
      return toCampaignStatus(row, job);
    },

    /** Newest first: the team given, else every team of the caller where they may read campaigns. */
    async list(principal: Principal, query: { team_id?: string | undefined; limit: number; offset: number }) {
      requireAnywhere(principal, 'redteam:read');
      let teamIds: string[];
      if (query.team_id !== undefined) {
        authorize(principal, 'redteam:read', query.team_id, 'Team');
        teamIds = [query.team_id];
      } else {
        teamIds = [...principal.memberships.keys()].filter((team) => holds(principal, 'redteam:read', team));
      }
      const rows = await repo.listCampaigns(db, teamIds, query.limit, query.offset);
      return { campaigns: rows.map(toCampaignItem) };
    },

    /** Stops a campaign that has not ended: it is `cancelled` at once (its findings so far stay) and its job stops sending. */
    async cancel(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadCampaign(db, principal, id, teamId, 'redteam:write');
      const at = now();
      const changed = await repo.updateActive(db, row.id, { status: 'cancelled', status_message: 'Cancelled', completed_at: at, updated_at: at });
      if (!changed) throw conflict(`The campaign has already ended (${row.status})`);
      if (row.job_id !== null) await cancelJob(db, row.job_id);
      return { status: 'cancelled', campaign_id: row.id };
    },

    /** Deletes the campaign, its findings and its job (a running one stops). */
    async remove(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadCampaign(db, principal, id, teamId, 'redteam:write');
      await deleteWithJobs(db, row.id, { kind: CAMPAIGN_JOB, teamId: row.team_id }, (trx) => repo.deleteCampaign(trx, row.id));
      return { status: 'deleted', campaign_id: row.id };
    },

    /** The campaign's log, oldest line first: `time LEVEL message` per line. */
    async logs(principal: Principal, id: string, teamId: string | undefined, limit: number) {
      const row = await loadCampaign(db, principal, id, teamId, 'redteam:read');
      const lines = row.job_id === null ? [] : await listJobLogs(db, row.job_id, { limit });
      return { campaign_id: row.id, status: row.status, logs: logText(lines) };
    },
  };
}

export type RedteamService = ReturnType<typeof createRedteamService>;
