import { createHash } from 'node:crypto';
import type { Deps } from '../../deps.js';
import { compileDomeConfig, DEFAULT_DOME_CONFIG, maskConfigSecrets, type CompiledDomeConfig } from '../../guard/engine.js';
import { GuardConfigError } from '../../guard/types.js';
import { AppError, invalid, notFound } from '../../http/errors.js';
import { newId } from '../../ids.js';
import { recordGuardScan } from '../../telemetry/guard-scan.js';
import { clockMs } from '../../telemetry/recorder.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import { agentsApplyingConfig, findAgent, updateAgent } from '../agents/agents.repo.js';
import { createGuardContexts } from './guard-context.js';
import { toConstraints, toDomeConfig, toExternalDomeConfig } from './dome.mapping.js';
import * as repo from './dome.repo.js';
import type { DomeConfigRow } from './dome.repo.js';
import type { DomeConfigListQueryIn } from './dome.schemas.js';
import { refreshProtection } from './protection.js';

type DomeDeps = Pick<Deps, 'db' | 'now' | 'llm' | 'telemetry' | 'readVersion'>;

/** A saved configuration is at most this big, as JSON (a Dome configuration is a few KB). */
const MAX_CONFIG_BYTES = 256 * 1024;
const COMPILED_CACHE_ENTRIES = 200;

/** A configuration that does not compile is a 422 at its key, under `body.config_body`. */
function compileOrInvalid(body: unknown, llmAvailable: boolean): CompiledDomeConfig {
  if (JSON.stringify(body).length > MAX_CONFIG_BYTES) {
    throw invalid(['body', 'config_body'], `A Dome configuration is at most ${MAX_CONFIG_BYTES / 1024} KiB of JSON`, 'too_long');
  }
  try {
    return compileDomeConfig(body, { llmAvailable });
  } catch (error) {
    if (error instanceof GuardConfigError) throw invalid(['body', 'config_body', ...error.path], error.message, error.type);
    throw error;
  }
}

