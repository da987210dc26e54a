// placeholder: replaced by the guard-engine branch at merge (same exported names).
import { GuardConfigError, type DetectionResult, type DetectorContext } from './types.js';

export interface CompileOptions {
  llmAvailable: boolean;
}
export interface ScanResult {
  flagged: boolean;
  enforced: boolean;
  response_string: string;
  trace: Record<string, unknown>;
  exec_time: number;
  detection_score: number;
  triggered_methods: string[];
  errored_methods: string[];
}
export interface CompiledDomeConfig {
  source: Record<string, unknown>;
  inputGuards: string[];
  outputGuards: string[];
  methods: string[];
  usesPolicyRules: boolean;
  scan(direction: 'input' | 'output', text: string, context: DetectorContext): Promise<ScanResult>;
}
export const DEFAULT_DOME_CONFIG: Record<string, unknown> = {
  'input-guards': ['prompt-injection'],
  'output-guards': [],
  'prompt-injection': { type: 'security', methods: ['prompt-injection-warden'] },
};
const hit = (text: string) => /ignore (all )?previous instructions/i.test(text);
export function compileDomeConfig(raw: unknown, options: CompileOptions): CompiledDomeConfig {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) throw new GuardConfigError([], 'must be an object', 'dict_type');
  const source = raw as Record<string, unknown>;
  const input = (source['input-guards'] ?? source.input_guards ?? []) as string[];
  if (!Array.isArray(input)) throw new GuardConfigError(['input-guards'], 'must be a list', 'list_type');
  const usesLlm = JSON.stringify(source).includes('security-llm');
  if (usesLlm && !options.llmAvailable) throw new GuardConfigError(['guard'], 'security-llm needs WARDEN_LLM_*');
  return {
    source,
    inputGuards: input,
    outputGuards: (source['output-guards'] ?? source.output_guards ?? []) as string[],
    methods: ['prompt-injection-warden'],
    usesPolicyRules: JSON.stringify(source).includes('policy-sections'),
    async scan(direction, text) {
      const flagged = direction === 'input' && hit(text);
      return {
        flagged,
        enforced: flagged,
        response_string: flagged ? 'Blocked by Dome' : text,
        trace: {},
        exec_time: 0,
        detection_score: flagged ? 1 : 0,
        triggered_methods: flagged ? ['prompt-injection-warden'] : [],
        errored_methods: [],
      };
    },
  };
}
export async function runDetection(methodId: string, text: string, _params: Record<string, unknown>, _context: DetectorContext): Promise<DetectionResult> {
  if (methodId !== 'prompt-injection-warden') throw new GuardConfigError([], `unknown method ${methodId}`);
  return hit(text) ? { hit: true, score: 1, label: 'flagged', details: {} } : { hit: false, score: 0, label: 'clean', details: {} };
}
