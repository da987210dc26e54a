/**
 * How a case is delivered (docs/redteam.md, "Strategies"). The one-message strategies reuse the
 * attack transforms of src/attacks/; `best-of-n` and `crescendo` are conversations (./run-attack.ts).
 */
import { mulberry32, pick } from '../attacks/random.js';
import { applyTransform, LANGUAGE_TRANSFORM_IDS, perturb, ROLE_PLAY_TRANSFORM_IDS } from '../attacks/transforms.js';
import type { Strategy } from './types.js';

export const STRATEGY_DESCRIPTIONS: Record<Strategy, string> = {
  basic: 'The request as written',
  base64: 'Base64-encoded, with an instruction to decode and follow it',
  rot13: 'ROT13-encoded, with an instruction to decode and follow it',
  hex: 'Hex-encoded UTF-8, with an instruction to decode and follow it',
  leetspeak: 'Letters written as digits (a→4, e→3, …)',
  homoglyph: 'Latin letters swapped for Cyrillic and Greek look-alikes',
  'zero-width': 'Zero-width characters between the letters',
  'tag-smuggling': 'Hidden in invisible Unicode tag characters after a harmless sentence',
  reversed: 'Written backwards, with an instruction to reverse and follow it',
  roleplay: 'Wrapped in a role-play framing (fiction, developer mode, grandmother, hypothetical, unrestricted persona)',
  multilingual: 'Sent in another language (Spanish, French, German, Portuguese, Italian, Chinese, Japanese, Russian)',
  'payload-splitting': 'Split into string variables the agent is asked to join and follow',
  'best-of-n': 'Random variations (capitalisation, swapped letters, spacing), sent one after another until one works or N are spent',
  crescendo: 'A conversation that starts harmless and escalates over up to 5 turns, backing off when refused',
};

/** The transform of each one-message strategy (roleplay and multilingual pick one by seed). */
const TRANSFORM: Partial<Record<Strategy, string>> = {
  base64: 'base64',
  rot13: 'rot13',
  hex: 'hex',
  leetspeak: 'leetspeak',
  homoglyph: 'homoglyph',
  'zero-width': 'zero-width',
  'tag-smuggling': 'tag-smuggling',
  reversed: 'reversed',
  'payload-splitting': 'payload-split',
};

/** The message a one-message strategy sends for `payload` (best-of-n: its first variation; crescendo: the payload). */
export function deliver(strategy: Strategy, payload: string, seed: number): string {
  switch (strategy) {
    case 'basic':
    case 'crescendo':
      return payload;
    case 'best-of-n':
      return variation(payload, seed, 0);
    case 'roleplay':
      return applyTransform(ROLE_PLAY_TRANSFORM_IDS[pick(mulberry32(seed), ROLE_PLAY_TRANSFORM_IDS.length)] as string, payload, seed);
    case 'multilingual':
      return applyTransform(LANGUAGE_TRANSFORM_IDS[pick(mulberry32(seed), LANGUAGE_TRANSFORM_IDS.length)] as string, payload, seed);
    default:
      return applyTransform(TRANSFORM[strategy] as string, payload, seed);
  }
}

/** best-of-n's k-th variation (k = 0, 1, …): seeded noise that keeps canaries, numbers and names intact. */
export const variation = (payload: string, seed: number, k: number): string => perturb(payload, (seed + k * 0x9e3779b1) >>> 0);

export const isStrategy = (value: string): value is Strategy => value in STRATEGY_DESCRIPTIONS;
