/**
 * Text helpers shared by the HTML and PDF reports: escaping, excerpts, number and date
 * formats (the PDF's fonts: fonts.ts). Every string of an
 * evaluation (agent names, prompts, responses) may be hostile, so nothing here trusts its input.
 */

/** No-break space: keeps "70.0 %" and "95 %" on one line (in the HTML and the PDF alike). */
export const NBSP = '\u00a0';

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
/** C0 controls other than tab/newline/return, DEL, C1 controls: not allowed as text in HTML. */
const HTML_FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Explicit bidi embeddings, overrides and isolates. Arabic or Hebrew text needs none of them
 * (the Unicode bidi algorithm orders it); in a report they only serve to make a name or an answer
 * display as something it is not ("Trojan Source"), so they are dropped.
 */
const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/g;

/** Escapes text for an HTML element's content or a quoted attribute value. */
export function escapeHtml(value: string): string {
  return value
    .replace(BIDI_CONTROLS, '')
    .replace(LONE_SURROGATE, '\uFFFD')
    .replace(HTML_FORBIDDEN, '\uFFFD')
    .replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] ?? c);
}

export interface Excerpt {
  text: string;
  /** Characters (code points) left out; 0 when the text is whole. */
  omitted: number;
}

/**
 * The start of `text`, at most `maxChars` code points and `maxLines` lines, cut at a word
 * boundary when one is near, with runs of blank lines collapsed. Code points, not UTF-16 units,
 * so an emoji is never cut in half.
 */
export function excerpt(text: string, maxChars: number, maxLines = Number.POSITIVE_INFINITY): Excerpt {
  const tidy = text.replace(/\r\n?/g, '\n').replace(/[ \t]+\n/g, '\n').replace(/\n{3,}/g, '\n\n').trim();
  const points = Array.from(tidy);
  let limit = Math.min(points.length, maxChars);
  let lines = 0;
  for (let i = 0; i < limit; i++) {
    if (points[i] === '\n' && ++lines >= maxLines) {
      limit = i;
      break;
    }
  }
  if (limit >= points.length) return { text: tidy, omitted: 0 };
  let cut = limit;
  // Back up to the last space if it is close: a cut word reads worse than a slightly shorter excerpt.
  for (let i = limit; i > limit * 0.85; i--) {
    if (/\s/.test(points[i] ?? '')) {
      cut = i;
      break;
    }
  }
  const kept = points.slice(0, cut).join('').trimEnd();
  return { text: `${kept}…`, omitted: points.length - Array.from(kept).length };
}

/** `text` cut to `maxChars` code points with an ellipsis: for one-line labels. */
export function truncate(text: string, maxChars: number): string {
  const points = Array.from(text.replace(/\s+/g, ' ').trim());
  if (points.length <= maxChars) return points.join('');
  return `${points.slice(0, Math.max(1, maxChars - 1)).join('').trimEnd()}…`;
}

/**
 * A 0..1 score as a percentage with one decimal, truncated rather than rounded: 0.6999 reads
 * 69.9 %, never 70.0 %, so a shown value never seems to reach a threshold its verdict did not.
 */
export function formatPercent(value: number): string {
  const tenths = Math.floor(clamp01(value) * 1000 + 1e-9);
  return `${(tenths / 10).toFixed(1)}${NBSP}%`;
}

/** A 0..1 value as four decimals, truncated (as the agent's `test_score`). */
export function formatDecimal(value: number): string {
  return (Math.floor(clamp01(value) * 10_000 + 1e-9) / 10_000).toFixed(4);
}

/** The bounds of a Wilson interval: `61.2–78.9 %`. */
export function formatInterval(low: number, high: number): string {
  return `${formatPercent(low).replace(`${NBSP}%`, '')}–${formatPercent(high)}`;
}

/** Epoch seconds as ISO 8601 in UTC, to the second (`2026-11-25T10:42:07Z`). */
export function formatTimestamp(epochSeconds: number | null): string {
  if (epochSeconds === null || !Number.isFinite(epochSeconds)) return '—';
  const date = new Date(epochSeconds * 1000);
  if (Number.isNaN(date.getTime())) return '—';
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** A duration in seconds for a person: `42 s`, `12 min 4 s`, `2 h 5 min`. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}${NBSP}s`;
  if (s < 3600) return `${Math.floor(s / 60)}${NBSP}min ${s % 60}${NBSP}s`;
  return `${Math.floor(s / 3600)}${NBSP}h ${Math.floor((s % 3600) / 60)}${NBSP}min`;
}

/** An integer with thin grouping (`12 345`), the same in both reports. */
export function formatCount(value: number): string {
  return Math.round(value)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, NBSP);
}

export function clamp01(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.min(1, Math.max(0, value));
}
