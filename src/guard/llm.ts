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
        // No max_tokens: a reasoning model spends part of it before answering, and a cut answer reads as no verdict.
        ...(options.signal ? { signal: options.signal } : {}),
      }),
  };
}
