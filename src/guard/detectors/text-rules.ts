/**
 * Two small offline methods of Warden's own (Dome has no equivalent that needs no model):
 * `max-length` (integrity) bounds how long a text may be, which catches context-stuffing inputs
 * and runaway outputs; `keyword-banlist` (generic) flags your own words or phrases in a guard of
 * any purpose (a codename, a competitor, a forbidden topic) without moderation's built-in lists.
 */
import { booleanParam, nullable, numberParam, paramParser, stringListParam, stringParam, type SyncDetectorDefinition } from '../params.js';
import { clean, GuardConfigError } from '../types.js';
import { createKeywordMatcher, type KeywordMatcher } from './keyword-matcher.js';

const lengthParams = paramParser({
  max_chars: numberParam(32_000, { min: 1, max: 100_000_000, integer: true }),
  max_words: nullable(numberParam(1, { min: 1, max: 10_000_000, integer: true }), null),
  max_lines: nullable(numberParam(1, { min: 1, max: 10_000_000, integer: true }), null),
});
export type MaxLengthParams = ReturnType<typeof lengthParams>;

/** Counts stop one past the limit: the answer is the same, and a huge text costs no more than the limit. */
function countUpTo(text: string, pattern: RegExp, limit: number): number {
  pattern.lastIndex = 0;
  let count = 0;
  while (count <= limit && pattern.exec(text) !== null) count++;
  return count;
}

export const maxLength: SyncDetectorDefinition<MaxLengthParams> = {
  id: 'max-length',
  type: 'integrity',
  description: 'Flags a text longer than `max_chars` characters (and, when set, `max_words` words or `max_lines` lines).',
  parseParams: lengthParams,
  detect(text, params) {
    const exceeded: Record<string, number> = {};
    if (text.length > params.max_chars) exceeded.max_chars = params.max_chars;
    if (params.max_words !== null && countUpTo(text, /\S+/g, params.max_words) > params.max_words) exceeded.max_words = params.max_words;
    if (params.max_lines !== null && countUpTo(text, /\n/g, params.max_lines) + 1 > params.max_lines) exceeded.max_lines = params.max_lines;
    const details = { chars: text.length, exceeded };
    return Object.keys(exceeded).length ? { hit: true, score: 1, label: 'flagged', details } : clean(details);
  },
};

const keywordBase = paramParser({
  keywords: stringListParam([], { maxItems: 5000, maxLength: 200 }),
  match: stringParam<'word' | 'substring'>('word', { oneOf: ['word', 'substring'] }),
  case_sensitive: booleanParam(false),
});

export interface KeywordParams {
  keywords: string[];
  match: 'word' | 'substring';
  case_sensitive: boolean;
  /** Compiled once per configuration: linear in the text whatever the keywords (keyword-matcher.ts). */
  matcher: KeywordMatcher;
}

/** Runs of space as one space, and lower case unless case matters: keywords and texts alike, so that a phrase matches across spacing. */
const normalise = (text: string, caseSensitive: boolean) => {
  const spaced = text.replace(/\s+/g, ' ');
  return caseSensitive ? spaced : spaced.toLowerCase();
};
const WORD_CHAR = /^[\p{L}\p{N}_]$/u;
const MAX_REPORTED = 20;

export const keywordBanlist: SyncDetectorDefinition<KeywordParams> = {
  id: 'keyword-banlist',
  type: 'generic',
  description: 'Flags any of your `keywords` (whole words by default, any case by default).',
  parseParams(raw) {
    const parsed = keywordBase(raw);
    const keywords = parsed.keywords.map((k) => k.trim()).filter((k) => k.length > 0);
    if (keywords.length === 0) throw new GuardConfigError(['keywords'], 'Field required: at least one keyword', 'missing');
    const matcher = createKeywordMatcher(
      keywords.map((k) => normalise(k, parsed.case_sensitive)),
      parsed.match === 'word' ? WORD_CHAR : null,
    );
    return { ...parsed, keywords, matcher };
  },
  detect(text, params) {
    const matched = new Set<string>();
    const { matcher } = params;
    matcher.scan(normalise(text, params.case_sensitive), (keyword) => {
      matched.add(matcher.keywords[keyword] as string);
      return matched.size >= MAX_REPORTED;
    });
    return matched.size ? { hit: true, score: 1, label: 'flagged', details: { matched: [...matched] } } : clean({ matched: [] });
  },
};
