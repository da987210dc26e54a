/**
 * Driver errors classified by code, never by message text (STYLE.md). Codes: PostgreSQL's
 * SQLSTATE (pg and PGlite both set `code`), better-sqlite3's extended result codes.
 */
export type DriverErrorKind =
  /** A unique or primary key constraint: the thing exists already. */
  | 'unique_violation'
  /** A row refers to one that does not exist (anymore). */
  | 'foreign_key_violation'
  /** A required column got no value. */
  | 'not_null_violation'
  /** A value longer than its column (PostgreSQL varchar(n); SQLite's own size limit). */
  | 'too_long'
  /** A number outside its column's range. */
  | 'out_of_range'
  /** Text the database cannot store (bad encoding, NUL in text or jsonb). */
  | 'bad_text'
  /**
   * The transaction lost a race and was rolled back whole (serialization failure, deadlock) or
   * could not get the database in time (SQLite busy or locked): nothing was written, the same
   * request may simply be sent again.
   */
  | 'retryable';

const KIND_BY_CODE: Record<string, DriverErrorKind> = {
  '23505': 'unique_violation',
  SQLITE_CONSTRAINT_UNIQUE: 'unique_violation',
  SQLITE_CONSTRAINT_PRIMARYKEY: 'unique_violation',
  '23503': 'foreign_key_violation',
  SQLITE_CONSTRAINT_FOREIGNKEY: 'foreign_key_violation',
  '23502': 'not_null_violation',
  SQLITE_CONSTRAINT_NOTNULL: 'not_null_violation',
  '22001': 'too_long',
  SQLITE_TOOBIG: 'too_long',
  '22003': 'out_of_range',
  '22021': 'bad_text',
  '22P05': 'bad_text',
  '40001': 'retryable',
  '40P01': 'retryable',
  SQLITE_BUSY: 'retryable',
  SQLITE_BUSY_SNAPSHOT: 'retryable',
  SQLITE_BUSY_TIMEOUT: 'retryable',
  SQLITE_BUSY_RECOVERY: 'retryable',
  SQLITE_LOCKED: 'retryable',
  SQLITE_LOCKED_SHAREDCACHE: 'retryable',
};

/** The kind of a database driver error, or undefined for anything else (a bug: a 500). */
export function classifyDriverError(error: unknown): DriverErrorKind | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? KIND_BY_CODE[code] : undefined;
}

export function isUniqueViolation(error: unknown): boolean {
  return classifyDriverError(error) === 'unique_violation';
}
