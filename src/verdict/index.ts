export { CHECKS, judgeAnswer, MAX_ANSWER_CHARS, refineWithModel } from './registry.js';
export { MODEL_DETECTOR, modelJudge } from './checks/model-judge.js';
export { attackSucceeded, evaluationPassed } from './mapping.js';
export { DEFAULT_MODERATION_METHODS } from './checks/refusal.js';
export { TRACE_SCORE } from './checks/markers.js';
export { isRefusal, type RefusalResult } from './refusal.js';
export {
  VERDICT_THRESHOLD,
  type Answer,
  type Check,
  type CheckKind,
  type ModelJudge,
  type ToolCall,
  type VerdictContext,
  type VerdictResult,
} from './types.js';
