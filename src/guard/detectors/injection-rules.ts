/**
 * The rules of `prompt-injection-warden` (English in injection-rules-en.ts, other languages in
 * injection-rules-intl.ts) and how their matches combine: noisy-or of the matched weights.
 */
import { EN_RULES } from './injection-rules-en.js';
import { INTL_RULES } from './injection-rules-intl.js';
import type { Rule, RuleFamily } from './rule-builder.js';

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

/** The rules matching a normalised text. */
export function matchRules(normalized: string): RuleMatch[] {
  const scripts = { cyrillic: HAS_CYRILLIC.test(normalized), cjk: HAS_CJK.test(normalized), hangul: HAS_HANGUL.test(normalized) };
  const out: RuleMatch[] = [];
  const gates: Record<string, boolean> = {};
  for (const [lang, gate] of Object.entries(LANGUAGE_GATES)) gates[lang] = gate.test(normalized);
  for (const rule of RULES) {
    if (rule.script !== undefined && !scripts[rule.script]) continue;
    const lang = rule.id.slice(0, 3);
    if (lang[2] === '.' && gates[lang.slice(0, 2)] === false) continue;
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
