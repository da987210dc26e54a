import { describe, expect, it } from 'vitest';
import { GuardConfigError } from '../types.js';
import { keywordBanlist, maxLength } from './text-rules.js';

describe('max-length', () => {
  it('flags a text past max_chars, and past max_words or max_lines when set', () => {
    expect(maxLength.detect('abcdef', maxLength.parseParams({ max_chars: 5 }), {})).toMatchObject({
      hit: true,
      details: { chars: 6, exceeded: { max_chars: 5 } },
    });
    expect(maxLength.detect('abcde', maxLength.parseParams({ max_chars: 5 }), {}).hit).toBe(false);
    expect(maxLength.detect('one two three', maxLength.parseParams({ max_words: 2 }), {}).details).toEqual({ chars: 13, exceeded: { max_words: 2 } });
    expect(maxLength.detect('one two', maxLength.parseParams({ max_words: 2 }), {}).hit).toBe(false);
    expect(maxLength.detect('a\nb\nc', maxLength.parseParams({ max_lines: 2 }), {}).hit).toBe(true);
    expect(maxLength.detect('a\nb', maxLength.parseParams({ max_lines: 2 }), {}).hit).toBe(false);
  });

  it('defaults to 32000 characters and validates its limits', () => {
    expect(maxLength.detect('x'.repeat(32_001), maxLength.parseParams({}), {}).hit).toBe(true);
    expect(() => maxLength.parseParams({ max_chars: 0 })).toThrow(GuardConfigError);
    expect(() => maxLength.parseParams({ max_words: 2.5 })).toThrow(/valid integer/);
  });
});

describe('keyword-banlist', () => {
  it('flags whole words in any case by default, phrases across spacing, and reports what matched', () => {
    const params = keywordBanlist.parseParams({ keywords: ['Nightjar', 'acme corp'] });
    expect(keywordBanlist.detect('The NIGHTJAR plan with ACME  Corp.', params, {}).details).toEqual({ matched: ['nightjar', 'acme corp'] });
    expect(keywordBanlist.detect('nightjars and acmecorp', params, {}).hit).toBe(false);
  });

  it('matches substrings or exact case on request, and escapes regex characters', () => {
    expect(keywordBanlist.detect('nightjars', keywordBanlist.parseParams({ keywords: ['nightjar'], match: 'substring' }), {}).hit).toBe(true);
    expect(keywordBanlist.detect('nightjar', keywordBanlist.parseParams({ keywords: ['Nightjar'], case_sensitive: true }), {}).hit).toBe(false);
    expect(keywordBanlist.detect('price is $5.00 (net)', keywordBanlist.parseParams({ keywords: ['$5.00 (net)'], match: 'substring' }), {}).hit).toBe(true);
    expect(keywordBanlist.detect('a.b', keywordBanlist.parseParams({ keywords: ['a*b'] }), {}).hit).toBe(false);
  });

  it('takes a list of a thousand long phrases sharing their first words, and reads a long text of those words', () => {
    // As one regular expression of alternatives, this list failed to compile after seconds of work.
    const keywords = Array.from({ length: 1000 }, (_, i) => `${'a '.repeat(75)}k${i}`);
    const params = keywordBanlist.parseParams({ keywords });
    const text = `${'A '.repeat(10_000)}K999 and more`;
    expect(keywordBanlist.detect(text, params, {})).toMatchObject({ hit: true, details: { matched: [keywords[999]] } });
    expect(keywordBanlist.detect(text.replace('K999', 'K1000'), params, {}).hit).toBe(false);
    const substring = keywordBanlist.parseParams({ keywords, match: 'substring' });
    expect(keywordBanlist.detect(`${'a'.repeat(50_000)}${'a '.repeat(75)}k3x`, substring, {}).details).toEqual({ matched: [keywords[3]] });
  });

  it('requires keywords', () => {
    expect(() => keywordBanlist.parseParams({})).toThrow(/at least one keyword/);
    expect(() => keywordBanlist.parseParams({ keywords: ['  '] })).toThrow(GuardConfigError);
    expect(() => keywordBanlist.parseParams({ keywords: ['x'], match: 'regex' })).toThrow(/'word' or 'substring'/);
  });
});
