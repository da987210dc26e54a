import type { Kysely } from 'kysely';
import type { DB } from '../db/schema.js';
import { failureDetail } from './text.js';
import type { JobLogger } from './types.js';

class OnEndedFailed extends Error {
  constructor(cause: unknown) {
    super('onEnded failed', { cause });
  }
}

/**
 * Runs `write` (the job's end) and, when it changed the job, `ended` (the handler's onEnded) in
 * one transaction: the job's end and the feature's record commit together. If `ended` throws,
 * the end is recorded without it and the error logged: a broken hook must not leave a job
 * running forever.
 */
export async function endInTransaction(
  db: Kysely<DB>,
  logger: JobLogger,
  jobId: string,
  write: (trx: Kysely<DB>) => Promise<boolean>,
  ended: ((trx: Kysely<DB>) => Promise<void>) | undefined,
): Promise<boolean> {
  const attempt = (withEnded: boolean) =>
    db.transaction().execute(async (trx) => {
      const changed = await write(trx);
      if (changed && withEnded && ended !== undefined) {
        try {
          await ended(trx);
        } catch (error) {
          throw new OnEndedFailed(error);
        }
      }
      return changed;
    });
  try {
    return await attempt(true);
  } catch (error) {
    if (!(error instanceof OnEndedFailed)) throw error;
    logger.error({ jobId, error: failureDetail(error.cause) }, 'job onEnded failed; the job ended without it');
    return attempt(false);
  }
}
