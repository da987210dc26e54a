// placeholder: replaced by the guard-engine branch at merge (same exported names).
import type { DetectorDefinition } from './types.js';

const methods: Record<string, DetectorDefinition> = {
  'prompt-injection-warden': {
    id: 'prompt-injection-warden',
    type: 'security',
    description: 'placeholder',
    parseParams: (raw) => raw,
    detect: () => ({ hit: false, score: 0, label: 'clean', details: {} }),
  },
  'security-llm': {
    id: 'security-llm',
    type: 'security',
    description: 'placeholder',
    needsLlm: true,
    parseParams: (raw) => raw,
    detect: () => ({ hit: false, score: 0, label: 'clean', details: {} }),
  },
};
export const getMethod = (id: string): DetectorDefinition | undefined => methods[id];