export function createDomeService(deps: DomeDeps) {
  const { db, now } = deps;
  const llmAvailable = deps.llm !== undefined;
  const contexts = createGuardContexts(deps);
  /**
   * Compiled scanners by configuration id and a hash of the stored configuration: a scan does not
   * parse the configuration again, and a replacement is seen at once, even within the second of the
   * last write (`updated_at` has a resolution of one second, so it cannot be the version).
   */
  const compiled = new Map<string, { version: string; config: CompiledDomeConfig }>();

  function compiledOf(row: Pick<DomeConfigRow, 'id' | 'config_body'>): CompiledDomeConfig {
    const version = createHash('sha256').update(row.config_body).digest('base64');
    const known = compiled.get(row.id);
    if (known !== undefined && known.version === version) return known.config;
    const config = compileOrInvalid(repo.configBodyOf(row), llmAvailable);
    compiled.delete(row.id);
    compiled.set(row.id, { version, config });
    if (compiled.size > COMPILED_CACHE_ENTRIES) compiled.delete(compiled.keys().next().value as string);
    return config;
  }

  /**
   * A configuration the caller may act on. `team_id` (the reference requires it; Warden takes it
   * as a filter) must be the configuration's team when given; another team's answers 404.
   */
  async function loadConfig(principal: Principal, id: string, teamId: string | undefined, permission: 'guardrail:read' | 'guardrail:write') {
    requireAnywhere(principal, permission);
    if (teamId !== undefined && !canSeeTeam(principal, teamId)) throw notFound('Dome configuration');
    const row = await repo.findConfig(db, id);
    if (row === undefined || (teamId !== undefined && row.team_id !== teamId)) throw notFound('Dome configuration');
    authorize(principal, permission, row.team_id, 'Dome configuration');
    return row;
  }

  /** The agent, which must belong to `teamId` (404 otherwise, as for an agent of a team the caller cannot see). */
  async function agentOfTeam(agentId: string, teamId: string, loc: Array<string | number>) {
    const agent = await findAgent(db, agentId);
    if (agent === undefined || agent.team_id !== teamId) {
      throw new AppError('not_found', `Agent not found in this team (${loc.join('.')})`);
    }
    return agent;
  }

  return {
    defaultConfig: () => structuredClone(DEFAULT_DOME_CONFIG),

    /**
     * An applied configuration's scanner for Warden's gateway (compiled once per version, as for
     * scans), bound to the team's detector context. The caller has checked its own permission.
     */
    async guardOf(teamId: string, row: Pick<DomeConfigRow, 'id' | 'config_body'>) {
      const config = compiledOf(row);
      const context = await contexts.forScan(teamId, config.usesPolicyRules);
      return { config, scan: (direction: 'input' | 'output', text: string) => config.scan(direction, text, context) };
    },

    async create(principal: Principal, teamIdParam: string | undefined, body: { config_body?: object | null; agent_id?: string | null }) {
      requireAnywhere(principal, 'guardrail:write');
      const teamId = resolveTeam(principal, teamIdParam);
      authorize(principal, 'guardrail:write', teamId, 'Team');
      // Dome's credential parameters (`api_key`, AWS keys) are never used by Warden: never stored either.
      const source = maskConfigSecrets(body.config_body ?? structuredClone(DEFAULT_DOME_CONFIG));
      compileOrInvalid(source, llmAvailable);
      if (body.agent_id != null) await agentOfTeam(body.agent_id, teamId, ['body', 'agent_id']);
      const at = now();
      const row: DomeConfigRow = {
        id: newId(),
        team_id: teamId,
        agent_id: body.agent_id ?? null,
        status: 'pending',
        config_body: JSON.stringify(source),
        dome_instance_url: null,
        created_by: principal.userId,
        created_at: at,
        updated_by: null,
        updated_at: null,
      };
      await repo.insertConfig(db, row);
      return toDomeConfig(row);
    },

    async list(principal: Principal, query: DomeConfigListQueryIn) {
      requireAnywhere(principal, 'guardrail:read');
      const teamId = resolveTeam(principal, query.team_id);
      authorize(principal, 'guardrail:read', teamId, 'Team');
      const filter = { teamId, agentId: query.agent_id };
      const [rows, count] = await Promise.all([repo.listConfigs(db, filter, query.limit, query.offset), repo.countConfigs(db, filter)]);
      return { dome_configs: rows.map(toDomeConfig), count };
    },

    async get(principal: Principal, id: string, teamId: string | undefined) {
      return toDomeConfig(await loadConfig(principal, id, teamId, 'guardrail:read'));
    },

    /** Replaces the body; an applied configuration takes effect at once (scans compile the new one). */
    async replace(principal: Principal, id: string, teamId: string | undefined, configBody: object) {
      const row = await loadConfig(principal, id, teamId, 'guardrail:write');
      const source = maskConfigSecrets(configBody);
      compileOrInvalid(source, llmAvailable);
      const updated = await repo.updateConfig(db, row.id, { config_body: JSON.stringify(source), updated_at: now(), updated_by: principal.userId });
      if (updated === undefined) throw notFound('Dome configuration');
      return toDomeConfig(updated);
    },

    /**
     * Sets or clears the Dome instance URL. On a configuration applied to its agent this is the
     * agent's Dome instance, as a registration would record it: the agent's protection follows.
     */
    async patch(principal: Principal, id: string, teamId: string | undefined, url: string | null) {
      const row = await loadConfig(principal, id, teamId, 'guardrail:write');
      const at = now();
      return db.transaction().execute(async (trx) => {
        const updated = await repo.updateConfig(trx, row.id, { dome_instance_url: url, updated_at: at, updated_by: principal.userId });
        if (updated === undefined) throw notFound('Dome configuration');
        if (updated.agent_id !== null && updated.status === 'applied') {
          if (url === null) await repo.deleteInstance(trx, updated.agent_id);
          else {
            await repo.upsertInstance(trx, {
              agent_id: updated.agent_id,
              team_id: updated.team_id,
              dome_url: url,
              registered_by: principal.userId,
              registered_at: at,
            });
          }
          await refreshProtection(trx, updated.agent_id, at);
        }
        return toDomeConfig(updated);
      });
    },

    /** Deletes it; agents that applied it lose it (`dome_config_id` null, protection recomputed). */
    async remove(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadConfig(principal, id, teamId, 'guardrail:write');
      const at = now();
      await db.transaction().execute(async (trx) => {
        const applying = await agentsApplyingConfig(trx, row.team_id, row.id);
        await repo.deleteConfig(trx, row.id);
        for (const agent of applying) {
          await updateAgent(trx, agent.id, { dome_config_id: null, updated_at: at });
          await refreshProtection(trx, agent.id, at);
        }
      });
      compiled.delete(row.id);
    },

    /**
     * Applies the configuration to the agent it is bound to: the agent's `dome_config_id` names
     * it, its `protection_status` becomes `configured` (or stays `domed` while a Dome instance is
     * registered), and any other configuration applied to that agent goes back to pending.
     */
    async apply(principal: Principal, id: string, teamId: string | undefined) {
      const row = await loadConfig(principal, id, teamId, 'guardrail:write');
      if (row.agent_id === null) {
        throw new AppError('conflict', 'This configuration is bound to no agent: create it with agent_id to apply it');
      }
      compiledOf(row);
      const agentId = row.agent_id;
      const at = now();
      return db.transaction().execute(async (trx) => {
        const agent = await findAgent(trx, agentId);
        if (agent === undefined || agent.team_id !== row.team_id) throw notFound('Agent');
        const instance = await repo.findInstance(trx, agentId);
        const updated = await repo.updateConfig(trx, row.id, {
          status: 'applied',
          dome_instance_url: instance?.dome_url ?? row.dome_instance_url,
          updated_at: at,
          updated_by: principal.userId,
        });
        if (updated === undefined) throw notFound('Dome configuration');
        await repo.unapplyOthers(trx, agentId, row.id);
        await updateAgent(trx, agentId, { dome_config_id: row.id, updated_at: at });
        await refreshProtection(trx, agentId, at);
        return toDomeConfig(updated);
      });
    },

    /** Runs the configuration's input or output guards on a text (the guard as a service). */
    async scan(principal: Principal, id: string, teamId: string | undefined, direction: 'input' | 'output', text: string) {
      const row = await loadConfig(principal, id, teamId, 'guardrail:read');
      const config = compiledOf(row);
      const context = await contexts.forScan(row.team_id, config.usesPolicyRules);
      const startNs = BigInt(clockMs(now)()) * 1_000_000n;
      const started = performance.now();
      const result = await config.scan(direction, text, context);
      recordGuardScan(deps.telemetry, {
        direction,
        flagged: result.flagged,
        score: result.detection_score,
        triggered: result.triggered_methods,
        startNs,
        seconds: (performance.now() - started) / 1000,
        teamId: row.team_id,
        labels: row.agent_id === null ? { dome_config_id: row.id } : { agent_configuration_id: row.agent_id, dome_config_id: row.id },
      });
      return result;
    },

    /**
     * The configuration the agent uses: the one applied to it (`dome_config_id`), else the newest
     * bound to it; an id Warden does not hold is answered as a pending, empty configuration.
     */
    async agentConfig(principal: Principal, agentId: string, teamId: string) {
      requireAnywhere(principal, 'guardrail:read');
      authorize(principal, 'guardrail:read', teamId, 'Team');
      const agent = await agentOfTeam(agentId, teamId, ['path', 'agent_id']);
      if (agent.dome_config_id !== null) {
        const applied = await repo.findConfig(db, agent.dome_config_id);
        if (applied !== undefined && applied.team_id === teamId) return toDomeConfig(applied);
      }
      const bound = await repo.newestBoundConfig(db, agentId);
      if (bound !== undefined) return toDomeConfig(bound);
      if (agent.dome_config_id !== null) return toExternalDomeConfig({ ...agent, dome_config_id: agent.dome_config_id });
      throw notFound('Dome configuration of this agent');
    },

    async constraints(principal: Principal, agentId: string) {
      requireAnywhere(principal, 'agent:read');
      const agent = await findAgent(db, agentId);
      if (agent === undefined) throw notFound('Agent');
      authorize(principal, 'agent:read', agent.team_id, 'Agent');
      const applied = agent.dome_config_id === null ? undefined : await repo.findConfig(db, agent.dome_config_id);
      return toConstraints(agent, applied?.team_id === agent.team_id ? applied : undefined);
    },

    /**
     * A Dome instance says it protects the agent (called by Dome on every start): the URL is kept
     * for the agent and on the configuration applied to it, and the agent becomes `domed`.
     * Idempotent: a second call overwrites the URL.
     */
    async registerDome(principal: Principal, body: { agent_id: string; team_id: string; dome_url: string }) {
      requireAnywhere(principal, 'guardrail:write');
      authorize(principal, 'guardrail:write', body.team_id, 'Team');
      const agent = await agentOfTeam(body.agent_id, body.team_id, ['body', 'agent_id']);
      const at = now();
      await db.transaction().execute(async (trx) => {
        await repo.upsertInstance(trx, {
          agent_id: agent.id,
          team_id: body.team_id,
          dome_url: body.dome_url,
          registered_by: principal.userId,
          registered_at: at,
        });
        if (agent.dome_config_id !== null) {
          await repo.setInstanceUrl(trx, agent.dome_config_id, body.team_id, body.dome_url, at);
        }
        await refreshProtection(trx, agent.id, at);
      });
      return { status: 'ok', agent_id: agent.id, team_id: body.team_id, dome_url: body.dome_url };
    },
  };
}

export type DomeService = ReturnType<typeof createDomeService>;
