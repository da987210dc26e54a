import { agentTarget } from '../../connector/target.js';
import type { AgentCallError, AgentTarget, CallRateLimiter } from '../../connector/types.js';
import { openAgentKey } from '../../crypto/keys.js';
import { createVersionedMemo } from '../../db/versioned-memo.js';
import type { CompiledDomeConfig, ScanResult } from '../../guard/engine.js';
import type { Deps } from '../../deps.js';
import { notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, canSeeTeam, requireAnywhere } from '../auth/permissions.js';
import type { DomeService } from '../dome/dome.service.js';
import { refreshProtection } from '../dome/protection.js';
import { GatewayError, upstreamError } from './gateway.errors.js';
import * as repo from './gateway.repo.js';
import { nowNs, startCall, type CallRecorder } from './gateway.telemetry.js';
import type { OutputCheck } from './gateway.stream.js';

/**
 * What the chat-completions and A2A paths share (docs/gateway.md): the caller's right to the
 * agent, the agent's own limit, its applied Dome configuration's guards in the configuration's
 * mode, the connector's call with the agent's key, and the call's telemetry.
 */

export interface GatewayOptions {
  /** An agent silent this long answers 504. */
  timeoutMs: number;
  /** The agents' limits: Redis-backed when WARDEN_REDIS_URL is set, else the process's. */
  limiter: CallRateLimiter;
}

export type GatewayDeps = Pick<Deps, 'db' | 'keys' | 'now' | 'connector' | 'telemetry' | 'readVersion'>;

/** An answer of the gateway: one JSON body, or server-sent events written as they come. */
export type GatewayAnswer =
  | {
      kind: 'json';
      status: number;
      body: unknown;
      headers: Record<string, string>;
      /** `body` as JSON text already (an agent's answer passed on unchanged, `ForwardOk.raw`): sent as it is. */
      text?: string | undefined;
    }
  | { kind: 'events'; headers: Record<string, string>; frames: AsyncIterable<string>; firstByte(): void };

export interface GuardStep {
  /** The guard that blocked (enforce mode only), else null. */
  blockedBy: string | null;
  /** The text to send on: redacted where a redacting method hit (enforce mode), else as given. */
  text: string;
  changed: boolean;
}

/** The guard section that decided a scan: the first that blocked, else the first that flagged. */
function deciding(scan: ScanResult): string {
  const guards = Object.entries(scan.trace) as Array<[string, { triggered?: boolean; flagged?: boolean }]>;
  return (guards.find(([, g]) => g.triggered === true) ?? guards.find(([, g]) => g.flagged === true))?.[0] ?? scan.triggered_methods[0] ?? 'guard';
}

