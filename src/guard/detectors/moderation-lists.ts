/**
 * The word and phrase lists of `moderation-flashtext`. Profanity, sexual slang and slurs come
 * from the `obscenity` package's English dataset (its patterns survive leetspeak, repeated
 * letters and spacing tricks); the clinical and ambiguous words of that dataset (sex, penis,
 * rape, scat, hooker…) are removed because they are ordinary in health, news and sport texts.
 * Threats, incitement, self-harm intent, harassment and dehumanising statements are phrase
 * patterns written here: a single word such as "kill" or "die" is never enough.
 */
import { DataSet, englishDataset, englishRecommendedTransformers, RegExpMatcher } from 'obscenity';

export const MODERATION_CATEGORIES = ['profanity', 'sexual', 'hate', 'harassment', 'violence', 'self-harm'] as const;
export type ModerationCategory = (typeof MODERATION_CATEGORIES)[number];

/** How strongly a match of the category says the text is harmful (the method's score). */
export const CATEGORY_SCORE: Record<ModerationCategory, number> = {
  profanity: 0.6,
  sexual: 0.8,
  hate: 1,
  harassment: 1,
  violence: 1,
  'self-harm': 1,
};

const HATE_WORDS = new Set([
  'abo', 'abeed', 'africoon', 'arabush', 'boonga', 'chingchong', 'chink', 'dyke', 'fag', 'kike', 'negro', 'nigger', 'retard', 'spastic', 'tranny',
]);
const PROFANITY_WORDS = new Set(['arse', 'ass', 'bastard', 'bitch', 'bollocks', 'cunt', 'fuck', 'piss', 'prick', 'shit', 'turd', 'twat']);
const REMOVED_WORDS = new Set([
  'anal', 'anus', 'penis', 'vagina', 'sex', 'semen', 'ejaculate', 'orgasm', 'incest', 'rape', 'scat', 'hooker', 'masturbate', 'bestiality',
]);
/** Words that contain a listed one and are harmless (the Scunthorpe problem, beyond obscenity's own list). */
const EXTRA_WHITELIST = [
  'cockpit',
  'cockpits',
  'pussycat',
  'pussy willow',
  'cummings',
  'cum laude',
  'shiitake',
  'penistone',
  'rio negro',
  'río negro',
  'dickens',
  'dickinson',
  'hitchcock',
  'hancock',
  'peacock',
  'shuttlecock',
  'cocktail',
  'cockatoo',
  'titan',
  'titanic',
  'title',
  'assassin',
  'classic',
  'traffic',
  'trafficking',
  'trafficker',
  'traffickers',
  'pornography',
  'pornographic',
  'revenge porn',
];

export const categoryOfWord = (word: string): ModerationCategory => (HATE_WORDS.has(word) ? 'hate' : PROFANITY_WORDS.has(word) ? 'profanity' : 'sexual');

const dataset = new DataSet<{ originalWord: string }>()
  .addAll(englishDataset)
  .removePhrasesIf((phrase) => REMOVED_WORDS.has(phrase.metadata?.originalWord ?? ''));
const built = dataset.build();
export const WORD_DATASET = dataset;

const SEXUAL_WORDS = [
  'blowjob',
  'boob',
  'buttplug',
  'cuck',
  'deepthroat',
  'dildo',
  'doggystyle',
  'double penetration',
  'felch',
  'fellatio',
  'finger bang',
  'fisting',
  'gangbang',
  'handjob',
  'hentai',
  'jerk off',
  'jizz',
  'lubejob',
  'orgy',
  'porn',
  'pussy',
  'slut',
  'wank',
  'whore',
];
/** Words that are also names, animals or ordinary words (Dick, cock, blue tit, Río Negro…) need obscenity's context rules: not read plainly. */
const NOT_PLAIN = new Set(['cum', 'dick', 'cock', 'negro', 'tit', 'abo', 'prick']);
const WORDS = [...HATE_WORDS, ...PROFANITY_WORDS, ...SEXUAL_WORDS].filter((w) => !NOT_PLAIN.has(w));
/** The listed words in plain spelling (with common endings), for the fast reading of very long texts (see moderation-flashtext.ts). */
export const PLAIN_WORDS = new RegExp(
  `(?<![a-z])(${[...WORDS]
    .sort((a, b) => b.length - a.length)
    .map((w) => w.replace(/ /g, '\\s+'))
    .join('|')})(?:s|es|ed|er|ers|ing|in)?(?![a-z])`,
  'g',
);
const LEET: ReadonlyArray<[string, string]> = [['0', 'o'], ['1', 'i'], ['3', 'e'], ['4', 'a'], ['5', 's'], ['7', 't'], ['@', 'a'], ['$', 's']];
/** Lower case, common digit and symbol substitutions undone, letters repeated three times or more collapsed. */
export function plainForm(normalised: string): string {
  // One pass per substitution: a replace callback per character costs far more on a long text.
  let out = normalised;
  for (const [from, to] of LEET) if (out.includes(from)) out = out.replaceAll(from, to);
  return out.replace(/([a-z])\1{2,}/g, '$1');
}

