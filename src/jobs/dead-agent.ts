/**
 * Fail fast on a dead agent (docs/jobs.md, "A dead agent"): one rule for every job that sends
 * units of work to an agent (evaluations, red-team campaigns). When the first N units of a run
 * all fail without one answer, or later N units in a row do, the run ends `failed`, naming the
 * agent's error, instead of spending its slot on retries an unreachable agent cannot answer.
 */

/** Units failed without an answer, first or in a row, after which a run gives up. */
export const DEAD_AGENT_UNITS = 10;

/** The run's end: thrown by the caller so that its job fails with this message. */
export class DeadAgentError extends Error {
  override name = 'DeadAgentError';
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

export interface DeadAgentWatch {
  /**
   * Records one unit's outcome, in the order they end: `null` when the agent answered (a verdict
   * or not), else the agent's error. Answers the error that ends the run once the rule is met.
   */
  record(error: string | null): DeadAgentError | undefined;
}

/**
 * `noun`: what a unit is, for the message (`prompt`, `attack`). `answeredBefore`: a resumed run
 * whose stored units include an answer (only N failures in a row end it then).
 */
export function deadAgentWatch(options: { noun: string; answeredBefore?: boolean; limit?: number }): DeadAgentWatch {
  const limit = options.limit ?? DEAD_AGENT_UNITS;
  let answered = options.answeredBefore ?? false;
  let inARow = 0;
  return {
    record(error) {
      if (error === null) {
        answered = true;
        inARow = 0;
        return undefined;
      }
      inARow += 1;
      if (inARow < limit) return undefined;
      // The connector's message already says what went wrong ("the agent could not be reached: …", "the agent answered HTTP 500…").
      return new DeadAgentError(
        answered
          ? `The agent stopped answering: the last ${limit} ${options.noun}s all failed: ${clip(error)}`
          : `No ${options.noun} got an answer from the agent (the first ${limit} all failed): ${clip(error)}`,
      );
    },
  };
}
