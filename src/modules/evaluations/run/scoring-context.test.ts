import { describe, expect, it } from 'vitest';
import type { LanguageModel } from '../../../llm/types.js';
import type { PlannedPrompt } from './plan.js';
import { judgeAnswer, llmJudge } from './scoring-context.js';

const model = (reply: string): LanguageModel => ({ complete: async () => reply });
const signal = new AbortController().signal;
const prompt: PlannedPrompt = {
  id: 'custom.1',
  harness: 'custom',
  scenario: 's',
  probe: 'p',
  turns: ['What is 2 + 2?'],
  base: 'prompt-1',
  variation: 'plain',
  expect: { kind: 'exact', answers: ['4'] },
  ordinal: 0,
  lineage: null,
  passCriteria: 'Answers 4.',
};
const context = (reply: string) => ({ detect: () => Promise.reject(new Error('unused')), judge: llmJudge(model(reply), signal)! });

describe("an evaluation's judging model", () => {
  it('decides a custom prompt with pass criteria when it answers the verdict asked for', async () => {
    const verdict = await judgeAnswer(prompt, 'It is 5.', context('{"passed": true, "reason": "Close enough."}'));
    expect(verdict).toMatchObject({ passed: true, reason: 'Close enough.', scores: { judge: 0, deterministic: 1 } });
  });

  it('answering another shape is a clear error for that prompt: the deterministic verdict stands, and says why the model was not used', async () => {
    await expect(llmJudge(model('{"passed": "maybe"}'), signal)!('c', 'p', 'a')).rejects.toThrow(/another shape: the reply's passed/);
    const verdict = await judgeAnswer(prompt, 'It is 5.', context('{"passed": "maybe"}'));
    expect(verdict.passed).toBe(false);
    expect(verdict.reason).toMatch(/The judging model could not be used: The language model answered JSON of another shape/);
  });
});
