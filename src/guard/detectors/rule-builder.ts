/**
 * How the rules of `prompt-injection-warden` are written (injection-rules.ts says how they are
 * used). A rule's source is given in parts that are joined, so long patterns stay readable.
 */

export type RuleFamily =
  | 'instruction_override'
  | 'system_prompt_extraction'
  | 'jailbreak_persona'
  | 'roleplay_framing'
  | 'refusal_suppression'
  | 'fake_turn'
  | 'indirect_injection'
  | 'authority_claim'
  | 'payload_splitting'
  | 'encoded_payload';

export interface Rule {
  id: string;
  family: RuleFamily;
  weight: number;
  re: RegExp;
  /** Only tried when the text has a character of this script (saves time on the others). */
  script?: 'cyrillic' | 'cjk' | 'hangul';
  /**
   * Every match of `re` begins with one of these strings (3+ characters each), read from the pattern
   * by literalStarts; undefined when the pattern's start is not such a list (the rule is always tried).
   */
  starts?: readonly RuleStart[];
  /** Every match of `re` contains one of these strings (given with the rule). */
  contains?: readonly string[];
}

/** A string a match begins with; `word`: at the start of a word (after `\\b`, beginning with a word character). */
export interface RuleStart {
  text: string;
  word: boolean;
}

const SPECIAL = new Set(['\\', '(', ')', '[', ']', '{', '}', '|', '.', '*', '+', '?', '^', '$']);
const QUANTIFIER = new Set(['?', '*', '{']);

/** Index of the `)` closing the group opened at `open` (escapes and character classes skipped). */
function closingParen(src: string, open: number): number {
  let depth = 0;
  for (let i = open; i < src.length; i += 1) {
    const ch = src[i];
    if (ch === '\\') i += 1;
    else if (ch === '[') {
      for (i += 1; i < src.length && src[i] !== ']'; i += 1) if (src[i] === '\\') i += 1;
    } else if (ch === '(') depth += 1;
    else if (ch === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The top-level alternatives of a pattern. */
function alternatives(src: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < src.length; i += 1) {
    const ch = src[i];
    if (ch === '\\') i += 1;
    else if (ch === '[') {
      for (i += 1; i < src.length && src[i] !== ']'; i += 1) if (src[i] === '\\') i += 1;
    } else if (ch === '(') depth += 1;
    else if (ch === ')') depth -= 1;
    else if (ch === '|' && depth === 0) {
      out.push(src.slice(from, i));
      from = i + 1;
    }
  }
  out.push(src.slice(from));
  return out;
}

/** The literal strings one alternative must begin with, or undefined when it does not begin with literals. */
function alternativeStarts(alt: string, atBoundary: boolean): RuleStart[] | undefined {
  let i = 0;
  let boundary = atBoundary;
  // Zero-width assertions at the start consume nothing: skipped (a word boundary is remembered).
  for (;;) {
    if (alt.startsWith('\\b', i)) {
      i += 2;
      boundary = true;
    }
    else if (alt.startsWith('(?!', i) || alt.startsWith('(?=', i) || alt.startsWith('(?<!', i) || alt.startsWith('(?<=', i)) {
      const close = closingParen(alt, i);
      if (close < 0) return undefined;
      i = close + 1;
    } else break;
  }
  if (alt[i] === '(') {
    const close = closingParen(alt, i);
    if (close < 0 || QUANTIFIER.has(alt[close + 1] as string)) return undefined;
    const inner = alt.slice(alt.startsWith('(?:', i) ? i + 3 : i + 1, close);
    if (alt[i + 1] === '?' && !alt.startsWith('(?:', i)) return undefined;
    return literalStarts(inner, boundary);
  }
  let literal = '';
  while (i < alt.length) {
    const ch = alt[i] as string;
    let lit: string;
    let width = 1;
    if (ch === '\\') {
      const next = alt[i + 1] as string;
      if (next === undefined || !SPECIAL.has(next) && next !== '/' && next !== '-') break;
      lit = next;
      width = 2;
    } else if (SPECIAL.has(ch)) break;
    else lit = ch;
    // A character that may be absent or repeated ends the literal before it.
    if (QUANTIFIER.has(alt[i + width] as string)) break;
    literal += lit;
    i += width;
    if (alt[i] === '+') break;
  }
  return literal === '' ? undefined : [{ text: literal, word: boundary && /^\w/.test(literal) }];
}

/**
 * The strings every match of `source` begins with (each at least 3 characters), or undefined when the
 * pattern does not start with a list of literals (then nothing can be said without running it).
 */
export function literalStarts(source: string, atBoundary = false): RuleStart[] | undefined {
  const out: RuleStart[] = [];
  for (const alt of alternatives(source)) {
    const starts = alternativeStarts(alt, atBoundary);
    if (starts === undefined || starts.some((s) => s.text.length < 3)) return undefined;
    out.push(...starts);
  }
  return out;
}

export function rule(
  id: string,
  family: RuleFamily,
  weight: number,
  source: string | string[],
  options: { script?: Rule['script']; flags?: string; contains?: readonly string[] } = {},
): Rule {
  const pattern = Array.isArray(source) ? source.join('') : source;
  const re = new RegExp(pattern, options.flags ?? '');
  const starts = literalStarts(pattern);
  return {
    id,
    family,
    weight,
    re,
    ...(options.script === undefined ? {} : { script: options.script }),
    ...(starts === undefined ? {} : { starts }),
    ...(options.contains === undefined ? {} : { contains: options.contains }),
  };
}

/** Up to `n` arbitrary words between two parts. */
export const gap = (n: number): string => `(?:\\S+\\s+){0,${n}}?`;
/** Up to `n` words, none of them "my"/"our" (a user correcting their own earlier message is not an override). */
export const gapNotMine = (n: number): string => `(?:(?!my\\b|our\\b)\\S+\\s+){0,${n}}?`;
