import type { EvaluationRow } from '../evaluations.repo.js';

/** The status messages of a run, for a person (EvaluationStatusResponse.status_message). */

export const QUEUED_MESSAGE = 'Queued: waiting for a worker';
export const PLANNING_MESSAGE = 'Started: choosing the prompts';

const errorsPart = (errors: number) => (errors === 0 ? '' : errors === 1 ? ', 1 error' : `, ${errors} errors`);

export const progressMessage = (done: number, total: number, errors: number) => `${done} of ${total} prompts${errorsPart(errors)}`;

export const completedMessage = (total: number, errors: number) => `Completed: ${total} prompts${errorsPart(errors)}`;

export function cancelledMessage(row: Pick<EvaluationRow, 'started_at' | 'progress_done' | 'progress_total'>): string {
  if (row.started_at === null) return 'Cancelled before it started';
  return `Cancelled at ${row.progress_done} of ${row.progress_total} prompts`;
}

export const failedMessage = (reason: string) => `Failed: ${reason}`.slice(0, 500);
