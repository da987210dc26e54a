import { setMaxListeners } from 'node:events';
import { caughtBy, type CandidateGuard, type GuardScanner } from '../../../redteam/guard.js';
import { runAttack, type AttackRunner } from '../../../redteam/run-attack.js';
import type { PlannedAttack } from '../../../redteam/types.js';
import type { NewFinding } from '../redteam.repo.js';
import { findingRow } from './findings.js';

/** A campaign whose first attacks all fail this many times in a row, without one answer, fails: the agent cannot be reached. */
const ERRORS_BEFORE_GIVING_UP = 10;
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
}

/**
 * Sends the attacks `concurrency` at a time, judges them (./run-attack.ts), says which guard
 * would have caught each that worked, and writes each finding. Stops when the job's signal
 * aborts, when a write fails, or when the first attacks all fail without one answer.
 * Resolves whether any attack got an answer, and the first error.
 */
export async function attackAll(input: AttackLoopInput): Promise<{ answered: boolean; firstError: string | undefined }> {
  const local = new AbortController();
  const sending = AbortSignal.any([input.signal, local.signal]);
  // Every call in flight listens to it (several listeners each): not a leak.
  setMaxListeners(0, sending);
  let answered = input.answeredBefore;
  let errorsInARow = 0;
  let loggedErrors = 0;
  let failure: Error | undefined;
  let firstError: string | undefined;
  let next = 0;

  const stop = (error: Error) => {
    failure ??= error;
    local.abort();
  };

  const worker = async () => {
    while (!sending.aborted) {
      const item = input.queue[next++];
      if (item === undefined) return;
      const outcome = await runAttack(item.attack, input.runner, sending);
      if (sending.aborted) return;
      if (outcome.error !== null) {
        errorsInARow += 1;
        firstError ??= outcome.error;
        if (loggedErrors++ < MAX_LOGGED_ERRORS) input.log(`${item.attack.id}: ${clip(outcome.error)}`, 'warn');
        if (!answered && errorsInARow >= ERRORS_BEFORE_GIVING_UP) {
          // The connector's message already says what went wrong ("the agent could not be reached: …", "the agent answered HTTP 500…").
          return stop(new Error(`No attack got an answer from the agent (the first ${ERRORS_BEFORE_GIVING_UP} all failed): ${clip(outcome.error)}`));
        }
      } else {
        answered = true;
        errorsInARow = 0;
      }
      const goal = item.attack.case.goal;
      const rejudge = (answer: string) => input.runner.judge(goal, answer, { prompt: outcome.prompt, signal: sending });
      const catches = outcome.verdict?.succeeded ? await caughtBy(outcome, input.candidates, rejudge) : null;
      try {
        await input.write(findingRow(input.campaignId, item.seq, outcome, catches, input.now()));
      } catch (error) {
        return stop(error instanceof Error ? error : new Error(String(error)));
      }
    }
  };

  await Promise.all(Array.from({ length: Math.max(1, Math.min(input.concurrency, input.queue.length)) }, worker));
  if (failure) throw failure;
  return { answered, firstError };
}
