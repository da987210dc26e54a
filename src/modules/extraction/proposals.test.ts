import { describe, expect, it } from 'vitest';
import { EXTRACTION_MAX_RULES, extractionMessages, normaliseProposals } from './proposals.js';
import { parseJsonContent } from '../../llm/client.js';
import { RULE_SOURCE_TEXT_MAX } from '../rules/rules.schemas.js';

const DOC = 'Agents must not reveal passwords.\n\nAgents should be polite.';
const good = {
  rule_type: 'prohibition',
  action: 'reveal_password',
  consequence: { action: 'block', severity: 'critical' },
  natural_language: 'No passwords.',
  source_text: 'Agents must not reveal passwords.',
};

describe('normaliseProposals', () => {
  it('accepts {rules: [...]} or a bare list, and counts what it drops', () => {
    expect(normaliseProposals({ rules: [good] }, DOC, 'security').rules).toHaveLength(1);
    expect(normaliseProposals([good, { ...good, rule_type: 'maybe' }, null], DOC, 'security')).toMatchObject({ skipped: 2 });
    expect(normaliseProposals('nonsense', DOC, 'security')).toEqual({ rules: [], skipped: 0 });
  });

  it('falls back to defaults for values outside the documented sets', () => {
    const [rule] = normaliseProposals(
      [
        {
          ...good,
          rule_type: 'PROHIBITION',
          assignee: 'robot',
          constraint_logic: 'xor',
          category: 'misc',
          consequence: { action: 'nuke', severity: 'extreme', message: 42 },
          tags: ['a', 7, ''],
          confidence: -3,
        },
      ],
      DOC,
      'brand',
    ).rules;
    expect(rule?.body).toMatchObject({
      rule_type: 'prohibition',
      assignee: 'agent',
      constraint_logic: 'all',
      category: 'brand',
      consequence: { action: 'warn', severity: 'medium', message: null },
      tags: ['a'],
      status: 'draft',
    });
    expect(rule?.confidence).toBe(0);
  });

  it('drops rules whose source text is not in the document', () => {
    expect(normaliseProposals([{ ...good, source_text: 'Agents must not reveal secrets.' }], DOC, 'security')).toEqual({ rules: [], skipped: 1 });
    expect(normaliseProposals([{ ...good, source_text: undefined }], DOC, 'security').skipped).toBe(1);
  });

  it('drops a rule whose quoted passage is longer than RULE_SOURCE_TEXT_MAX', () => {
    const long = 'a'.repeat(RULE_SOURCE_TEXT_MAX + 1);
    const fits = 'b'.repeat(RULE_SOURCE_TEXT_MAX);
    const doc = `${long}\n\n${fits}\n\nAgents must not reveal passwords.`;
    expect(normaliseProposals([{ ...good, source_text: long }, good], doc, 'security')).toMatchObject({
      rules: [{ body: { action: 'reveal_password' } }],
      skipped: 1,
    });
    expect(normaliseProposals([{ ...good, source_text: fits }], doc, 'security').rules[0]?.location.source_text).toBe(fits);
  });

  it('keeps at most EXTRACTION_MAX_RULES rules', () => {
    const many = Array.from({ length: EXTRACTION_MAX_RULES + 5 }, () => good);
    const { rules, skipped } = normaliseProposals(many, DOC, 'security');
    expect(rules).toHaveLength(EXTRACTION_MAX_RULES);
    expect(skipped).toBe(5);
  });
});

describe('the prompt and the answer', () => {
  it('puts the document in the user message and the format in the system message', () => {
    const [system, user] = extractionMessages({ name: 'P', category: 'privacy' }, DOC);
    expect(system?.content).toContain('"source_text"');
    expect(user?.content).toContain(DOC);
  });

  it('reads JSON with or without a code fence', () => {
    expect(parseJsonContent('{"rules": []}')).toEqual({ rules: [] });
    expect(parseJsonContent('```json\n{"rules": [1]}\n```')).toEqual({ rules: [1] });
    expect(() => parseJsonContent('no')).toThrow(/JSON/);
  });
});
