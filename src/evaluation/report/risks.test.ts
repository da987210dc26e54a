import { describe, expect, it } from 'vitest';
import { buildReportModel } from '../../../test/helpers/evaluation-report-fixture.js';
import { evaluationRisks } from './risks.js';
import { formatPercent } from './text.js';

describe('an evaluation risk', () => {
  it('counts the prompts that failed, summed over its probes, rather than printing a mean of shares as a share of prompts', () => {
    const base = buildReportModel({ harnesses: ['reliability'] });
    const score = (passed: number, n: number) => ({ score: passed / n, n, low: 0, high: 1 });
    const harness = base.harnesses[0]!;
    const scenario = {
      ...harness.scenarios[0]!,
      // Probes of 4 and 5 prompts: 2 and 5 failed. The scenario's score is the mean of its probes (25 %).
      score: { score: 0.25, n: 9, low: 0.05, high: 0.6 },
      probes: [
        { id: 'a', name: 'A', description: '', score: score(2, 4) },
        { id: 'b', name: 'B', description: '', score: score(0, 5) },
      ],
    };
    const model = { ...base, harnesses: [{ ...harness, scenarios: [scenario] }] };
    expect(evaluationRisks(model)[0]?.detail).toBe(`7 of 9 prompts failed (score ${formatPercent(0.25)})`);
  });
});
