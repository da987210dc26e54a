import type { Kysely, Updateable } from 'kysely';
import type { LlmConfig } from '../../../config.js';
import type { AgentConnector, AgentTarget } from '../../../connector/types.js';
import type { DB, RedteamCampaignsTable } from '../../../db/schema.js';
import { compileDomeConfig, runDetection } from '../../../guard/engine.js';
import { MAX_RETRY_AFTER_IN_SLOT_MS } from '../../../jobs/dispatch.js';
import type { JobContext, JobHandler } from '../../../jobs/types.js';
import { configuredModel } from '../../../llm/client.js';
import { CANDIDATE_GUARDS, candidateConfig, guardedExchange, type GuardScanner } from '../../../redteam/guard.js';
import { judge } from '../../../redteam/judge.js';
import { crescendoSteer } from '../../../redteam/llm.js';
import { planAttacks } from '../../../redteam/plan.js';
import type { AttackRunner } from '../../../redteam/run-attack.js';
import { MAX_STATIC_FINDINGS } from '../../../redteam/static-analysis.js';
import { modelJudge } from '../../../verdict/index.js';
import type { AttackCase, SendTurns } from '../../../redteam/types.js';
import { createGuardContexts } from '../../dome/guard-context.js';
import { configBodyOf, findConfig } from '../../dome/dome.repo.js';
import { DEFAULT_OPTIONS } from '../options.js';
import { campaignColumns, findCampaign, insertFindings, storedAttackIds, updateActiveOf, ACTIVE_STATUSES, type CampaignRow } from '../redteam.repo.js';
import { attackAll, clip } from './attack-loop.js';
import { findingWriter } from './findings.js';
import { completeCampaign } from './outcome.js';
import { MAX_CAMPAIGN_ATTACKS, planCampaign } from './planning.js';
import { runStaticPass } from './static-pass.js';
import { campaignTarget } from './target.js';
import { Type } from 'typebox';

export const CAMPAIGN_JOB = 'redteam-campaign';

export interface CampaignJobPayload {
  campaignId: string;
}

export interface CampaignRunOptions {
  db: Kysely<DB>;
  /** The key that seals agents' and campaigns' API keys (ServiceKeys.agentSecrets): keys are opened here only. */
  agentSecrets: Buffer;
  connector: AgentConnector;
  llm?: LlmConfig | undefined;
  /** Epoch seconds. */
  now: () => number;
  /** Attacks in flight at once per campaign (the agent's rate ceiling applies on top, in the connector). */
  concurrency: number;
  /** Findings per write, and the longest a finding waits to be written (ms). */
  batchSize?: number;
  batchIntervalMs?: number;
}

/**
 * The job that runs a campaign (docs/redteam.md, "How a campaign runs"): plans the attacks (or
 * reads the plan a previous run stored), skips attacks already stored, sends the others a few
 * at a time through the agent's guard when one is applied, judges each answer, says which
 * guard would have caught each successful attack, runs the white-box pass, and completes the
 * campaign with its numbers and a suggested Dome configuration. Resumed after a restart.
 */
