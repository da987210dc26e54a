/**
 * Helpers the heuristic detectors share: bounded windows over a text, spans, entropy, and
 * context look-ups that only ever read a bounded slice around a match.
 */

/** A found span, in UTF-16 offsets of the scanned text. */
export interface Span {
  start: number;
  end: number;
}

export interface Finding extends Span {
  type: string;
  score: number;
}

const WINDOW = 32_768;
/** Longer than any single match a detector's patterns can produce (their quantifiers are bounded below this). */
const OVERLAP = 4_096;
/** Characters before a window's first accepted offset, so look-behinds see what precedes a match. */
const LEAD = 64;

/**
 * Runs `pattern` (global or sticky-free, with the `g` flag) over `text` in bounded windows and
 * calls `onMatch` once per match with absolute offsets. A match is accepted by the window whose
 * own part (not the overlap) holds its start, so no match is seen twice or cut short.
 */
export function forEachMatch(text: string, pattern: RegExp, onMatch: (match: RegExpExecArray, offset: number) => void): void {
  if (!pattern.global) throw new Error('forEachMatch needs a global pattern');
  if (text.length <= WINDOW + OVERLAP) {
    pattern.lastIndex = 0;
    for (let m = pattern.exec(text); m !== null; m = pattern.exec(text)) {
      onMatch(m, 0);
      if (m[0].length === 0) pattern.lastIndex++;
    }
    return;
  }
  for (let start = 0; start < text.length; start += WINDOW) {
    const from = Math.max(0, start - LEAD);
    const chunk = text.slice(from, start + WINDOW + OVERLAP);
    const acceptTo = start + WINDOW - from;
    pattern.lastIndex = start - from;
    for (let m = pattern.exec(chunk); m !== null && m.index < acceptTo; m = pattern.exec(chunk)) {
      onMatch(m, from);
      if (m[0].length === 0) pattern.lastIndex++;
    }
  }
}

/** The slice of `text` up to `distance` characters before `index` (a bounded read). */
export const before = (text: string, index: number, distance: number) => text.slice(Math.max(0, index - distance), index);
export const after = (text: string, index: number, distance: number) => text.slice(index, index + distance);

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  if (value.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let entropy = 0;
  for (const count of counts.values()) {
    const p = count / value.length;
    entropy -= p * Math.log2(p);
  }
  return entropy;
}

/**
 * Keeps, among overlapping findings, the one with the higher score (then the longer one);
 * the result is sorted by start.
 */
export function resolveOverlaps<T extends Finding>(findings: T[]): T[] {
  const byPriority = [...findings].sort((a, b) => b.score - a.score || b.end - b.start - (a.end - a.start) || a.start - b.start);
  // Kept spans never overlap, so sorted by start they are sorted by end too: a binary search finds
  // the only two neighbours a new span could overlap (a text full of findings stays n log n).
  const kept: T[] = [];
  for (const finding of byPriority) {
    let low = 0;
    let high = kept.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if ((kept[mid] as T).start < finding.start) low = mid + 1;
      else high = mid;
    }
    const previous = kept[low - 1];
    const next = kept[low];
    if ((previous && previous.end > finding.start) || (next && next.start < finding.end)) continue;
    kept.splice(low, 0, finding);
  }
  return kept;
}

/** `text` with each span replaced by `replacement(span)`; spans must not overlap. */
export function replaceSpans<T extends Span>(text: string, spans: readonly T[], replacement: (span: T, original: string) => string): string {
  if (spans.length === 0) return text;
  const ordered = [...spans].sort((a, b) => a.start - b.start);
  let out = '';
  let cursor = 0;
  for (const span of ordered) {
    out += text.slice(cursor, span.start) + replacement(span, text.slice(span.start, span.end));
    cursor = span.end;
  }
  return out + text.slice(cursor);
}

/** Digits only. */
export const digitsOf = (value: string) => value.replace(/\D+/g, '');

/** The Luhn (mod 10) checksum of a digit string. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let d = digits.charCodeAt(i) - 48;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return digits.length > 0 && sum % 10 === 0;
}
