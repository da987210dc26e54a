import { describe, expect, it } from 'vitest';
import {
  escapeHtml,
  excerpt,
  formatCount,
  formatDecimal,
  formatInterval,
  formatPercent,
  formatTimestamp,
  NBSP,
  truncate,
} from './text.js';

describe('escapeHtml', () => {
  it('escapes the five characters that can open markup or leave an attribute', () => {
    expect(escapeHtml(`<script>alert("x")</script> & 'y'`)).toBe('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;');
  });

  it('drops bidi overrides and isolates, which would make text display as something it is not', () => {
    expect(escapeHtml('file\u202Etxt.exe\u202C \u2067x\u2069 שלום')).toBe('filetxt.exe x שלום');
  });

  it('replaces controls and lone surrogates, which are not text in HTML', () => {
    expect(escapeHtml('a\u0000b\u0007c\u009bd')).toBe('a\uFFFDb\uFFFDc\uFFFDd');
    expect(escapeHtml('x\uD800y')).toBe('x\uFFFDy');
    expect(escapeHtml('ok 😀\n\t')).toBe('ok 😀\n\t');
  });
});

describe('excerpt and truncate', () => {
  it('keeps a short text whole', () => {
    expect(excerpt('  hello\r\n\r\n\r\n\r\nworld  ', 100)).toEqual({ text: 'hello\n\nworld', omitted: 0 });
  });

  it('cuts at a word boundary near the limit and counts what it left out', () => {
    const text = 'alpha beta gamma delta epsilon zeta';
    const result = excerpt(text, 18);
    expect(result.text).toBe('alpha beta gamma…');
    expect(result.omitted).toBe(Array.from(text).length - 'alpha beta gamma'.length);
  });

  it('never splits an emoji (counts code points)', () => {
    const result = excerpt('😀'.repeat(10), 4);
    expect(result.text).toBe('😀😀😀😀…');
    expect(result.omitted).toBe(6);
  });

  it('stops at the line limit', () => {
    const result = excerpt('1\n2\n3\n4\n5', 1000, 3);
    expect(result.text).toBe('1\n2\n3…');
    expect(result.omitted).toBeGreaterThan(0);
  });

  it('truncate makes one line of at most the given length', () => {
    expect(truncate('a\nlong   label that goes on', 10)).toBe('a long la…');
    expect(Array.from(truncate('a long label that goes on', 10))).toHaveLength(10);
    expect(truncate('short', 10)).toBe('short');
  });
});

describe('number and date formats', () => {
  it('truncates percentages so a value under the threshold never reads as reaching it', () => {
    expect(formatPercent(0.6999)).toBe(`69.9${NBSP}%`);
    expect(formatPercent(0.7)).toBe(`70.0${NBSP}%`);
    expect(formatPercent(0.29)).toBe(`29.0${NBSP}%`);
    expect(formatPercent(1)).toBe(`100.0${NBSP}%`);
    expect(formatPercent(Number.NaN)).toBe(`0.0${NBSP}%`);
    expect(formatDecimal(0.69999)).toBe('0.6999');
  });

  it('formats intervals, counts and UTC timestamps', () => {
    expect(formatInterval(0.612, 0.789)).toBe(`61.2–78.9${NBSP}%`);
    expect(formatCount(1234567)).toBe(`1${NBSP}234${NBSP}567`);
    expect(formatTimestamp(1_795_600_000)).toBe('2026-11-25T09:46:40Z');
    expect(formatTimestamp(null)).toBe('—');
  });
});
