import { setMaxListeners } from 'node:events';
import { deadAgentWatch } from '../../../jobs/dead-agent.js';
import { dispatch, rateLimitOutcome, type SendOutcome } from '../../../jobs/dispatch.js';
import type { JobContext } from '../../../jobs/types.js';
import { caughtBy, type CandidateGuard, type GuardScanner } from '../../../redteam/guard.js';
import { runAttack, type AttackRunner } from '../../../redteam/run-attack.js';
import type { AttackOutcome, PlannedAttack } from '../../../redteam/types.js';
import type { NewFinding } from '../redteam.repo.js';
import { findingRow } from './findings.js';

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
  write(row: NewFinding): Promise<void>;
  now(): number;
  log(line: string, level?: 'info' | 'warn'): void;
  signal: AbortSignal;
  /** The job's deferral: the agent asked to wait long (docs/jobs.md, "Deferral"). */
  deferFor: JobContext['deferFor'];
}

/**
 * Sends the attacks `concurrency` at a time (the shared dispatcher, src/jobs/dispatch.ts),
 * judges them (./run-attack.ts), says which guard would have caught each that worked, and
 * writes each finding. The agent's rate limiting is treated as an evaluation treats it: an
 * attack the agent still answers 429 goes back to the end of the line and sending slows down;
 * an agent that asks to wait longer than a few seconds makes the job give its slot back
 * (`deferFor`), and the attack is sent again, whole, when the job resumes. Nothing of such an
 * attack is written. Stops when the job's signal aborts, when a write fails, or when the agent
 * looks dead: the first attacks all fail without one answer, or later as many in a row
 * (src/jobs/dead-agent.ts). Resolves whether any attack got an answer, and the
 * first error.
 */
export async function attackAll(input: AttackLoopInput): Promise<{ answered: boolean; firstError: string | undefined }> {
  const local = new AbortController();
  const sending = AbortSignal.any([input.signal, local.signal]);
  // Every call in flight listens to it (several listeners each): not a leak.
  setMaxListeners(0, sending);
  let answered = input.answeredBefore;
  // The first attacks all failing without one answer, or later as many in a row, end the campaign (the jobs' shared rule).
  const deadAgent = deadAgentWatch({ noun: 'attack', answeredBefore: input.answeredBefore });
  let loggedErrors = 0;
  let firstError: string | undefined;

  type Item = AttackLoopInput['queue'][number];

  /** One attack, whole: null when stopped (or the job gave its slot back), `rate-limited` to send it again later. */
  async function send(item: Item, lastTry: boolean): Promise<SendOutcome<{ item: Item; outcome: AttackOutcome; row: NewFinding }>> {
    // The attack's own signal: aborted at its first rate-limited answer (the rest of it would be wasted).
    const attempt = new AbortController();
    const signal = AbortSignal.any([sending, attempt.signal]);
    setMaxListeners(0, signal);
    let held: 'rate-limited' | null | undefined;
    const runner: AttackRunner = {
      ...input.runner,
      exchange: async (turns, options) => {
        const result = await input.runner.exchange(turns, { ...options, signal });
        if (!result.ok && held === undefined) {
          held = rateLimitOutcome(result, lastTry, input.deferFor);
          if (held !== undefined) attempt.abort();
        }
        return result;
      },
    };
    let outcome: AttackOutcome;
    try {
      outcome = await runAttack(item.attack, runner, signal);
    } catch (error) {
      if (held !== undefined || sending.aborted) return held ?? null;
      throw error;
    }
    if (held !== undefined) return held;
    if (sending.aborted) return null;
    const goal = item.attack.case.goal;
    const rejudge = (answer: string) => input.runner.judge(goal, answer, { prompt: outcome.prompt, signal: sending });
    const catches = outcome.verdict?.succeeded ? await caughtBy(outcome, input.candidates, rejudge) : null;
    if (sending.aborted) return null;
    return { item, outcome, row: findingRow(input.campaignId, item.seq, outcome, catches, input.now()) };
  }

  async function accept({ item, outcome, row }: { item: Item; outcome: AttackOutcome; row: NewFinding }): Promise<void> {
    if (outcome.error !== null) {
      firstError ??= outcome.error;
      if (loggedErrors++ < MAX_LOGGED_ERRORS) input.log(`${item.attack.id}: ${clip(outcome.error)}`, 'warn');
    } else {
      answered = true;
    }
    const dead = deadAgent.record(outcome.error);
    if (dead !== undefined) {
      local.abort();
      throw dead;
    }
    try {
      await input.write(row);
    } catch (error) {
      local.abort();
      throw error;
    }
  }

  await dispatch({ units: input.queue, concurrency: input.concurrency, signal: sending, send, accept, stopped: () => false });
  return { answered, firstError };
}
