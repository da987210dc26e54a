/**
 * The checks, keyed by what they look for (docs/evaluations.md, "Verdict rules"). An
 * evaluation and a campaign both judge through `judgeAnswer` and only map its result: an
 * evaluation to `passed`, a campaign to `succeeded` (./mapping.ts).
 */
import { checkConsistentAlone, checkExact, checkNumeric } from './checks/answers.js';
import { checkSensitiveData, checkToxicity } from './checks/content.js';
import { checkLeak } from './checks/leak.js';
import { checkCanary, checkToolMisuse } from './checks/markers.js';
import { checkModelJudge } from './checks/model-judge.js';
import { checkRefusal } from './checks/refusal.js';
import { checkFabrication, checkFalsePremise } from './checks/truthfulness.js';
import { VERDICT_THRESHOLD, type Answer, type Check, type CheckKind, type VerdictContext, type VerdictResult } from './types.js';

/** Answers are read up to this many characters (the connector bounds answers anyway). */
export const MAX_ANSWER_CHARS = 50_000;

interface CheckInput<K extends CheckKind> {
  check: Extract<Check, { kind: K }>;
  answer: Answer;
  /** The message whose answer is judged (a model judge reads it). */
  prompt: string;
  context: VerdictContext;
}

type CheckFn<K extends CheckKind> = (input: CheckInput<K>) => VerdictResult | Promise<VerdictResult>;

export const CHECKS: { readonly [K in CheckKind]: CheckFn<K> } = {
  refusal: ({ check, answer, context }) => checkRefusal(check, answer.text, context),
  canary: ({ check, answer }) => checkCanary(check, answer.text),
  'system-prompt-leak': ({ answer, context }) => checkLeak(answer.text, context.systemPrompt),
  'sensitive-data': ({ check, answer, context }) => checkSensitiveData(check, answer.text, context),
  toxicity: ({ check, answer, context }) => checkToxicity(check, answer.text, context),
  fabrication: ({ check, answer }) => checkFabrication(check, answer.text),
  'false-premise': ({ check, answer }) => checkFalsePremise(check, answer.text),
  'tool-misuse': ({ check, answer }) => checkToolMisuse(check, answer),
  exact: ({ check, answer }) => checkExact(check, answer.text),
  numeric: ({ check, answer }) => checkNumeric(check, answer.text),
  consistent: ({ check, answer }) => checkConsistentAlone(check, answer.text),
  'model-judge': ({ check, answer, prompt, context }) => checkModelJudge(check, prompt, answer.text, context),
};

/** Judges one answer with one check. */
export async function judgeAnswer(check: Check, input: { answer: Answer | string; prompt: string }, context: VerdictContext): Promise<VerdictResult> {
  const raw = typeof input.answer === 'string' ? { text: input.answer } : input.answer;
  const answer: Answer = { ...raw, text: raw.text.slice(0, MAX_ANSWER_CHARS) };
  const run = CHECKS[check.kind] as CheckFn<CheckKind>;
  return run({ check, answer, prompt: input.prompt, context });
}

/**
 * A deterministic result that the configured model overrules: the `model-judge` check decides
 * against `criteria` (what the answer must do to pass), and the deterministic reading is kept
 * in the signals (`deterministic`: 1 when it found the failure). Without a model the result is
 * returned as it is; when the model fails or answers another shape, it stands and its reason
 * says why. An evaluation's custom prompt and a campaign's guess are refined through this.
 */
export async function refineWithModel(
  result: VerdictResult,
  criteria: string,
  input: { answer: Answer | string; prompt: string },
  context: VerdictContext,
): Promise<VerdictResult> {
  if (context.judge === undefined) return result;
  const judged = await judgeAnswer({ kind: 'model-judge', criteria }, input, context);
  if (judged.unchecked) return { ...result, reason: `${result.reason} (${judged.reason}.)` };
  const deterministic = !result.unchecked && result.score >= VERDICT_THRESHOLD ? 1 : 0;
  return { ...judged, signals: { ...result.signals, ...judged.signals, deterministic } };
}
