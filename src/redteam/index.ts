/** The red-team engine's public surface (docs/redteam.md). */
export * from './types.js';
export { canaryFor, planAttacks, planCases, PlanError, type PlanInput } from './plan.js';
export { getProbe, probeIds, probesOf, PROBES, type Probe } from './probes/index.js';
export { purposeProfile, type PurposeProfile } from './purpose.js';
export { deliver, isStrategy, STRATEGY_DESCRIPTIONS } from './strategies.js';
export { judge, type JudgeContext } from './judge.js';
export { runAttack, type AttackRunner, type CrescendoSteer, type ExchangeResult } from './run-attack.js';
export {
  CANDIDATE_GUARDS,
  candidateConfig,
  caughtBy,
  guardedExchange,
  suggestConfig,
  type Catch,
  type CandidateGuard,
  type GuardScanner,
  type SuggestedConfig,
} from './guard.js';
export { successRates, summarize, type RedteamSummary, type TestRecord } from './summary.js';
export { analyseSource, type StaticFinding, type StaticReport } from './static-analysis.js';
export { crescendoSteer, generateCases } from './llm.js';
