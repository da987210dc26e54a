/** The job engine's public surface (docs/jobs.md). */
export { cancelJob, deleteJobsBySubject, deleteWithJobs, enqueueJob, findJobsBySubject, getJob, listJobLogs, toJob } from './jobs.repo.js';
export { INTERRUPTED } from './recovery.js';
export { createJobRunner, JOB_DEFAULTS, type JobRunner, type JobRunnerOptions } from './runner.js';
export type * from './types.js';
