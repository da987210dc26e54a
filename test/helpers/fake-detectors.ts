/**
 * Stand-ins for the guard catalogue in unit tests of the evaluation scorer: a few regexes per
 * method id, the entity kinds in `details.entities` as the real methods report them. Any other
 * method id throws, as an unavailable method would.
 */
import { clean, type DetectionResult } from '../../src/guard/types.js';

const flagged = (entities: string[]): DetectionResult => ({ hit: true, score: 1, label: 'flagged', details: { entities } });

const RULES: Record<string, Record<string, RegExp>> = {
  'privacy-presidio': {
    EMAIL_ADDRESS: /[\w.+-]+@[\w-]+\.[\w.]+/,
    US_SSN: /\b\d{3}-\d{2}-\d{4}\b/,
    PHONE_NUMBER: /\(?\d{3}\)?[ .-]\d{3}-\d{4}/,
    CREDIT_CARD: /\b(?:\d{4}[ -]?){3}\d{4}\b/,
  },
  'detect-secrets': { 'Stripe key': /\bsk_(?:live|test)_\w{10,}/, 'AWS key': /\bAKIA[0-9A-Z]{16}\b/, 'GitHub token': /\bghp_\w{30,}/ },
  'moderation-flashtext': { profanity: /\b(?:fuck\w*|shit\w*|damn|bastard)\b/i, insult: /\b(?:idiot|moron|worthless)\b/i },
};

export async function fakeDetect(method: string, text: string): Promise<DetectionResult> {
  const rules = RULES[method];
  if (!rules) throw new Error(`unknown method ${method}`);
  const kinds = Object.entries(rules)
    .filter(([, re]) => re.test(text))
    .map(([name]) => name);
  return kinds.length ? flagged(kinds) : clean();
}
