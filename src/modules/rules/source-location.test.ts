import { describe, expect, it } from 'vitest';
import { locateSource, paragraphAt, sectionAt, toCodePointIndex, toUtf16Index } from './source-location.js';

const DOC = '# Title\n\nIntro 😀 line.\n\n## Rules\n\nNever share  passwords.\nAlways log in.\n\nNever share  passwords.';
const cpSlice = (s: string, a: number, b: number) => [...s].slice(a, b).join('');

describe('locateSource', () => {
  it('keeps offsets that point at the quote', () => {
    const start = [...DOC.slice(0, DOC.indexOf('Always'))].length;
    const loc = locateSource(DOC, { source_text: 'Always log in.', char_start: start, char_end: start + 14 });
    expect(loc).toEqual({ section: 'Rules', paragraph: 4, char_start: start, char_end: start + 14, source_text: 'Always log in.' });
  });

  it('fixes wrong offsets, choosing the occurrence nearest to them', () => {
    const last = locateSource(DOC, { source_text: 'Never share  passwords.', char_start: 90, char_end: 95 });
    expect(last?.char_start).toBe([...DOC].length - 23);
    const first = locateSource(DOC, { source_text: 'Never share  passwords.', char_start: 0, char_end: 3 });
    expect(first?.char_start).toBe([...DOC.slice(0, DOC.indexOf('Never'))].length);
    for (const loc of [first, last]) expect(cpSlice(DOC, loc!.char_start, loc!.char_end)).toBe(loc!.source_text);
  });

  it('matches whitespace loosely and quotes the document', () => {
    const loc = locateSource(DOC, { source_text: 'Never share passwords. Always   log in.' });
    expect(loc?.source_text).toBe('Never share  passwords.\nAlways log in.');
    expect(cpSlice(DOC, loc!.char_start, loc!.char_end)).toBe(loc!.source_text);
  });

  it('counts offsets in code points', () => {
    const loc = locateSource(DOC, { source_text: 'line.' });
    expect(loc?.char_start).toBe(DOC.indexOf('line.') - 1); // the emoji is two UTF-16 units, one code point
    expect(cpSlice(DOC, loc!.char_start, loc!.char_end)).toBe('line.');
  });

  it('answers undefined for a quote that is not there, or empty', () => {
    expect(locateSource(DOC, { source_text: 'Never share secrets.' })).toBeUndefined();
    expect(locateSource(DOC, { source_text: '   ' })).toBeUndefined();
    expect(locateSource(DOC, {})).toBeUndefined();
    expect(locateSource(DOC, { source_text: '(.*)' })).toBeUndefined();
  });
});

describe('helpers', () => {
  it('convert between UTF-16 and code point indexes', () => {
    const s = 'a😀b😀c';
    for (let cp = 0; cp <= 5; cp++) expect(toCodePointIndex(s, toUtf16Index(s, cp))).toBe(cp);
    expect(toUtf16Index('abc', 10)).toBe(3);
  });

  it('find the section and the paragraph', () => {
    expect(sectionAt(DOC, 0)).toBeNull();
    expect(sectionAt(DOC, DOC.indexOf('Intro'))).toBe('Title');
    expect(sectionAt(DOC, DOC.indexOf('Always'))).toBe('Rules');
    expect(paragraphAt(DOC, 0)).toBe(1);
    expect(paragraphAt(DOC, DOC.indexOf('Intro'))).toBe(2);
    expect(paragraphAt(DOC, DOC.indexOf('Intro') + 3)).toBe(2);
    expect(paragraphAt(DOC, DOC.lastIndexOf('Never'))).toBe(5);
  });
});
