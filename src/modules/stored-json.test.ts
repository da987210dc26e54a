import { describe, expect, it } from 'vitest';
import { harnessNamesOf, harnessScoresOf } from './evaluations/evaluations.mapping.js';
import { truncationFields } from './evaluations/result-bounds.js';
import { toFinding } from './redteam/redteam.mapping.js';
import type { FindingRow } from './redteam/redteam.repo.js';
import { toRule } from './rules/rules.mapping.js';
import type { RuleRow } from './rules/rules.repo.js';
import { ColumnDecodeError, decodeJsonValue, decodeStringList } from '../db/json-columns.js';

describe('stored JSON read back by the mappings and reports', () => {
  it('decodes what Warden wrote', () => {
    expect(decodeStringList('["a","b"]', 't.c')).toEqual(['a', 'b']);
    expect(decodeStringList(null, 't.c')).toBeNull();
    expect(decodeJsonValue('{"x":[1]}', 't.c')).toEqual({ x: [1] });
    expect(truncationFields({ prompt: 'abc', response: 'de', truncated: '{"response": 90000}' })).toEqual({
      prompt_truncated: false,
      prompt_length: 3,
      response_truncated: true,
      response_length: 90000,
    });
  });

  it('a malformed or mistyped value is an error naming the column, never a value of the wrong type', () => {
    expect(() => decodeJsonValue('{"x":', 'agents.skills')).toThrow(new ColumnDecodeError('The stored agents.skills is not valid JSON'));
    expect(() => decodeStringList('[1, 2]', 'policies.tags')).toThrow(/The stored policies\.tags is not what Warden expects at \/0/);
    expect(() => harnessNamesOf({ harness_names: '"security"' })).toThrow(ColumnDecodeError);
    expect(() => harnessScoresOf({ harness_scores: '{"security": {"score": "high"}}' })).toThrow(/evaluations\.harness_scores/);
    expect(() => truncationFields({ prompt: 'p', response: null, truncated: '{"prompt": "long"}' })).toThrow(/evaluation_results\.truncated/);
    const finding = { metadata: '[]', conversation: '[]', probe: 'p', strategy: 's' } as unknown as FindingRow;
    expect(() => toFinding(finding)).toThrow(/redteam_findings\.metadata/);
    const rule = { constraints: '[]', consequence: '{"action": 3}', provenance: null, tags: null } as unknown as RuleRow;
    expect(() => toRule(rule)).toThrow(/policy_rules\.consequence/);
  });
});
