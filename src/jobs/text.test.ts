import { describe, expect, it } from 'vitest';
import { cleanText, failureReason, redactSecrets } from './text.js';

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
