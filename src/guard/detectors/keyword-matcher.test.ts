import { describe, expect, it } from 'vitest';
import { createKeywordMatcher } from './keyword-matcher.js';

const WORD = /^[\p{L}\p{N}_]$/u;

function all(keywords: string[], text: string, wordChar: RegExp | null = WORD): Array<[string, number]> {
  const matcher = createKeywordMatcher(keywords, wordChar);
  const out: Array<[string, number]> = [];
  matcher.scan(text, (k, start) => {
    out.push([matcher.keywords[k] as string, start]);
  });
  return out;
}

describe('createKeywordMatcher', () => {
  it('finds every occurrence, overlapping and nested ones too, in the order they end', () => {
    expect(all(['he', 'she', 'his', 'hers'], 'ushers', null)).toEqual([
      ['she', 1],
      ['he', 2],
      ['hers', 2],
    ]);
    expect(all(['a', 'aa', 'aaa'], 'aaa', null)).toEqual([
      ['a', 0],
      ['aa', 0],
      ['a', 1],
      ['aaa', 0],
      ['aa', 1],
      ['a', 2],
    ]);
  });

  it('counts whole words only with a word-character test: none right before or after', () => {
    expect(all(['night', 'jar', 'night jar'], 'nightjar, night jar')).toEqual([
      ['night', 10],
      ['night jar', 10],
      ['jar', 16],
    ]);
    expect(all(['c++'], 'c++ and c++11 and xc++')).toEqual([['c++', 0]]);
    expect(all(['$5'], 'pay $5.')).toEqual([['$5', 4]]);
  });

  it('reads the characters around a match as whole code points', () => {
    // U+1D400 (a mathematical letter) is a letter: next to it, "cat" is not a whole word.
    expect(all(['cat'], '\u{1D400}cat cat\u{1D400} cat')).toEqual([['cat', 12]]);
    // An emoji is not a letter.
    expect(all(['cat'], '\u{1F600}cat\u{1F600}')).toEqual([['cat', 2]]);
  });

  it('stops when the visitor says so, and ignores empty and repeated keywords', () => {
    const matcher = createKeywordMatcher(['x', '', 'x', 'y'], null);
    expect(matcher.keywords).toEqual(['x', 'y']);
    let calls = 0;
    matcher.scan('xyxyxy', () => ++calls === 2);
    expect(calls).toBe(2);
    createKeywordMatcher([], null).scan('anything', () => {
      throw new Error('never called');
    });
  });

  it('builds from thousands of long keywords sharing a prefix and reads a long text of that prefix', () => {
    const keywords = Array.from({ length: 1500 }, (_, i) => `${'a '.repeat(80)}k${i}`);
    const text = `${'a '.repeat(50_000)}k1234 end`;
    expect(all(keywords, text)).toEqual([[keywords[1234] as string, 100_000 - 160]]);
  });
});
