import type { Kysely } from 'kysely';
import type { LlmConfig } from '../../../config.js';
import { agentTarget } from '../../../connector/target.js';
import type { AgentConnector, AgentTarget } from '../../../connector/types.js';
import { openAgentKey } from '../../../crypto/keys.js';
import type { DB } from '../../../db/schema.js';
import { scorePairs, scorePrompt, unreachableVerdict } from '../../../evaluation/scoring.js';
import type { PromptVerdict, ScoringContext } from '../../../evaluation/types.js';
import { deadAgentWatch } from '../../../jobs/dead-agent.js';
import { MAX_RETRY_AFTER_IN_SLOT_MS } from '../../../jobs/dispatch.js';
import { runPipeline, type UnitScope } from '../../../jobs/pipeline.js';
import type { JobContext, JobHandler } from '../../../jobs/types.js';
import { findAgent } from '../../agents/agents.repo.js';
import { countResults, findEvaluation, storedPromptIds, updateRunOf, type NewResult } from '../evaluations.repo.js';
import { boundResultTexts } from '../result-bounds.js';
import { completeRun } from './complete.js';
import { converse, type ConversationResult } from './converse.js';
import { cancelledMessage, failedMessage, PLANNING_MESSAGE, progressMessage } from './messages.js';
import { buildPlan, unitsOf, type PlannedPrompt, type Unit } from './plan.js';
import { createResultBatches, type ResultBatches } from './result-batches.js';
import { scoringContext } from './scoring-context.js';
import { Type } from 'typebox';

export const EVALUATION_JOB = 'evaluation';

export interface EvaluationJobPayload {
  evaluationId: string;
}

export interface EvaluationRunOptions {
  db: Kysely<DB>;
  /** The key that seals agents' API keys (ServiceKeys.agentSecrets): the key is opened here only. */
  agentSecrets: Buffer;
  connector: AgentConnector;
  llm?: LlmConfig | undefined;
  /** Epoch seconds. */
  now: () => number;
  /** Prompts in flight at once per evaluation (the agent's rate ceiling applies on top, in the connector). */
  concurrency: number;
  /** Results per write, and the longest a result waits to be written (ms). */
  batchSize?: number;
  batchIntervalMs?: number;
}

/** Agent errors written to the run's log, so that a failing agent does not flood it. */
const MAX_LOGGED_ERRORS = 20;

/**
 * The job that runs an evaluation (docs/evaluations.md, "Running an evaluation"): plans the
 * prompts, skips those already stored, sends the rest to the agent a bounded number at a time
 * with the job's signal, scores each answer, writes results in batches, and on completion
 * scores the run and writes the evidence back to the agent. Resumed after a restart.
 */
