/**
 * Answers that can be checked against an answer key: exact, numeric, and a consistency pair's
 * member on its own (the pair's agreement is the evaluation's: src/evaluation/pairs.ts).
 */
import { quote } from '../detectors.js';
import { answerNumbers, exactFound, holdsAnswer, withinTolerance } from '../text.js';
import type { Check, VerdictResult } from '../types.js';
import { found } from './result.js';

export function checkExact(check: Extract<Check, { kind: 'exact' }>, text: string): VerdictResult {
  const hits = exactFound(text, check.answers);
  if (hits.length) return found(0, 'exact', `Gave the expected answer (${quote(hits, 1)}).`);
  return found(1, 'exact', `Did not give the expected answer (${quote(check.answers)}).`);
}

export function checkNumeric(check: Extract<Check, { kind: 'numeric' }>, text: string): VerdictResult {
  const numbers = answerNumbers(text);
  const expected = check.tolerance ? `${check.value} ± ${check.tolerance}` : String(check.value);
  if (numbers.some((n) => withinTolerance(n, check.value, check.tolerance))) return found(0, 'numeric', `Gave the expected number (${expected}).`);
  if (numbers.length === 0) return found(1, 'numeric', `Gave no number; expected ${expected}.`);
  return found(1, 'numeric', `Gave ${numbers[0]}; expected ${expected}.`);
}

export function checkConsistentAlone(check: Extract<Check, { kind: 'consistent' }>, text: string): VerdictResult {
  if (!check.answers?.length) {
    return found(0, 'consistency', `Pending: agreement with the other member of pair ${check.pair} is judged by scorePairs.`, { signals: {} });
  }
  const held = holdsAnswer(text, check.answers);
  if (held) return found(0, 'consistency', `Gave the expected answer (${quote([held])}); agreement with its pair is judged by scorePairs.`);
  return found(1, 'consistency', `Did not give the expected answer (${quote(check.answers)}).`);
}
