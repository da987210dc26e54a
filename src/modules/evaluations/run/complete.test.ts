import { describe, expect, it } from 'vitest';
import { formatDecimal } from '../../../evaluation/report/text.js';
import { testScoreOf } from './complete.js';

describe('testScoreOf', () => {
  it('writes the overall score as the report prints it: four decimals, truncated', () => {
    // 47/120: the report says 0.3916; the agent must not say 0.3917.
    expect(testScoreOf(47 / 120)).toBe('0.3916');
    expect(testScoreOf(47 / 120)).toBe(formatDecimal(47 / 120));
    // Just under the pass threshold: never shown as reaching it.
    expect(testScoreOf(0.69996)).toBe('0.6999');
    expect(testScoreOf(1)).toBe('1.0000');
    expect(testScoreOf(0)).toBe('0.0000');
  });
});
