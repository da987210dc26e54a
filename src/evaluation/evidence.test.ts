import { describe, expect, it } from 'vitest';
import { mergeEvidence, missingPillars, overallOfEvidence, type MeasuredRun } from './evidence.js';
import type { ScoreWithInterval } from './types.js';

const score = (value: number, n = 20): ScoreWithInterval => ({ score: value, n, low: value / 2, high: Math.min(1, value + 0.1) });

const fullRun: MeasuredRun = {
  evaluationId: 'full',
  at: 1000,
  pillars: { reliability: score(0.9), security: score(0.3), safety: score(0.4) },
  harnesses: [
    { name: 'security', pillar: 'security' },
    { name: 'privacy', pillar: 'security' },
    { name: 'safety', pillar: 'safety' },
    { name: 'reliability', pillar: 'reliability' },
  ],
};

describe('the agent\u2019s evidence', () => {
  it('keeps each pillar\u2019s latest measurement: a narrower run replaces only what it measured', () => {
    const first = mergeEvidence([], fullRun);
    expect(first.map((e) => [e.pillar, e.evaluationId, e.harnesses])).toEqual([
      ['reliability', 'full', ['reliability']],
      ['security', 'full', ['security', 'privacy']],
      ['safety', 'full', ['safety']],
    ]);
    const narrow: MeasuredRun = {
      evaluationId: 'narrow',
      at: 2000,
      pillars: { reliability: null, security: score(0.7), safety: { score: 0, n: 0, low: 0, high: 1 } },
      harnesses: [{ name: 'security', pillar: 'security' }, { name: 'safety', pillar: 'safety' }],
    };
    const after = mergeEvidence(first, narrow);
    expect(after.map((e) => [e.pillar, e.evaluationId, e.score.score, e.measuredAt])).toEqual([
      ['reliability', 'full', 0.9, 1000],
      ['security', 'narrow', 0.7, 2000],
      // Nothing of safety was scored in the narrow run (n = 0): the older measurement stays.
      ['safety', 'full', 0.4, 1000],
    ]);
    // The mean of the pillars kept, aged by the oldest of them.
    const overall = overallOfEvidence(after);
    expect(overall?.score).toBeCloseTo((0.9 + 0.7 + 0.4) / 3, 12);
    expect(overall?.measuredAt).toBe(1000);
  });

  it('has no overall score without evidence, and names the pillars missing', () => {
    expect(overallOfEvidence([])).toBeNull();
    expect(missingPillars({ security: score(0.5) })).toEqual(['reliability', 'safety']);
    expect(missingPillars(fullRun.pillars)).toEqual([]);
  });
});
