import { Type } from 'typebox';
import { describe, expect, it } from 'vitest';
import { parseReply } from './client.js';
import { LlmError, LlmReplyError } from './types.js';

const Verdict = Type.Object({ passed: Type.Boolean(), reason: Type.Optional(Type.String()) });

describe("the configured model's replies", () => {
  it('are typed by their schema, in a code fence or not, unknown fields kept', () => {
    expect(parseReply(Verdict, '{"passed": true, "reason": "ok"}')).toEqual({ passed: true, reason: 'ok' });
    expect(parseReply(Verdict, '```json\n{"passed": false, "extra": 1}\n```')).toEqual({ passed: false, extra: 1 });
  });

  it('of another shape are a clear LlmReplyError naming what is wrong, never a crash further on', () => {
    const wrong = (content: string) => {
      try {
        parseReply(Verdict, content);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const noJson = wrong('I think it passed.');
    expect(noJson).toBeInstanceOf(LlmReplyError);
    expect(noJson).toBeInstanceOf(LlmError);
    expect((noJson as Error).message).toMatch(/did not answer with JSON/);
    const notBoolean = wrong('{"passed": "yes"}');
    expect(notBoolean).toBeInstanceOf(LlmReplyError);
    expect((notBoolean as Error).message).toMatch(/another shape: the reply's passed /);
    expect((wrong('[1, 2]') as Error).message).toMatch(/another shape: the reply /);
    expect(wrong('{}')).toBeInstanceOf(LlmReplyError);
  });
});
