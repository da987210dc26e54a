import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { fontFaces, parseUnicodeRange, runText, splitRuns } from './fonts.js';

describe('report fonts', () => {
  it('reads unicode-range lists', () => {
    expect(parseUnicodeRange('U+0000-00FF,U+0131, U+2000-206F')).toEqual([[0, 0xff], [0x131, 0x131], [0x2000, 0x206f]]);
  });

  it('has a face for Latin, Greek, Cyrillic, Arabic, Hebrew, Thai, Devanagari, Japanese, Korean and Chinese, each file installed', () => {
    const faces = fontFaces('regular');
    const faceOf = (text: string) => splitRuns(text, faces).map((r) => r.face?.name ?? null);
    expect(faceOf('abc')).toEqual(['Helvetica']);
    expect(faceOf('αβγ')[0]).toMatch(/noto-sans:greek$/);
    expect(faceOf('привет')[0]).toMatch(/noto-sans:cyrillic$/);
    expect(faceOf('مرحبا')[0]).toMatch(/noto-sans-arabic:arabic$/);
    expect(faceOf('नमस्ते')[0]).toMatch(/noto-sans:devanagari$/);
    expect(faceOf('忽略')[0]).toMatch(/noto-sans-jp:\d+$/);
    expect(faceOf('שלום')[0]).toMatch(/noto-sans-hebrew:hebrew$/);
    expect(faceOf('สวัสดี')[0]).toMatch(/noto-sans-thai:thai$/);
    expect(faceOf('안녕')[0]).toMatch(/noto-sans-kr:\d+$/);
    // 们 is in no Japanese font: the Chinese one draws it, and the ideographs after it, in one style.
    const chinese = faceOf('我们的');
    expect(chinese[0]).toMatch(/noto-sans-jp:\d+$/);
    expect(chinese.slice(1).every((name) => /noto-sans-sc:\d+$/.test(name ?? ''))).toBe(true);
    expect(faceOf('的')[0]).toMatch(/noto-sans-jp:\d+$/);
    for (const face of faces) if (face.file !== null) expect(existsSync(face.file)).toBe(true);
  });

  it('keeps combining marks with their letter, loses no character, and marks what no face holds', () => {
    const faces = fontFaces('regular');
    const runs = splitRuns('Ignore: नमस्ते दुनिया ok 😀😀', faces);
    expect(runs.map((r) => r.text).join('')).toBe('Ignore: नमस्ते दुनिया ok 😀😀');
    expect(runs.find((r) => r.text.startsWith('नमस्ते'))?.text).toBe('नमस्ते');
    expect(runs.find((r) => r.text.startsWith('नमस्ते'))?.face?.name).toMatch(/devanagari$/);
    const last = runs[runs.length - 1]!;
    expect(last.face).toBeNull();
    expect(runText(last)).toBe('[?×2]');
  });

  it('trusts the font file, not the ranges of its package: a character a range claims but the file lacks has no face', () => {
    // Noto Sans SC's unicode.json lists emoji such as U+1F308; its files hold none.
    const faces = fontFaces('regular');
    expect(faces.some((face) => face.family === 'noto-sans-sc' && face.ranges.some(([lo, hi]) => lo <= 0x1f308 && 0x1f308 <= hi))).toBe(true);
    expect(splitRuns('🌈', faces)[0]?.face).toBeNull();
  });

  it('drops bidi overrides and zero-width characters', () => {
    const runs = splitRuns('pay\u200Bment \u202Eevil', fontFaces('regular'));
    expect(runs.map((r) => r.text).join('')).toBe('payment evil');
  });
});
