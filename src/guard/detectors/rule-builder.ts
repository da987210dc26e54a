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
}

export function rule(
  id: string,
  family: RuleFamily,
  weight: number,
  source: string | string[],
  options: { script?: Rule['script']; flags?: string } = {},
): Rule {
  const re = new RegExp(Array.isArray(source) ? source.join('') : source, options.flags ?? '');
  return options.script === undefined ? { id, family, weight, re } : { id, family, weight, re, script: options.script };
}

/** Up to `n` arbitrary words between two parts. */
export const gap = (n: number): string => `(?:\\S+\\s+){0,${n}}?`;
/** Up to `n` words, none of them "my"/"our" (a user correcting their own earlier message is not an override). */
export const gapNotMine = (n: number): string => `(?:(?!my\\b|our\\b)\\S+\\s+){0,${n}}?`;
