/** Text a job stores (log lines, progress messages, failure reasons): bounded and storable on both engines. */

/**
 * At most `max` UTF-16 units (so at most `max` characters for PostgreSQL's varchar), never
 * splitting a surrogate pair, without NUL characters (PostgreSQL cannot store them in text).
 */
export function cleanText(text: string, max: number): string {
  let out = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  if (out.length > max) {
    const cut = out.charCodeAt(max - 1) >= 0xd800 && out.charCodeAt(max - 1) <= 0xdbff ? max - 1 : max;
    out = out.slice(0, cut);
  }
  return out;
}

const SECRET_PATTERNS: ReadonlyArray<readonly [RegExp, string]> = [
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi, '$1 [redacted]'],
  [/\b(api[_-]?key|access[_-]?token|token|password|secret|authorization)(["']?\s*[:=]\s*["']?)(?!(?:Bearer|Basic)\s)[^\s"',;&]+/gi, '$1$2[redacted]'],
  [/\bsk-[A-Za-z0-9_-]{8,}/g, '[redacted]'],
];

/** Masks what looks like a credential: the message of an error may quote a request or a URL. */
export function redactSecrets(text: string): string {
  let out = text;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

export const MAX_REASON = 1000;

/** What a job that failed on its database says to a person; the driver's own text goes to the server's log only. */
export const DATABASE_FAILURE = "The run's data could not be read or stored in Warden's database (the server's log has the detail)";

/**
 * An error of the database driver, known by its fields, never by its text: better-sqlite3's codes
 * start `SQLITE_`; a PostgreSQL error (pg, PGlite) has a SQLSTATE code and a severity.
 */
export function isDatabaseError(error: unknown): boolean {
  const fields = error as { code?: unknown; severity?: unknown } | null;
  if (typeof fields?.code !== 'string') return false;
  return fields.code.startsWith('SQLITE_') || (/^[0-9A-Z]{5}$/.test(fields.code) && typeof fields.severity === 'string');
}

/** The error's message (no stack), without credentials, for the server's log. */
export function failureDetail(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const detail = cleanText(redactSecrets(message.trim()), MAX_REASON);
  return detail === '' ? 'the job failed' : detail;
}

/**
 * Why a handler failed, for the job's record and the feature (an evaluation's `status_message`, a
 * campaign's `error_message`, a generation's `creation_error`): a message for a person, never the
 * database driver's or SQL text.
 */
export function failureReason(error: unknown): string {
  return isDatabaseError(error) ? DATABASE_FAILURE : failureDetail(error);
}
