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

/** What a bounded text kept: the text, whether it was cut, and the length of the original (UTF-16 units, NUL included). */
export interface BoundedText {
  text: string;
  truncated: boolean;
  length: number;
}

/** The mark that ends a cut text. */
const CUT_MARK = '…';
const CUT_MARK_BYTES = 3;

/** JSON's two-character escapes (`\n`, `\"`…); every other control character is `\u00XX` (6 bytes). */
const SHORT_ESCAPES = new Set([0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]);

/**
 * Agents' texts a run stores (answers, prompts sent, errors, conversation turns), bounded by
 * the size they take once answered: at most `maxBytes` of UTF-8 after JSON escaping, so a
 * text of control characters (6 bytes each as `\u0001`) cannot swell an answer six times past
 * the bound. NUL is removed (PostgreSQL cannot store it); a cut text ends in `…` (counted in
 * the bound) and never splits a surrogate pair. Verdicts are made on the whole text before this.
 */
export function boundText(text: string, maxBytes: number): BoundedText {
  const clean = text.includes('\u0000') ? text.replaceAll('\u0000', '') : text;
  // At most 6 bytes a UTF-16 unit: a text this short fits whatever it holds.
  if (clean.length * 6 <= maxBytes) return { text: clean, truncated: false, length: text.length };
  let bytes = 0;
  let end = 0;
  const budget = maxBytes - CUT_MARK_BYTES;
  let cutAt = -1;
  while (end < clean.length) {
    const code = clean.charCodeAt(end);
    let size: number;
    let units = 1;
    if (code < 0x20) size = SHORT_ESCAPES.has(code) ? 2 : 6;
    else if (code === 0x22 || code === 0x5c) size = 2;
    else if (code < 0x80) size = 1;
    else if (code < 0x800) size = 2;
    else if (code >= 0xd800 && code <= 0xdbff) {
      const next = clean.charCodeAt(end + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        size = 4;
        units = 2;
      } else size = 6; // a lone surrogate is escaped
    } else if (code >= 0xdc00 && code <= 0xdfff) size = 6;
    else size = 3;
    if (cutAt < 0 && bytes + size > budget) cutAt = end;
    bytes += size;
    if (bytes > maxBytes) break;
    end += units;
  }
  if (end >= clean.length) return { text: clean, truncated: false, length: text.length };
  return { text: `${clean.slice(0, cutAt)}${CUT_MARK}`, truncated: true, length: text.length };
}
