/**
 * `moderation-flashtext`: Dome's keyword ban list, offline. Built-in lists by category
 * (moderation-lists.ts) plus the configuration's own words; a match on a word boundary flags
 * the text. Details name the category and the listed term matched.
 */
import type { RegExpMatcher } from 'obscenity';
import { IGNORED, paramParser, stringListParam, type SyncDetectorDefinition } from '../params.js';
import { clean } from '../types.js';
import {
  buildWordMatcher,
  CATEGORY_SCORE,
  categoryOfWord,
  MODERATION_CATEGORIES,
  type ModerationCategory,
  normaliseForPhrases,
  PHRASES,
  PLAIN_WORDS,
  plainForm,
  WORD_DATASET,
} from './moderation-lists.js';
import { createKeywordMatcher, type KeywordMatcher } from './keyword-matcher.js';

const baseParams = paramParser({
  /** Files on Dome's host: the service reads no file named by a configuration (use `banlist`). */
  banlist_filepaths: IGNORED,
  /** Warden: more words or phrases to flag (case-insensitive, whole words). */
  banlist: stringListParam([], { maxItems: 5000, maxLength: 200 }),
  /** Warden: words or phrases never flagged, e.g. a product name that contains a listed word. */
  allowlist: stringListParam([], { maxItems: 1000, maxLength: 200 }),
  /** Warden: the built-in categories in use (all by default; `[]` leaves only `banlist`). */
  categories: stringListParam([...MODERATION_CATEGORIES], { maxItems: MODERATION_CATEGORIES.length, oneOf: MODERATION_CATEGORIES }),
});

export interface ModerationParams {
  banlist: string[];
  allowlist: string[];
  categories: ModerationCategory[];
  /** Compiled once per configuration. */
  compiled: { words: RegExpMatcher | null; banlist: KeywordMatcher | null; allow: Set<string> };
}

/** Letters spelled apart ("c u n t", "f.u.c.k"): read again with the gaps closed. */
const SPACED_LETTERS = /(?<![\p{L}\p{N}])\p{L}(?:[ .\-_*]\p{L}){2,30}(?![\p{L}\p{N}])/gu;
function closedGaps(text: string): string {
  const words: string[] = [];
  for (const m of text.matchAll(SPACED_LETTERS)) words.push(m[0].replace(/[ .\-_*]/g, ''));
  return words.join(' ');
}

/**
 * `obscenity` reads about a microsecond per character. Texts up to FULL_READ characters (every chat
 * message) are read whole by it; a longer one by it at both ends, and whole by the plain-spelling
 * word list, so a megabyte costs tens of milliseconds, not a second.
 */
const FULL_READ = 65_536;
const EDGE = 32_768;

/** A banlist term counts as a whole word: no letter or digit right before or after it. */
const WORD_CHAR = /^[\p{L}\p{N}]$/u;
const DEFAULT_MATCHER = buildWordMatcher();
const MAX_MATCHES = 10;

function parseParams(raw: Record<string, unknown>): ModerationParams {
  const parsed = baseParams(raw);
  const categories = parsed.categories as ModerationCategory[];
  const wordsWanted = categories.some((c) => c === 'profanity' || c === 'sexual' || c === 'hate');
  const words = wordsWanted ? (parsed.allowlist.length ? buildWordMatcher(parsed.allowlist) : DEFAULT_MATCHER) : null;
  const terms = parsed.banlist.map((w) => normaliseForPhrases(w).trim().replace(/\s+/g, ' ')).filter((w) => w.length > 0);
  // Not a regular expression of alternatives: linear in the text whatever the list (keyword-matcher.ts).
  const banlist = terms.length ? createKeywordMatcher(terms, WORD_CHAR) : null;
  const allow = new Set(parsed.allowlist.map(normaliseForPhrases));
  return { banlist: parsed.banlist, allowlist: parsed.allowlist, categories, compiled: { words, banlist, allow } };
}

interface ModerationMatch {
  category: ModerationCategory | 'banlist';
  term: string;
}

export const moderationFlashtext: SyncDetectorDefinition<ModerationParams> = {
  id: 'moderation-flashtext',
  type: 'moderation',
  description:
    'Ban list: profanity, sexual slang and slurs (leetspeak-aware), threats, harassment, self-harm intent, dehumanising statements, ' +
    'and your own words.',
  parseParams,
  detect(text, params) {
    const wanted = new Set<string>(params.categories);
    const matches: ModerationMatch[] = [];
    const add = (match: ModerationMatch) => {
      if (matches.length < MAX_MATCHES && !params.compiled.allow.has(match.term)) matches.push(match);
    };
    const normalised = PHRASES.some((p) => wanted.has(p.category)) || params.compiled.banlist || text.length > FULL_READ ? normaliseForPhrases(text) : '';
    if (params.compiled.words) {
      const seen = new Set<string>();
      const sources = text.length <= FULL_READ ? [text, closedGaps(text)] : [text.slice(0, EDGE), text.slice(-EDGE), closedGaps(text)];
      if (text.length > FULL_READ) {
        const plain = plainForm(normalised);
        PLAIN_WORDS.lastIndex = 0;
        for (let m = PLAIN_WORDS.exec(plain); m !== null && matches.length < MAX_MATCHES; m = PLAIN_WORDS.exec(plain)) {
          const word = m[1] ?? '';
          const category = categoryOfWord(word);
          if (wanted.has(category) && !seen.has(word)) add({ category, term: word });
          seen.add(word);
        }
      }
      for (const source of sources) {
        for (const found of params.compiled.words.getAllMatches(source, true)) {
          const word = WORD_DATASET.getPayloadWithPhraseMetadata(found).phraseMetadata?.originalWord ?? '';
          const category = categoryOfWord(word);
          if (wanted.has(category) && !seen.has(word)) add({ category, term: word });
          seen.add(word);
          if (matches.length >= MAX_MATCHES) break;
        }
      }
    }
    for (const phrase of PHRASES) {
      if (!wanted.has(phrase.category)) continue;
      const found = phrase.pattern.exec(normalised);
      if (found) add({ category: phrase.category, term: found[0] });
    }
    const banlist = params.compiled.banlist;
    if (banlist && matches.length < MAX_MATCHES) {
      banlist.scan(normalised.replace(/\s+/g, ' '), (term) => {
        add({ category: 'banlist', term: banlist.keywords[term] as string });
        return matches.length >= MAX_MATCHES;
      });
    }
    if (matches.length === 0) return clean({ matches: [] });
    const score = Math.max(...matches.map((m) => (m.category === 'banlist' ? 1 : CATEGORY_SCORE[m.category])));
    return { hit: true, score, label: 'flagged', details: { categories: [...new Set(matches.map((m) => m.category))], matches } };
  },
};
