import type { LlmConfig } from '../config.js';
import { chatText } from '../llm/client.js';
import type { DetectorLlm } from './types.js';

/** The configured model (WARDEN_LLM_*) as the LLM-based methods call it; undefined when none is configured. */
export function detectorLlm(llm: LlmConfig | undefined): DetectorLlm | undefined {
  if (!llm) return undefined;
  return {
    complete: (messages, options = {}) =>
      chatText(llm, messages, {
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
        maxTokens: 512,
      }),
  };
}
