import { describe, expect, it } from 'vitest';
import { forEachMatch, luhnValid, replaceSpans, resolveOverlaps, shannonEntropy } from './text.js';

const spans = (text: string, pattern: RegExp) => {
  const found: Array<[number, string]> = [];
  forEachMatch(text, pattern, (m, offset) => found.push([offset + m.index, m[0]]));
  return found;
};

describe('forEachMatch', () => {
  it('finds every match once, with absolute offsets, in a text scanned in windows', () => {
    // Matches placed just before, across and just after each 32 KB window boundary.
    let text = '';
    const expected: Array<[number, string]> = [];
    for (const at of [10, 32_760, 32_766, 32_770, 65_530, 65_536, 98_300, 120_000]) {
      text = text.padEnd(at, '.');
      expected.push([text.length, `key-${at}`]);
      text += `key-${at}`;
    }
    text = text.padEnd(130_000, '.');
    expect(spans(text, /key-\d+/g)).toEqual(expected);
  });

  it('lets a look-behind see the character before a window start', () => {
    const text = `${'.'.repeat(32_767)}x${'a'.repeat(5)}${'.'.repeat(40_000)}`;
    // "aaaaa" starts exactly on the second window's first offset, right after an "x".
    expect(spans(text, /(?<![a-z])a+/g)).toEqual([]);
    expect(spans(text, /(?<=x)a+/g)).toEqual([[32_768, 'aaaaa']]);
  });

  it('refuses a pattern without the global flag', () => {
    expect(() => forEachMatch('abc', /a/, () => {})).toThrow(/global/);
  });
});

describe('span helpers', () => {
  it('keeps the higher score, then the longer span, among overlapping findings', () => {
    const kept = resolveOverlaps([
      { type: 'a', start: 0, end: 10, score: 0.5 },
      { type: 'b', start: 5, end: 8, score: 0.9 },
      { type: 'c', start: 20, end: 30, score: 0.5 },
      { type: 'd', start: 20, end: 25, score: 0.5 },
    ]);
    expect(kept.map((f) => f.type)).toEqual(['b', 'c']);
  });

  it('replaces spans in order', () => {
    expect(replaceSpans('call 555 or 777', [{ start: 12, end: 15 }, { start: 5, end: 8 }], (_s, original) => `<${original.length}>`)).toBe('call <3> or <3>');
  });

  it('computes Luhn and entropy', () => {
    expect(luhnValid('4111111111111111')).toBe(true);
    expect(luhnValid('4111111111111112')).toBe(false);
    expect(luhnValid('')).toBe(false);
    expect(shannonEntropy('aaaa')).toBe(0);
    expect(shannonEntropy('abcd')).toBe(2);
  });
});