export function buildWordMatcher(extraWhitelist: readonly string[] = []): RegExpMatcher {
  return new RegExpMatcher({
    blacklistedTerms: built.blacklistedTerms,
    whitelistedTerms: [...(built.whitelistedTerms ?? []), ...EXTRA_WHITELIST, ...extraWhitelist.map((w) => w.toLowerCase())],
    ...englishRecommendedTransformers,
  });
}

const GROUPS =
  '(?:jews|jewish people|muslims|christians|hindus|sikhs|blacks|black people|whites|white people|asians|mexicans|latinos|hispanics|arabs|africans|' +
  'indians|chinese|immigrants|migrants|refugees|gays|gay people|lesbians|trans people|transgender people|women|men|disabled people|gypsies|roma)';
const PEOPLE = '(?:you|u|ya|him|her|them|everyone|everybody|your (?:family|kids|children|wife|husband|mother|mom|dad|father))';

/** Phrase patterns per category, matched on the lower-cased, NFKC-normalised text. */
export const PHRASES: ReadonlyArray<{ category: ModerationCategory; name: string; pattern: RegExp }> = [
  {
    category: 'violence',
    name: 'threat',
    pattern: new RegExp(
      `\\bi(?:'ll| will| am going to|'m going to|'m gonna| am gonna| gonna| want to| wanna)\\s+` +
        `(?:kill|murder|shoot|stab|strangle|behead|rape|hurt|beat up|slit the throat of)\\s+${PEOPLE}\\b`,
    ),
  },
  { category: 'violence', name: 'threat', pattern: /\b(?:you(?:'re| are)?|ur) (?:going to|gonna) die\b|\bi(?:'ll| will) (?:hunt|track) you down\b|\byou(?:'ll| will) (?:regret|pay for) (?:this|it) with your life\b/ },
  { category: 'violence', name: 'weapon instructions', pattern: /\b(?:make|build|assemble|construct)\s+(?:a\s+)?(?:pipe\s+|nail\s+|car\s+|fertilizer\s+|dirty\s+)?bomb\b/ },
  { category: 'violence', name: 'attack incitement', pattern: /\b(?:shoot up|bomb|blow up|burn down|attack)\s+(?:the\s+|a\s+|this\s+|that\s+|my\s+|our\s+)?(?:school|church|mosque|synagogue|temple|mall|office|airport|stadium|concert)\b/ },
  { category: 'harassment', name: 'telling someone to die', pattern: /\b(?:kill yourself|kys|go die|go kill yourself|drink bleach|hang yourself|you should (?:die|kill yourself))\b/ },
  { category: 'harassment', name: 'abuse', pattern: /\byou(?:'re| are) (?:a )?(?:worthless|pathetic|disgusting|subhuman) (?:piece of (?:shit|trash|garbage)|waste of (?:space|oxygen))\b|\bnobody would miss you\b/ },
  {
    category: 'self-harm',
    name: 'self-harm intent',
    pattern: /\b(?:i (?:want|wanna|need|am going|'m going|plan) to|i(?:'ll| will)|going to|gonna)\s+(?:kill|hurt|cut|harm|hang|end) (?:myself|my life|it all)\b|\bi (?:want|wanna|wish) (?:to )?(?:die|be dead|not (?:exist|wake up))\b/,
  },
  {
    category: 'self-harm',
    name: 'self-harm method',
    pattern: /\b(?:how (?:to|do i|can i|should i)|best way to|easiest way to|painless way to|ways to)\s+(?:kill myself|commit suicide|end my life|hang myself|overdose|cut myself|die painlessly)\b/,
  },
  { category: 'self-harm', name: 'suicidal statement', pattern: /\b(?:i(?:'m| am) (?:feeling )?suicidal|i(?:'ve| have) been (?:cutting|hurting) myself|kill myself|end my own life)\b/ },
  {
    category: 'hate',
    name: 'dehumanisation',
    pattern: new RegExp(
      `\\b(?:all\\s+)?${GROUPS}\\s+(?:are|r)\\s+(?:all\\s+)?` +
        `(?:vermin|animals|subhuman|cockroaches|rats|parasites|filth|scum|a disease|a plague|inferior|savages)\\b`,
    ),
  },
  {
    category: 'hate',
    name: 'call for harm to a group',
    pattern: new RegExp(
      `\\b(?:death to|exterminate|gas|kill|eradicate|wipe out)\\s+(?:all\\s+)?(?:the\\s+)?${GROUPS}\\b|` +
        `\\b${GROUPS}\\s+(?:should|must|deserve to)\\s+(?:all\\s+)?(?:die|be killed|be exterminated|be gassed|burn)\\b`,
    ),
  },
];

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
/** The text as the phrase patterns read it: compatibility forms folded, invisible characters dropped, curly quotes straightened. */
export const normaliseForPhrases = (text: string) => text.normalize('NFKC').replace(ZERO_WIDTH, '').replace(/[\u2018\u2019]/g, "'").toLowerCase();

export { englishRecommendedTransformers };