export function createGatewayCore(deps: GatewayDeps, options: GatewayOptions, dome: Pick<DomeService, 'guardOf'>) {
  const { db, now } = deps;
  const readVersion = deps.readVersion;
  /**
   * The agent, its applied configuration and its enforcement record, kept until a commit may
   * have changed one of their tables (docs/caching.md; SQLite only, where another process's
   * commit moves the version too). On PostgreSQL, where other processes commit unseen, there is
   * no memo: one query per call.
   */
  const agents = createVersionedMemo<repo.GatewayAgent | undefined>(readVersion && (() => readVersion(repo.GATEWAY_READS)), 10_000);
  const findAgent = (agentId: string) =>
    agents === undefined ? repo.findGatewayAgent(db, agentId) : agents.get(agentId, () => repo.findGatewayAgent(db, agentId));

  /**
   * The connector's target of a memoised agent (its key decrypted, its parameters read), kept with
   * that memo entry and dropped with it (a WeakMap on the entry: a new version of the agent's
   * tables gives a new entry, so a changed key is decrypted again). The key lives only here and in
   * the Authorization header, never in anything logged. Without a memo (PostgreSQL) every call
   * reads a new entry, so the key is decrypted per call.
   */
  const targets = new WeakMap<repo.GatewayAgent, { target: AgentTarget; host: string | undefined }>();
  function targetOf(found: repo.GatewayAgent) {
    let kept = targets.get(found);
    if (kept === undefined) {
      // The gateway admitted the call against the agent's limit: the connector does not count it again.
      const target = { ...agentTarget(found.agent, openAgentKey(deps.keys.agentSecrets, found.agent.api_key_enc)), rateLimitPerMinute: null };
      kept = { target, host: safeHost(found.agent.agent_url) };
      targets.set(found, kept);
    }
    return kept;
  }

  /**
   * Records which configuration the gateway enforces for the agent (null: none) and refreshes
   * its protection status, when that differs from the record read with the agent: written once
   * per change, never per call, and decided by the database's record, so that what another
   * process wrote (monitor mode removing the record) is seen.
   */
  async function noteEnforcement(found: repo.GatewayAgent, configId: string | null) {
    if (found.enforcedConfigId === configId) return;
    const { agent } = found;
    await db.transaction().execute(async (trx) => {
      if (configId === null) await repo.deleteEnforcement(trx, agent.id);
      else await repo.recordEnforcement(trx, { agent_id: agent.id, team_id: agent.team_id, dome_config_id: configId, enforced_at: now() });
      await refreshProtection(trx, agent.id, now());
    });
  }

  /**
   * The agent the caller may invoke, within its limit, with its guard. 403 without
   * `gateway:invoke`, 404 for an agent of a team the caller cannot see, 429 past the agent's
   * limit: the agent is never called for any of them.
   */
  async function open(principal: Principal, agentId: string, spanName: (agent: { model_name: string; agent_name: string }) => string) {
    requireAnywhere(principal, 'gateway:invoke');
    const found = await findAgent(agentId);
    if (found === undefined || !canSeeTeam(principal, found.agent.team_id)) throw notFound('Agent');
    const { agent, config } = found;
    authorize(principal, 'gateway:invoke', agent.team_id, 'Agent');
    let decision;
    try {
      decision = await options.limiter.tryAcquire(`agent:${agent.id}`, agent.rate_limit_requests_per_minute ?? 0);
    } catch {
      const message = "The agent's rate limit could not be checked, so the call was not made";
      throw new GatewayError(503, 'api_error', 'limit_unavailable', message, { 'retry-after': '1' });
    }
    if (!decision.ok) {
      const seconds = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      deps.telemetry.count('gateway_requests_total', { agent_configuration_id: agent.id, team_id: agent.team_id, status: '429' }, agent.team_id);
      throw new GatewayError(
        429,
        'rate_limit_error',
        'rate_limit_exceeded',
        `This agent takes ${agent.rate_limit_requests_per_minute} requests per minute: retry in ${seconds} s`,
        { 'retry-after': String(seconds) },
      );
    }
    const guard = config === undefined ? null : await dome.guardOf(agent.team_id, config);
    await noteEnforcement(found, guard !== null && guard.config.gateway.mode === 'enforce' ? config!.id : null);
    const { target, host } = targetOf(found);
    const recorder = startCall({
      telemetry: deps.telemetry,
      teamId: agent.team_id,
      agentId: agent.id,
      spanName: spanName(agent),
      attributes: { 'gen_ai.agent.id': agent.id, 'gen_ai.agent.name': agent.agent_name },
    });
    recorder.set('server.address', host);
    if (guard !== null) recorder.set('warden.guard.mode', guard.config.gateway.mode);
    return { agent, target, guard, recorder, connector: deps.connector };
  }

  /** One direction's scan in the configuration's mode: `monitor` records and passes everything as it is. */
  async function check(
    guard: { config: CompiledDomeConfig; scan(direction: 'input' | 'output', text: string): Promise<ScanResult> } | null,
    direction: 'input' | 'output',
    text: string,
    recorder: CallRecorder,
  ): Promise<GuardStep> {
    if (guard === null || (direction === 'input' ? guard.config.inputGuards : guard.config.outputGuards).length === 0) {
      return { blockedBy: null, text, changed: false };
    }
    const startedNs = nowNs();
    const scan = await guard.scan(direction, text);
    recorder.scanned(direction, scan, startedNs);
    if (guard.config.gateway.mode === 'monitor' || !scan.flagged) return { blockedBy: null, text, changed: false };
    if (scan.enforced) {
      const name = deciding(scan);
      recorder.blocked(direction, name);
      return { blockedBy: name, text: guard.config.blockedMessages[direction], changed: false };
    }
    return { blockedBy: null, text: scan.response_string, changed: scan.response_string !== text };
  }

  const outputCheck =
    (guard: Parameters<typeof check>[0], recorder: CallRecorder) =>
    (text: string): Promise<OutputCheck> =>
      check(guard, 'output', text, recorder);

  function failed(recorder: CallRecorder, failure: AgentCallError): GatewayError {
    const error = upstreamError(failure, options.timeoutMs);
    recorder.end(error.status, error.message);
    return error;
  }

  /** The connector's answer, or the call ended with the agent's failure as a 502 / 504. */
  async function forwardOrFail<T extends { ok: true }>(recorder: CallRecorder, call: () => Promise<T | AgentCallError>): Promise<T> {
    const result = await call();
    if (!result.ok) throw failed(recorder, result);
    return result;
  }

  return {
    open,
    findAgent,
    check,
    outputCheck,
    forwardOrFail,
    describeFailure: (failure: AgentCallError) => upstreamError(failure, options.timeoutMs).message,
    firstByte: (recorder: CallRecorder) => recorder.firstByte(),
    timeoutMs: options.timeoutMs,
    now,
  };
}

export type GatewayCore = ReturnType<typeof createGatewayCore>;

function safeHost(url: string | null): string | undefined {
  try {
    return url === null ? undefined : new URL(url).host;
  } catch {
    return undefined;
  }
}
