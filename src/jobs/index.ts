/** The job engine's public surface (docs/jobs.md). */
export { cancelJob, deleteJobsBySubject, enqueueJob, findJobsBySubject, getJob, listJobLogs, toJob } from './jobs.repo.js';
export { createJobRunner, INTERRUPTED, JOB_DEFAULTS, type JobLogger, type JobRunner, type JobRunnerOptions } from './runner.js';
export type * from './types.js';
