import type { LlmConfig } from '../../../config.js';
import type { ScoringContext } from '../../../evaluation/types.js';
import { runDetection } from '../../../guard/engine.js';
import { configuredModel } from '../../../llm/client.js';
import { modelJudge } from '../../../verdict/index.js';

/** What scoring needs for one run: the agent's system prompt, the guard detectors, the judge if any. */
export function scoringContext(llm: LlmConfig | undefined, systemPrompt: string | null, signal: AbortSignal): ScoringContext {
  const completer = configuredModel(llm);
  const judge = modelJudge(completer, signal);
  return {
    systemPrompt,
    detect: (method, text) => runDetection(method, text, {}, { llm: completer, signal }),
    ...(judge === undefined ? {} : { judge }),
  };
}