export function createCampaignJob(options: CampaignRunOptions): JobHandler<CampaignJobPayload> {
  const { db, now } = options;
  const contexts = createGuardContexts({ db, llm: options.llm });
  /** The configured model (two minutes per call by default): the attacker, the steerer, the judge and the guards' LLM methods. */
  const llm = configuredModel(options.llm);
  const detectorModel = llm;

  /** The Dome configuration the campaign goes through, compiled and bound to the team's scan context. */
  async function guardOf(campaign: CampaignRow, signal: AbortSignal): Promise<{ scan: GuardScanner; source: Record<string, unknown> } | null> {
    if (campaign.dome_config_id === null) return null;
    const row = await findConfig(db, campaign.dome_config_id);
    if (row === undefined) throw new Error('The Dome configuration the campaign was to run through was deleted');
    const compiled = compileDomeConfig(configBodyOf(row), { llmAvailable: options.llm !== undefined });
    const context = await contexts.forScan(row.team_id, compiled.usesPolicyRules);
    return { scan: (direction, text) => compiled.scan(direction, text, { ...context, signal }), source: compiled.source };
  }

  /** The catalogue's candidate guards, each compiled alone (those that need a model only with one). */
  function candidateScanners(signal: AbortSignal) {
    return CANDIDATE_GUARDS.filter((c) => !c.needsLlm || options.llm !== undefined).map((candidate) => {
      const compiled = compileDomeConfig(candidateConfig(candidate), { llmAvailable: options.llm !== undefined });
      const scan: GuardScanner = (direction, text) => compiled.scan(direction, text, { llm: detectorModel, signal });
      return { candidate, scan };
    });
  }

  async function run(context: JobContext<CampaignJobPayload>): Promise<void> {
    const { signal } = context;
    const campaign = await findCampaign(db, context.payload.campaignId);
    // Deleted, or cancelled before a worker took it: nothing to do.
    if (campaign === undefined || !(ACTIVE_STATUSES as readonly string[]).includes(campaign.status) || campaign.job_id !== context.id) return;
    /** Every write of the run: only while it holds its job and the campaign still runs that job. */
    const update = (patch: Updateable<RedteamCampaignsTable>) => context.fenced((trx) => updateActiveOf(trx, campaign.id, context.id, patch));
    const columns = campaignColumns(campaign);
    const settings = { ...DEFAULT_OPTIONS, ...columns.options, seed: campaign.seed, dome_config_id: campaign.dome_config_id };
    const resolved = await campaignTarget(db, options.agentSecrets, campaign, settings);
    const { knowledge, source } = resolved;
    // Every call of the campaign is recorded in telemetry with its campaign (src/connector/recorded.ts).
    const labels: Record<string, string> = { campaign_id: campaign.id, ...(campaign.agent_id === null ? {} : { agent_configuration_id: campaign.agent_id }) };
    const target: AgentTarget = { ...resolved.target, telemetry: { teamId: campaign.team_id, labels } };
    const startedAt = campaign.started_at ?? now();
    const running = { status: 'running', started_at: startedAt, status_message: 'Planning the attacks', updated_at: now() };
    if (!(await update(running))) return;

    const log = (line: string, level: 'info' | 'warn' = 'info') => void context.log(line, level);
    let cases: AttackCase[];
    if (columns.cases !== null) cases = columns.cases;
    else {
      cases = await planCampaign(campaign, columns, knowledge, llm, signal, log);
      if (!(await update({ cases: JSON.stringify(cases), updated_at: now() }))) return;
    }
    const attacks = planAttacks(cases, columns.strategies, campaign.seed);
    // The creation checked the most the plan could reach; what was planned is checked here (a
    // language model configured since, or a campaign stored before that check).
    const planned = attacks.length + (source === null ? 0 : MAX_STATIC_FINDINGS);
    if (planned > MAX_CAMPAIGN_ATTACKS) {
      throw new Error(
        `The plan has ${attacks.length} attacks${source === null ? '' : ` and up to ${MAX_STATIC_FINDINGS} white-box findings`}, ` +
          `more than the ${MAX_CAMPAIGN_ATTACKS} a campaign may plan: lower num_tests, the categories or the strategies, or split the campaign`,
      );
    }
    const stored = await storedAttackIds(db, campaign.id);
    const queue = attacks.map((attack, seq) => ({ attack, seq })).filter(({ attack }) => !stored.has(attack.id));
    const total = attacks.length + (source === null ? 0 : 3);
    let done = [...stored].filter((id) => !id.startsWith('static:')).length;
    const strategies = columns.strategies.length;
    const resumed = done ? `; ${done} already done` : '';
    log(`Planned ${attacks.length} attacks (${cases.length} cases × ${strategies} strategies), seed ${campaign.seed}${resumed}`);

    const guard = await guardOf(campaign, signal);
    if (guard) log(`Attacks go through the Dome configuration ${campaign.dome_config_id}, as Warden's gateway would send them`);
    const send: SendTurns = async (turns, sendOptions) => {
      // A longer Retry-After is not waited in the job's slot: the attack loop gives the slot back (docs/jobs.md, "Deferral").
      const result = await options.connector.send(target, turns, { ...sendOptions, maxRetryAfterMs: MAX_RETRY_AFTER_IN_SLOT_MS });
      if (result.ok) return { ok: true, text: result.text, contextId: result.contextId, toolCalls: result.toolCalls };
      return { ok: false, error: result.error, kind: result.kind, status: result.status, retryAfterMs: result.retryAfterMs };
    };
    const judgeContext = {
      systemPrompt: target.systemPrompt ?? null,
      detect: (method: string, text: string, params: Record<string, unknown> = {}) => runDetection(method, text, params, { llm: detectorModel, signal }),
    };
    const runner: AttackRunner = {
      exchange: guardedExchange(send, guard?.scan),
      // Where the check can only guess, the model judges as it judges an evaluation's prompts (the verdict engine's model-judge).
      judge: (goal, answer, { prompt, signal: judgeSignal, toolCalls }) =>
        judge(goal, { text: answer, toolCalls }, { ...judgeContext, judge: modelJudge(llm, judgeSignal) }, prompt),
      steer: llm ? crescendoSteer(llm) : undefined,
      bestOfN: settings.best_of_n,
      crescendoTurns: settings.crescendo_turns,
    };

    if (!(await update({ status_message: `Attacking (${total} attacks and checks)`, updated_at: now() }))) return;
    const writer = findingWriter(context.fenced, {
      campaignId: campaign.id,
      jobId: context.id,
      now,
      size: options.batchSize ?? 25,
      intervalMs: options.batchIntervalMs ?? 500,
      onWritten: (count) => {
        done += count;
        void context.progress({ done, total, message: `${done} of ${total} attacks` });
      },
    });
    void context.progress({ done, total, message: `${done} of ${total} attacks` });
    const outcome = await attackAll({
      campaignId: campaign.id,
      queue,
      runner,
      candidates: candidateScanners(signal),
      concurrency: options.concurrency,
      answeredBefore: stored.size > 0,
      writer,
      now,
      log,
      context,
    });
    if (signal.aborted) {
      // Given back until the agent's Retry-After: says so until a worker resumes it (the findings stored stay).
      if (signal.reason === 'deferred') {
        const waiting = `Waiting at ${done} of ${total} attacks: the agent asked to retry later; resumes then`;
        await update({ status_message: waiting, updated_at: now() }).catch(() => false);
      }
      return;
    }
    // Cancelled or deleted while it ran: what was stored stays, nothing else is written.
    if (writer.stopped) return;
    if (!outcome.answered && outcome.firstError !== undefined) {
      throw new Error(`No attack got an answer from the agent: ${clip(outcome.firstError)}`);
    }

    const save = (rows: Parameters<typeof insertFindings>[1], at: number) =>
      context.fenced(async (trx) => {
        if (!(await updateActiveOf(trx, campaign.id, context.id, { updated_at: at }))) return false;
        await insertFindings(trx, rows);
        return true;
      });
    const white = source === null ? null : await runStaticPass(save, campaign.id, source, attacks.length, stored, now, log);
    if (white) void context.progress({ done: total, total, message: `${total} of ${total}` });
    const current = await findCampaign(db, campaign.id);
    if (current === undefined) return;
    await completeCampaign(db, current, {
      at: now(),
      applied: guard?.source ?? null,
      llmAvailable: options.llm !== undefined,
      extra: white === null ? {} : { white_box: white },
      log,
      update,
    });
  }

  return {
    kind: CAMPAIGN_JOB,
    payload: Type.Object({ campaignId: Type.String() }),
    onInterrupted: 'resume',
    run,
    async onEnded({ id, payload, status, reason }, trx) {
      const at = now();
      // Conditional (not ended, still running this job): a cancel or a completion that committed first stands.
      await updateActiveOf(trx, payload.campaignId, id, {
        status,
        status_message: status === 'failed' ? 'Failed' : 'Cancelled',
        error_message: status === 'failed' ? reason : null,
        completed_at: at,
        updated_at: at,
      });
    },
  };
}
