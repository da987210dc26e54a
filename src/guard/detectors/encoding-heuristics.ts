// placeholder: replaced by the guard-security branch at merge
import { clean, type DetectorDefinition, GuardConfigError } from '../types.js';

const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF]/g;

export const encodingHeuristics: DetectorDefinition<Record<string, never>> = {
  id: 'encoding-heuristics',
  type: 'security',
  description: 'Encoded or obfuscated payloads (placeholder: zero-width characters only).',
  parseParams(raw) {
    const key = Object.keys(raw).find((k) => k !== 'threshold_map');
    if (key !== undefined) throw new GuardConfigError([key], `unknown parameter '${key}'`, 'extra_forbidden');
    return {};
  },
  detect(text) {
    const sample = text.slice(0, 100_000);
    const count = sample.match(ZERO_WIDTH)?.length ?? 0;
    return count > 0 && count / Math.max(sample.length, 1) > 0.01 ? { hit: true, score: 1, label: 'flagged', details: { zero_width: count } } : clean();
  },
};
