/**
 * In-process signals from the repository functions to this process's runners: an enqueue
 * wakes them (instead of waiting for the next poll), a cancel makes the runner holding the
 * job look at it at once. They only shorten delays: a runner finds every job and every cancel
 * request by polling the database too (the signal may come before the caller's transaction
 * commits, and other processes send none).
 */
export interface LocalListener {
  enqueued(): void;
  cancelRequested(jobId: string): void;
  /** Rows deleted in a transaction that may not have committed yet: the runner looks again until it has. */
  deleted(jobIds: readonly string[]): void;
  /** Rows whose deletion has committed: the runner stops the ones it holds at once, without a poll. */
  gone(jobIds: readonly string[]): void;
}

const listeners = new Set<LocalListener>();

export function listenLocally(listener: LocalListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function announceEnqueued(): void {
  for (const listener of listeners) listener.enqueued();
}

export function announceCancel(jobId: string): void {
  for (const listener of listeners) listener.cancelRequested(jobId);
}

export function announceDeleted(jobIds: readonly string[]): void {
  for (const listener of listeners) listener.deleted(jobIds);
}

export function announceGone(jobIds: readonly string[]): void {
  for (const listener of listeners) listener.gone(jobIds);
}
