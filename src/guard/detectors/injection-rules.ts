/**
 * The rules of `prompt-injection-warden` (English in injection-rules-en.ts, other languages in
 * injection-rules-intl.ts) and how their matches combine: noisy-or of the matched weights.
 */
import { EN_RULES } from './injection-rules-en.js';
import { INTL_RULES } from './injection-rules-intl.js';
import type { Rule, RuleFamily, RuleStart } from './rule-builder.js';

export type { Rule, RuleFamily } from './rule-builder.js';

export const RULES: readonly Rule[] = [...EN_RULES, ...INTL_RULES];

export interface RuleMatch {
  id: string;
  family: RuleFamily;
  weight: number;
}

/**
 * Function words of each Latin-script language with rules here: a language's rules are only tried
 * when one of its words occurs (most texts are in one language, so this skips most of them).
 */
const LANGUAGE_GATES: Readonly<Record<string, RegExp>> = {
  es: /\b(?:las|los|del|tus|sus|que|para|por|una|sin|todo|todas|ahora|modo|eres|dime|muestra)\b/,
  fr: /\b(?:les|des|tes|vos|toutes|tous|une|pour|sans|avec|moi|maintenant|desormais|tu|es|ton|mode)\b/,
  de: /\b(?:die|der|das|und|alle|deine|ihre|mir|ohne|nicht|jetzt|von|du|ab|sie|den)\b/,
  pt: /\b(?:das|dos|suas|seus|uma|voce|agora|nao|sem|todas|modo|me|qual|seu|sua)\b/,
  it: /\b(?:gli|della|delle|tue|tutte|senza|dimmi|ora|sono|questo|il|le|da|modalita|sei|qual)\b/,
};
const HAS_CYRILLIC = /[\u0400-\u04ff]/;
const HAS_CJK = /[\u3040-\u30ff\u3400-\u9fff]/;
const HAS_HANGUL = /[\uac00-\ud7af]/;

/**
 * Which 3- and 4-character strings a text contains, as a bit table of their hashes (one pass over the
 * text). A rule whose matches all begin with one of its `starts` is tried only when the table has the
 * first 3 or 4 characters of one of them: a hash can collide (the rule is then tried for nothing), a
 * string present is never missed. Most rules begin with words an ordinary text does not contain.
 */
const GRAM_BITS = 20;
const GRAM_MASK = (1 << GRAM_BITS) - 1;
const grams = new Uint32Array(1 << (GRAM_BITS - 5));
const SEED3 = 0x9e3779b1;
const SEED4 = 0x85ebca77;
/** The same at the start of a word (a word character after a non-word one, as `\\b` sees them). */
const SEED3_WORD = 0xc2b2ae3d;
const SEED4_WORD = 0x27d4eb2f;
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95 || (c >= 65 && c <= 90);
function setGram(h: number): void {
  grams[h >>> 5] = (grams[h >>> 5] as number) | (1 << (h & 31));
}
function gramHash(seed: number, a: number, b: number, c: number, d: number): number {
  let h = Math.imul(seed ^ a, 0x01000193);
  h = Math.imul(h ^ b, 0x01000193);
  h = Math.imul(h ^ c, 0x01000193);
  if (d >= 0) h = Math.imul(h ^ d, 0x01000193);
  return (h ^ (h >>> 15)) & GRAM_MASK;
}
function fillGrams(text: string): void {
  grams.fill(0);
  let prevWord = false;
  for (let i = 0; i + 3 <= text.length; i += 1) {
    const a = text.charCodeAt(i);
    const b = text.charCodeAt(i + 1);
    const c = text.charCodeAt(i + 2);
    const d = i + 4 <= text.length ? text.charCodeAt(i + 3) : -1;
    const wordStart = isWordChar(a) && !prevWord;
    prevWord = isWordChar(a);
    setGram(gramHash(SEED3, a, b, c, -1));
    if (d >= 0) setGram(gramHash(SEED4, a, b, c, d));
    if (!wordStart) continue;
    setGram(gramHash(SEED3_WORD, a, b, c, -1));
    if (d >= 0) setGram(gramHash(SEED4_WORD, a, b, c, d));
  }
}
function mayContain(start: RuleStart): boolean {
  const s = start.text;
  const h =
    s.length >= 4
      ? gramHash(start.word ? SEED4_WORD : SEED4, s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), s.charCodeAt(3))
      : gramHash(start.word ? SEED3_WORD : SEED3, s.charCodeAt(0), s.charCodeAt(1), s.charCodeAt(2), -1);
  return (((grams[h >>> 5] as number) >>> (h & 31)) & 1) === 1;
}

/** The rules matching a normalised text. */
export function matchRules(normalized: string): RuleMatch[] {
  const scripts = { cyrillic: HAS_CYRILLIC.test(normalized), cjk: HAS_CJK.test(normalized), hangul: HAS_HANGUL.test(normalized) };
  const out: RuleMatch[] = [];
  const gates: Record<string, boolean> = {};
  for (const [lang, gate] of Object.entries(LANGUAGE_GATES)) gates[lang] = gate.test(normalized);
  fillGrams(normalized);
  for (const rule of RULES) {
    if (rule.script !== undefined && !scripts[rule.script]) continue;
    const lang = rule.id.slice(0, 3);
    if (lang[2] === '.' && gates[lang.slice(0, 2)] === false) continue;
    if (rule.starts !== undefined && !rule.starts.some(mayContain)) continue;
    if (rule.contains !== undefined && !rule.contains.some((s) => normalized.includes(s))) continue;
    if (rule.re.test(normalized)) out.push({ id: rule.id, family: rule.family, weight: rule.weight });
  }
  return out;
}

/** Noisy-or of the matched weights: independent weak cues add up, one strong cue suffices. */
export function ruleScore(matches: readonly RuleMatch[]): number {
  let keep = 1;
  for (const m of matches) keep *= 1 - m.weight;
  return 1 - keep;
}
