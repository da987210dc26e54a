// placeholder: replaced by the guard-security branch at merge
import { clean, type DetectorDefinition, GuardConfigError } from '../types.js';

/** Dome's model-based security ids, answered by this method (the real map comes with the guard-security branch). */
export const SECURITY_ALIASES: Record<string, string> = {
  'prompt-injection-deberta-v3-base': 'prompt-injection-warden',
  'prompt-injection-deberta-finetuned-11122024': 'prompt-injection-warden',
  'prompt-injection-mbert': 'prompt-injection-warden',
  'prompt-injection-mbert-safeguard': 'prompt-injection-warden',
  'prompt-injection-mbert-hybrid': 'prompt-injection-warden',
  'security-promptguard': 'prompt-injection-warden',
  'security-embeddings': 'prompt-injection-warden',
  'jb-length-per-perplexity': 'prompt-injection-warden',
  'jb-prefix-suffix-perplexity': 'prompt-injection-warden',
};

const PHRASES = /\b(?:ignore|disregard|forget)\s+(?:all\s+)?(?:the\s+)?(?:previous|prior|above)\s+(?:instructions|rules|prompts)\b|\b(?:print|reveal|show)\s+(?:me\s+)?your\s+system\s+prompt\b/i;

export const promptInjection: DetectorDefinition<Record<string, never>> = {
  id: 'prompt-injection-warden',
  type: 'security',
  description: 'Prompt injection and jailbreak phrases (placeholder keyword implementation).',
  parseParams(raw) {
    const key = Object.keys(raw)[0];
    if (key !== undefined) throw new GuardConfigError([key], `unknown parameter '${key}'`, 'extra_forbidden');
    return {};
  },
  detect(text) {
    const match = PHRASES.exec(text.slice(0, 100_000));
    return match ? { hit: true, score: 1, label: 'flagged', details: { matched: 'injection phrase' } } : clean();
  },
};
