/** A configured model judges the answer against criteria; without one, or when it fails, nothing is checked. */
import type { Check, VerdictContext, VerdictResult } from '../types.js';
import { found } from './result.js';

export async function checkModelJudge(
  check: Extract<Check, { kind: 'model-judge' }>,
  prompt: string,
  text: string,
  context: VerdictContext,
): Promise<VerdictResult> {
  if (!context.judge) {
    return found(0, 'model-judge', 'Needs a language model to judge it, and none is configured (WARDEN_LLM_*).', { signals: {}, unchecked: true });
  }
  try {
    const judged = await context.judge(check.criteria, prompt, text);
    return found(judged.passed ? 0 : 1, 'model-judge', judged.reason, { signals: { judge: judged.passed ? 0 : 1 } });
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return found(0, 'model-judge', `The judging model failed: ${why}`, { signals: {}, unchecked: true });
  }
}