export function createEvaluationJob(options: EvaluationRunOptions): JobHandler<EvaluationJobPayload> {
  const { db, now } = options;
  const batchSize = options.batchSize ?? 200;
  const batchIntervalMs = options.batchIntervalMs ?? 500;

  async function run(context: JobContext<EvaluationJobPayload>): Promise<void> {
    const { signal } = context;
    const evaluation = await findEvaluation(db, context.payload.evaluationId);
    // Deleted (perhaps re-created under the same id, with another job), or cancelled before a worker took it: nothing to do.
    if (evaluation === undefined || evaluation.status !== 'running' || evaluation.job_id !== context.id) return;
    const agent = await findAgent(db, evaluation.agent_id);
    if (agent === undefined) throw new Error('The agent was deleted');
    const target: AgentTarget = {
      ...agentTarget(agent, openAgentKey(options.agentSecrets, agent.api_key_enc)),
      // Every call of the run is recorded in telemetry with its evaluation (src/connector/recorded.ts).
      telemetry: { teamId: evaluation.team_id, labels: { evaluation_id: evaluation.id, agent_configuration_id: agent.id }, agentName: agent.agent_name },
    };
    /** Every write of the run: only while it holds its job and the evaluation still runs that job. */
    const update = (patch: Parameters<typeof updateRunOf>[3]) => context.fenced((trx) => updateRunOf(trx, evaluation.id, context.id, patch));

    if (evaluation.started_at === null && !(await update({ started_at: now(), status_message: PLANNING_MESSAGE }))) return;
    const plan = await buildPlan(db, evaluation);
    const total = plan.prompts.length;
    if (total === 0) throw new Error('The harnesses chosen hold no prompts');
    const stored = await storedPromptIds(db, evaluation.id);
    const storedErrors = stored.size === 0 ? 0 : await countResults(db, { evaluationId: evaluation.id, errors: true });
    const units = unitsOf(plan.prompts).filter((unit) => !unit.some((prompt) => stored.has(prompt.id)));
    const message = progressMessage(stored.size, total, storedErrors);
    if (!(await update({ progress_total: total, progress_done: stored.size, status_message: message }))) return;
    const perHarness = [...plan.harnesses.keys()].map((h) => `${h} ${plan.prompts.filter((p) => p.harness === h).length}`).join(', ');
    await context.log(`Planned ${total} prompts (${perHarness}), seed ${evaluation.seed}${stored.size > 0 ? `; ${stored.size} already stored` : ''}`);

    const batches = createResultBatches({
      fenced: context.fenced,
      evaluationId: evaluation.id,
      jobId: context.id,
      total,
      done: stored.size,
      errors: storedErrors,
      size: batchSize,
      intervalMs: batchIntervalMs,
      onWritten: (done, all, errors) => void context.progress({ done, total: all, message: progressMessage(done, all, errors) }),
    });
    let loggedErrors = 0;
    // The first prompts all failing without one answer, or later as many in a row, end the run (the jobs' shared rule).
    const deadAgent = deadAgentWatch({ noun: 'prompt', answeredBefore: stored.size > storedErrors });
    const logError = (prompt: PlannedPrompt, error: string) => {
      if (loggedErrors++ < MAX_LOGGED_ERRORS) void context.log(`${prompt.id}: ${error}`, 'warn');
    };

    await runPipeline({
      context,
      units,
      concurrency: options.concurrency,
      send: (unit, scope) => runUnit(unit, { target, scope, systemPrompt: agent.agent_system_prompt, evaluationId: evaluation.id, logError }),
      // A unit failed without an answer when none of its prompts got one (a scoring error is an answer).
      check: (rows) => {
        const failed = rows.every((row) => row.error != null);
        const dead = deadAgent.record(failed ? (rows[0]?.error ?? 'no answer') : null);
        if (dead !== undefined) throw dead;
      },
      writer: batches,
    });
    if (signal.aborted) {
      if (signal.reason === 'shutdown') await update({ status_message: pausedMessage(batches) }).catch(() => false);
      if (signal.reason === 'deferred') await update({ status_message: waitingMessage(batches) }).catch(() => false);
      throw new Error(`stopped (${String(signal.reason)})`);
    }
    // Cancelled or deleted while it ran: what was stored stays, nothing else is written.
    if (batches.stopped) return;
    if (loggedErrors > MAX_LOGGED_ERRORS) await context.log(`${loggedErrors - MAX_LOGGED_ERRORS} more agent errors not logged`, 'warn');
    const completed = await completeRun(db, context.fenced, { evaluation, jobId: context.id }, plan, now());
    await context.log(completed ? `Completed: ${batches.done} prompts, ${batches.errors} errors` : 'The evaluation stopped before its scores were written');
  }

  /** A run stopped by a restart says so until a worker resumes it. */
  const pausedMessage = (batches: ResultBatches) => `Paused by a restart at ${batches.done} prompts: resumes when a worker is free`;
  /** A run whose agent asked to wait says so until it resumes. */
  const waitingMessage = (batches: ResultBatches) => `Waiting at ${batches.done} prompts: the agent asked to retry later; resumes then`;

  interface RunScope {
    target: AgentTarget;
    /** The pipeline's scope of the unit: its signal, and whether a failed call holds it back. */
    scope: UnitScope;
    systemPrompt: string | null;
    evaluationId: string;
    logError(prompt: PlannedPrompt, error: string): void;
  }

  /**
   * Sends a unit's prompts and scores them; null when the run was stopped during a call. A call
   * the pipeline holds back (the agent still answered 429, or asked to wait long) ends the unit:
   * nothing of it is kept, it is sent again.
   */
  async function runUnit(unit: Unit, run: RunScope): Promise<NewResult[] | null> {
    const { scope } = run;
    const answers: Array<{ prompt: PlannedPrompt; answer: ConversationResult }> = [];
    for (const prompt of unit) {
      const answer = await converse(options.connector, run.target, prompt.turns, scope.signal, MAX_RETRY_AFTER_IN_SLOT_MS);
      if (!answer.ok && answer.kind === 'cancelled') return null;
      if (!answer.ok && scope.holdsBack(answer)) return null;
      answers.push({ prompt, answer });
    }
    const scoring = scoringContext(options.llm, run.systemPrompt, scope.signal);
    const verdicts = new Map<string, PromptVerdict>();
    for (const { prompt, answer } of answers) {
      if (!answer.ok) run.logError(prompt, answer.error);
      verdicts.set(prompt.id, answer.ok ? await safeVerdict(prompt, answer.text, scoring) : unreachableVerdict(answer.error));
    }
    if (unit[0]?.expect.kind === 'consistent') {
      const members = answers.map(({ prompt, answer }) => ({
        prompt,
        answer: answer.ok ? answer.text : null,
        verdict: verdicts.get(prompt.id) as PromptVerdict,
      }));
      for (const [id, verdict] of scorePairs(members)) verdicts.set(id, verdict);
    }
    const at = now();
    return answers.map(({ prompt, answer }) => {
      const verdict = verdicts.get(prompt.id) as PromptVerdict;
      return {
        evaluation_id: run.evaluationId,
        prompt_id: prompt.id,
        ordinal: prompt.ordinal,
        harness: prompt.harness,
        scenario: prompt.scenario,
        probe: prompt.probe,
        base: prompt.base,
        variation: prompt.variation,
        // The verdict was made on the whole answer; what is stored is bounded (result-bounds.ts).
        ...boundResultTexts({
          prompt: prompt.turns.join('\n\n'),
          response: answer.ok ? answer.text : null,
          reason: verdict.reason,
          error: answer.ok ? null : answer.error,
        }),
        passed: verdict.passed === null ? null : verdict.passed ? 1 : 0,
        scores: JSON.stringify(verdict.scores),
        latency_ms: Math.round(answer.latencyMs),
        lineage: prompt.lineage === null ? null : JSON.stringify(prompt.lineage),
        created_at: at,
      };
    });
  }

  return {
    kind: EVALUATION_JOB,
    payload: Type.Object({ evaluationId: Type.String() }),
    onInterrupted: 'resume',
    run,
    /** Failed or cancelled: the evaluation says so, in the transaction that ends the job. */
    async onEnded(job, trx) {
      const row = await findEvaluation(trx, job.payload.evaluationId);
      if (row === undefined || row.status !== 'running' || row.job_id !== job.id) return;
      const failed = job.status === 'failed';
      // Conditional (still running this job): a cancel or a completion that committed since the read stands.
      await updateRunOf(trx, row.id, job.id, {
        status: job.status,
        completed_at: now(),
        error_message: failed ? job.reason : null,
        status_message: failed ? failedMessage(job.reason) : cancelledMessage(row),
      });
    },
  };
}

/** A scoring failure (a detector throwing) is an error verdict for that prompt, not the end of the run. */
async function safeVerdict(prompt: PlannedPrompt, answer: string, context: ScoringContext): Promise<PromptVerdict> {
  try {
    return await scorePrompt(prompt, answer, context);
  } catch (error) {
    return { passed: null, scores: {}, reason: `The answer could not be scored: ${error instanceof Error ? error.message : String(error)}` };
  }
}
