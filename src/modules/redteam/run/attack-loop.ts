import { deadAgentWatch } from '../../../jobs/dead-agent.js';
import { runPipeline, type UnitScope } from '../../../jobs/pipeline.js';
import type { JobContext } from '../../../jobs/types.js';
import { caughtBy, type CandidateGuard, type GuardScanner } from '../../../redteam/guard.js';
import { runAttack, type AttackRunner } from '../../../redteam/run-attack.js';
import type { PlannedAttack } from '../../../redteam/types.js';
import type { NewFinding } from '../redteam.repo.js';
import { findingRow, type findingWriter } from './findings.js';

/** Attack errors written to the campaign's log, so that a failing agent does not flood it. */
const MAX_LOGGED_ERRORS = 20;

export const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

export interface AttackLoopInput {
  campaignId: string;
  /** The attacks still to send, with their place in the plan. */
  queue: ReadonlyArray<{ attack: PlannedAttack; seq: number }>;
  runner: AttackRunner;
  candidates: ReadonlyArray<{ candidate: CandidateGuard; scan: GuardScanner }>;
  /** Attacks in flight at once. */
  concurrency: number;
  /** Some attack of this campaign already got an answer (a resumed run). */
  answeredBefore: boolean;
  /** Where findings go (./findings.ts): in batches, while the campaign still runs this job. */
  writer: ReturnType<typeof findingWriter>;
  now(): number;
  log(line: string, level?: 'info' | 'warn'): void;
  /** The job's signal and deferral (docs/jobs.md, "Deferral"). */
  context: Pick<JobContext, 'signal' | 'deferFor'>;
}

/**
 * What a campaign gives the jobs' run pipeline (src/jobs/pipeline.ts): an attack is the unit,
 * sent whole (./run-attack.ts) through the agent's guard, judged, with the guards that would
 * have caught it when it worked, and turned into its finding. The pipeline treats the agent's
 * rate limiting as for an evaluation (an attack still answered 429 goes back to the end of the
 * line; an agent that asks to wait long makes the job give its slot back), and nothing of such
 * an attack is written. Stops when the job's signal aborts, when a write fails, or when the
 * agent looks dead: the first attacks all fail without one answer, or later as many in a row
 * (src/jobs/dead-agent.ts). Resolves whether any attack got an answer, and the first error.
 */
export async function attackAll(input: AttackLoopInput): Promise<{ answered: boolean; firstError: string | undefined }> {
  let answered = input.answeredBefore;
  // The first attacks all failing without one answer, or later as many in a row, end the campaign (the jobs' shared rule).
  const deadAgent = deadAgentWatch({ noun: 'attack', answeredBefore: input.answeredBefore });
  let loggedErrors = 0;
  let firstError: string | undefined;

  type Item = AttackLoopInput['queue'][number];

  /** One attack, whole, and its finding. */
  async function send(item: Item, scope: UnitScope): Promise<NewFinding[] | null> {
    const runner: AttackRunner = {
      ...input.runner,
      exchange: async (turns, options) => {
        const result = await input.runner.exchange(turns, { ...options, signal: scope.signal });
        if (!result.ok) scope.holdsBack(result);
        return result;
      },
    };
    const outcome = await runAttack(item.attack, runner, scope.signal);
    if (scope.signal.aborted) return null;
    const goal = item.attack.case.goal;
    const rejudge = (answer: string) => input.runner.judge(goal, answer, { prompt: outcome.prompt, signal: scope.signal });
    const catches = outcome.verdict?.succeeded ? await caughtBy(outcome, input.candidates, rejudge) : null;
    if (scope.signal.aborted) return null;
    return [findingRow(input.campaignId, item.seq, outcome, catches, input.now())];
  }

  function check(rows: readonly NewFinding[]): void {
    for (const { attack_id: id, error } of rows) {
      if (error != null) {
        firstError ??= error;
        if (loggedErrors++ < MAX_LOGGED_ERRORS) input.log(`${id}: ${clip(error)}`, 'warn');
      } else {
        answered = true;
      }
      const dead = deadAgent.record(error ?? null);
      if (dead !== undefined) throw dead;
    }
  }

  await runPipeline({ context: input.context, units: input.queue, concurrency: input.concurrency, send, check, writer: input.writer });
  return { answered, firstError };
}
