import SqliteDatabase from 'better-sqlite3';
import { createPrivately } from './database.js';

/** Thrown when another process holds the lock of the same SQLite file. */
export class DatabaseInUseError extends Error {
  constructor(readonly filename: string) {
    super(`${filename} is in use by another Warden process`);
    this.name = 'DatabaseInUseError';
  }
}

export interface ProcessLock {
  /** The side file that holds the lock. */
  readonly path: string;
  release(): void;
}

/**
 * One Warden service per SQLite file (docs/decisions.md, "One SQLite file, one process"): a
 * second one would run the first one's jobs again. The lock is SQLite's own, an open `BEGIN
 * EXCLUSIVE` on a dedicated connection to `<file>.lock`: a POSIX lock, so the operating system
 * releases it when the process ends however it ends (SIGKILL included) and no stale file can
 * block the next start; a PID file could. It stays empty (the transaction writes nothing).
 * Throws DatabaseInUseError when another process holds it.
 */
export function lockSqliteFile(filename: string): ProcessLock {
  const lockPath = `${filename}.lock`;
  createPrivately(lockPath);
  const connection = new SqliteDatabase(lockPath, { timeout: 0 });
  try {
    connection.exec('BEGIN EXCLUSIVE');
  } catch (error) {
    connection.close();
    if (/^SQLITE_BUSY/.test(String((error as { code?: unknown }).code))) throw new DatabaseInUseError(filename);
    throw error;
  }
  return {
    path: lockPath,
    release() {
      if (!connection.open) return;
      connection.exec('ROLLBACK');
      connection.close();
    },
  };
}
