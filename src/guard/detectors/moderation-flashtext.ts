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
  WORD_DATASET,
} from './moderation-lists.js';

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
  compiled: { words: RegExpMatcher | null; banlist: RegExp | null; allow: Set<string> };
}

const escape = (value: string) => value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const DEFAULT_MATCHER = buildWordMatcher();
const MAX_MATCHES = 10;

function parseParams(raw: Record<string, unknown>): ModerationParams {
  const parsed = baseParams(raw);
  const categories = parsed.categories as ModerationCategory[];
  const wordsWanted = categories.some((c) => c === 'profanity' || c === 'sexual' || c === 'hate');
  const words = wordsWanted ? (parsed.allowlist.length ? buildWordMatcher(parsed.allowlist) : DEFAULT_MATCHER) : null;
  const terms = parsed.banlist.map((w) => normaliseForPhrases(w).trim().replace(/\s+/g, ' ')).filter((w) => w.length > 0);
  const banlist = terms.length
    ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${terms.map((t) => escape(t).replace(/ /g, '\\s+')).join('|')})(?![\\p{L}\\p{N}])`, 'gu')
    : null;
  return { banlist: parsed.banlist, allowlist: parsed.allowlist, categories, compiled: { words, banlist, allow: new Set(parsed.allowlist.map(normaliseForPhrases)) } };
}

interface ModerationMatch {
  category: ModerationCategory | 'banlist';
  term: string;
}

export const moderationFlashtext: SyncDetectorDefinition<ModerationParams> = {
  id: 'moderation-flashtext',
  type: 'moderation',
  description: 'Ban list: profanity, sexual slang and slurs (leetspeak-aware), threats, harassment, self-harm intent, dehumanising statements, and your own words.',
  parseParams,
  detect(text, params) {
    const wanted = new Set<string>(params.categories);
    const matches: ModerationMatch[] = [];
    const add = (match: ModerationMatch) => {
      if (matches.length < MAX_MATCHES && !params.compiled.allow.has(match.term)) matches.push(match);
    };
    if (params.compiled.words) {
      for (const found of params.compiled.words.getAllMatches(text, true)) {
        const word = WORD_DATASET.getPayloadWithPhraseMetadata(found).phraseMetadata?.originalWord ?? '';
        const category = categoryOfWord(word);
        if (wanted.has(category)) add({ category, term: word });
        if (matches.length >= MAX_MATCHES) break;
      }
    }
    const normalised = PHRASES.some((p) => wanted.has(p.category)) || params.compiled.banlist ? normaliseForPhrases(text) : '';
    for (const phrase of PHRASES) {
      if (!wanted.has(phrase.category)) continue;
      const found = phrase.pattern.exec(normalised);
      if (found) add({ category: phrase.category, term: found[0] });
    }
    if (params.compiled.banlist) {
      params.compiled.banlist.lastIndex = 0;
      for (let m = params.compiled.banlist.exec(normalised); m !== null && matches.length < MAX_MATCHES; m = params.compiled.banlist.exec(normalised)) {
        add({ category: 'banlist', term: m[0].replace(/\s+/g, ' ') });
      }
    }
    if (matches.length === 0) return clean({ matches: [] });
    const score = Math.max(...matches.map((m) => (m.category === 'banlist' ? 1 : CATEGORY_SCORE[m.category])));
    return { hit: true, score, label: 'flagged', details: { categories: [...new Set(matches.map((m) => m.category))], matches } };
  },
};
