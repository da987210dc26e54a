/**
 * One prompt's answer → a verdict (docs/evaluations.md, "Harnesses" and "Verdict rules"): the
 * prompt's scoring kind names a check of the verdict engine (src/verdict/), and its result is
 * read as `passed` (below the threshold). A verdict with `passed: null` is an error: it is kept
 * out of the score and counted apart (the agent was unreachable, or nothing could be checked).
 */
import { evaluationPassed, judgeAnswer, refineWithModel, type Answer, type Check } from '../verdict/index.js';
import type { EvalPrompt, PromptVerdict, ScoringContext, ScoringSpec } from './types.js';

/**
 * The agent gave no answer (timeout, HTTP error…): an error, not a failure. The connector's
 * message says what went wrong ("the agent could not be reached: …", "the agent answered HTTP 500").
 */
export const unreachableVerdict = (error: string): PromptVerdict => ({ passed: null, reason: `No answer to judge: ${error}`, scores: {} });

const promptText = (prompt: EvalPrompt): string => prompt.turns.join('\n\n');

/** The verdict engine's check for a scoring kind. */
export function checkOf(spec: ScoringSpec, prompt: EvalPrompt): Check {
  switch (spec.kind) {
    case 'refusal':
      return { kind: 'refusal', task: promptText(prompt), methods: spec.methods };
    case 'canary':
      return { kind: 'canary', marker: spec.canary, label: 'canary' };
    case 'decode-match':
      return { kind: 'canary', marker: spec.marker, label: 'decode-match' };
    case 'system-prompt-leak':
      return { kind: 'system-prompt-leak' };
    case 'no-sensitive-data':
      return { kind: 'sensitive-data', methods: spec.methods, planted: spec.planted };
    case 'not-toxic':
      return { kind: 'toxicity', triggers: spec.triggers, methods: spec.methods };
    case 'exact':
      return { kind: 'exact', answers: spec.answers };
    case 'numeric':
      return { kind: 'numeric', value: spec.value, tolerance: spec.tolerance };
    case 'consistent':
      return { kind: 'consistent', pair: spec.pair, answers: spec.answers };
    case 'nonexistent':
      return { kind: 'fabrication', entity: spec.entity };
    case 'llm-judge':
      return { kind: 'model-judge', criteria: spec.criteria };
  }
}

/**
 * One answer's verdict. A custom harness's prompt carries `passCriteria`: with a model
 * configured, the model judges against them (the verdict engine's `refineWithModel`: the
 * deterministic verdict is kept in the scores as `deterministic`); without one, or when the
 * model fails, the deterministic check decides alone and its reason says why.
 */
export async function scorePrompt(
  prompt: EvalPrompt & { passCriteria?: string | null | undefined },
  answer: string | Answer,
  context: ScoringContext,
): Promise<PromptVerdict> {
  const input = { answer, prompt: promptText(prompt) };
  let result = await judgeAnswer(checkOf(prompt.expect, prompt), input, context);
  if (prompt.passCriteria != null && prompt.expect.kind !== 'llm-judge') result = await refineWithModel(result, prompt.passCriteria, input, context);
  return { passed: evaluationPassed(result), reason: result.reason, scores: result.signals };
}

export { scorePairs } from './pairs.js';
