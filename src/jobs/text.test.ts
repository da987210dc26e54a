import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { boundText, cleanText, failureReason, redactSecrets } from './text.js';

describe('cleanText', () => {
  it('drops NUL characters and keeps short text as it is', () => {
    expect(cleanText('a\u0000b', 10)).toBe('ab');
    expect(cleanText('hello', 5)).toBe('hello');
  });

  it('clips to the limit without splitting a surrogate pair', () => {
    expect(cleanText('abcdef', 3)).toBe('abc');
    const text = 'ab\u{1F600}cd';
    expect(cleanText(text, 3)).toBe('ab');
    expect(cleanText(text, 4)).toBe('ab\u{1F600}');
  });
});

describe('failureReason', () => {
  it('is the error message without the stack', () => {
    const error = new Error('the agent answered HTTP 502');
    expect(failureReason(error)).toBe('the agent answered HTTP 502');
    expect(failureReason(error)).not.toContain('at ');
  });

  it('has a fallback for errors without a message', () => {
    expect(failureReason(new Error(''))).toBe('the job failed');
    expect(failureReason({ code: 1 })).toBe('the job failed');
    expect(failureReason('plain text')).toBe('plain text');
  });

  it('masks credentials an error message quotes', () => {
    const reason = failureReason(new Error('POST failed with Authorization: Bearer abc.def-123 and api_key=s3cr3tvalue&x=1, key sk-ABCDEFGH12345678'));
    expect(reason).not.toMatch(/abc\.def-123|s3cr3tvalue|sk-ABCDEFGH12345678/);
    expect(reason).toContain('[redacted]');
  });

  it('is bounded', () => {
    expect(failureReason(new Error('x'.repeat(5000)))).toHaveLength(1000);
  });
});

describe('redactSecrets', () => {
  it('leaves ordinary text alone', () => {
    expect(redactSecrets('120 of 400 prompts sent; the token budget is fine')).toBe('120 of 400 prompts sent; the token budget is fine');
  });

  it('masks quoted JSON credentials', () => {
    expect(redactSecrets('{"password": "hunter2"}')).toBe('{"password": "[redacted]"}');
  });
});

describe('boundText', () => {
  const jsonBytes = (text: string) => Buffer.byteLength(JSON.stringify(text)) - 2;

  it('bounds the answered size: 40,000 control characters keep what fits 16 KiB of JSON, not 240 KB', () => {
    const bounded = boundText('\u0001'.repeat(40_000), 16_384);
    expect(bounded.truncated).toBe(true);
    expect(bounded.length).toBe(40_000);
    expect(jsonBytes(bounded.text)).toBeLessThanOrEqual(16_384);
    expect(jsonBytes(bounded.text)).toBeGreaterThan(16_384 - 10);
    expect(bounded.text.endsWith('…')).toBe(true);
  });

  it('keeps a text that fits whole, without NUL', () => {
    expect(boundText('a\u0000b', 10)).toEqual({ text: 'ab', truncated: false, length: 3 });
    const exact = 'x'.repeat(100);
    expect(boundText(exact, 100)).toEqual({ text: exact, truncated: false, length: 100 });
    expect(boundText(`${exact}y`, 100).truncated).toBe(true);
  });

  it('never passes the bound nor splits a surrogate pair, whatever the text', () => {
    const unit = fc.oneof(
      fc.constantFrom('\u0001', '\n', '"', '\\', 'é', '€', '😀', '\ud800', '\udc00', '\u0000', 'a', ' '),
      fc.string({ unit: 'binary', maxLength: 4 }),
    );
    fc.assert(
      fc.property(fc.array(unit, { maxLength: 400 }), fc.integer({ min: 8, max: 600 }), (parts, max) => {
        const text = parts.join('');
        const bounded = boundText(text, max);
        expect(jsonBytes(bounded.text)).toBeLessThanOrEqual(max);
        const clean = text.replaceAll('\u0000', '');
        if (!bounded.truncated) expect(bounded.text).toBe(clean);
        else {
          const kept = bounded.text.slice(0, -1);
          expect(clean.startsWith(kept)).toBe(true);
          const last = kept.charCodeAt(kept.length - 1);
          const next = clean.charCodeAt(kept.length);
          expect(last >= 0xd800 && last <= 0xdbff && next >= 0xdc00 && next <= 0xdfff).toBe(false);
        }
      }),
    );
  });
});
