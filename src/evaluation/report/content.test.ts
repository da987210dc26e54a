import { describe, expect, it } from 'vitest';
import { buildReportModel, fixedScore } from '../../../test/helpers/evaluation-report-fixture.js';
import { failureExamples, reportTotals, requestParameterRows, verdictOf, verdictSentence } from './content.js';

describe('verdictOf', () => {
  it('is PASS at the threshold and FAIL just under it', () => {
    expect(verdictOf(fixedScore(0.7), 0.7)).toBe('pass');
    expect(verdictOf(fixedScore(0.6999), 0.7)).toBe('fail');
    expect(verdictOf(fixedScore(1), 0.7)).toBe('pass');
    expect(verdictOf(fixedScore(0), 0.7)).toBe('fail');
  });

  it('does not let floating-point noise of a mean decide (0.75 and 0.65 average to 0.6999999999999998)', () => {
    expect(verdictOf(fixedScore((0.75 + 0.65) / 2), 0.7)).toBe('pass');
  });

  it('has no verdict without an overall score', () => {
    expect(verdictOf(null, 0.7)).toBe('not-measured');
    expect(verdictOf({ score: 0, n: 0, low: 0, high: 1 }, 0.7)).toBe('not-measured');
  });

  it('is INCOMPLETE, whatever the score, when a pillar was not measured or the run did not complete', () => {
    const all = { reliability: fixedScore(0.9), security: fixedScore(0.9), safety: fixedScore(0.9) };
    expect(verdictOf(fixedScore(0.9), 0.7, { pillars: all, status: 'completed' })).toBe('pass');
    expect(verdictOf(fixedScore(0.5), 0.7, { pillars: all })).toBe('fail');
    expect(verdictOf(fixedScore(0.9), 0.7, { pillars: { ...all, safety: null } })).toBe('incomplete');
    expect(verdictOf(fixedScore(0.5), 0.7, { pillars: { ...all, reliability: { score: 0, n: 0, low: 0, high: 1 } } })).toBe('incomplete');
    expect(verdictOf(fixedScore(0.9), 0.7, { pillars: all, status: 'cancelled' })).toBe('incomplete');
    expect(verdictOf(null, 0.7, { pillars: {}, status: 'failed' })).toBe('incomplete');
    expect(verdictOf(null, 0.7, { pillars: {}, status: 'completed' })).toBe('not-measured');
  });

  it('says it in words with the truncated percentage and the exact decimal', () => {
    const model = { ...buildReportModel(), overall: fixedScore(0.6999) };
    expect(verdictSentence(model)).toBe('Overall score 69.9\u00a0% (0.6999) is below the pass threshold of 70\u00a0%.');
  });
});

describe('reportTotals', () => {
  it('counts scored prompts and errors across harnesses', () => {
    const model = buildReportModel();
    expect(reportTotals(model)).toEqual({ scored: model.overall?.n, errors: 9 });
    expect(reportTotals({ ...model, overall: null, harnesses: [] })).toEqual({ scored: 0, errors: 0 });
  });
});

describe('failureExamples', () => {
  it('names harness, scenario and probe by their names and cuts long texts', () => {
    const model = buildReportModel();
    const examples = failureExamples(model, { promptChars: 200, responseChars: 200, maxLines: 5, reasonChars: 100 });
    expect(examples).toHaveLength(model.failures.length);
    expect(examples[0]?.path).toEqual(['Security', 'Prompt injection', 'Injected in a document']);
    const long = examples.find((e) => e.path[2] === 'Multi-turn escalation');
    expect(long?.response.omitted).toBeGreaterThan(0);
    expect(Array.from(long?.response.text ?? '').length).toBeLessThanOrEqual(201);
  });

  it('keeps the ids of a failure whose harness the model does not list', () => {
    const model = { ...buildReportModel(), failures: [{ harness: 'custom', scenario: 's', probe: 'p', prompt: 'q', response: 'a', reason: 'r' }] };
    expect(failureExamples(model, { promptChars: 10, responseChars: 10, maxLines: 2, reasonChars: 10 })[0]?.path).toEqual(['custom', 's', 'p']);
  });
});

describe('requestParameterRows', () => {
  it('prints values compactly and withholds anything named like a credential, at any depth', () => {
    const rows = requestParameterRows({
      harnesses: ['security', 'safety'],
      sample_size: 30,
      agent_api_key: 'sk-live-123',
      headers: { Authorization: 'Bearer abc', accept: 'json' },
      empty: [],
    });
    expect(rows).toEqual([
      { key: 'harnesses', value: 'security, safety' },
      { key: 'sample_size', value: '30' },
      { key: 'agent_api_key', value: '[withheld]' },
      { key: 'headers', value: '{"Authorization":"[withheld]","accept":"json"}' },
      { key: 'empty', value: '(none)' },
    ]);
  });
});
