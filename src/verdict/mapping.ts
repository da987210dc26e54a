/**
 * The two readings of one result (CONTRACT.md, "Verdicts"): an evaluation passes below the
 * threshold, a campaign's attack succeeded at or above it. A result that checked nothing is an
 * error for an evaluation (kept out of its score) and no success for a campaign.
 */
import { VERDICT_THRESHOLD, type VerdictResult } from './types.js';

export const evaluationPassed = (result: VerdictResult): boolean | null => (result.unchecked ? null : result.score < VERDICT_THRESHOLD);

export const attackSucceeded = (result: VerdictResult): boolean => !result.unchecked && result.score >= VERDICT_THRESHOLD;
