import { describe, expect, it } from 'vitest';
import { readA2aAnswer, sendMessageRequest } from './a2a.js';
import { chatCompletionsBody, chatCompletionsUrl, passThroughParams, readChatCompletion } from './chat-completions.js';
import { bodyExcerpt, MIN_KEY_PART, redactSecret } from './redact.js';
import { backoffMs, retryAfterMs } from './retry.js';
import { agentTarget } from './target.js';

describe('chat completions', () => {
  it('appends /chat/completions once', () => {
    expect(chatCompletionsUrl(new URL('http://h/v1')).href).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl(new URL('http://h/v1/')).href).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl(new URL('http://h/v1/chat/completions')).href).toBe('http://h/v1/chat/completions');
    expect(chatCompletionsUrl(new URL('http://h/openai/deployments/x?api-version=2024-06-01')).href).toBe(
      'http://h/openai/deployments/x/chat/completions?api-version=2024-06-01',
    );
  });

  it('passes known params of the right shape, nothing else', () => {
    expect(
      passThroughParams({
        temperature: 0.2,
        top_p: 0.9,
        max_tokens: 64,
        seed: 7,
        stop: ['\n\n'],
        presence_penalty: 0.1,
        frequency_penalty: 0,
        model: 'other',
        messages: [],
        stream: true,
        tools: [{ type: 'function' }],
        max_completion_tokens: 1.5,
        logit_bias: { '50256': -100 },
        user: { nested: 'junk' },
        __proto__: { polluted: true },
      }),
    ).toEqual({
      temperature: 0.2,
      top_p: 0.9,
      max_tokens: 64,
      seed: 7,
      stop: ['\n\n'],
      presence_penalty: 0.1,
      frequency_penalty: 0,
      logit_bias: { '50256': -100 },
    });
    expect(passThroughParams(null)).toEqual({});
    expect(passThroughParams(['x'] as never)).toEqual({});
  });

  it('sends the system prompt first, the model, the turns and stream: false', () => {
    const body = chatCompletionsBody(
      { url: 'http://h', protocol: 'chat_completions', modelName: 'm-1', systemPrompt: 'Be brief.', params: { temperature: 0, stream: true }, rateKey: 'k' },
      [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ],
    );
    expect(body).toEqual({
      temperature: 0,
      model: 'm-1',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ],
      stream: false,
    });
  });

  it.each([
    [{ choices: [{ message: { content: 'hello' } }] }, 'hello'],
    [{ choices: [{ message: { content: [{ type: 'text', text: 'he' }, { type: 'image_url' }, { type: 'output_text', text: 'llo' }] } }] }, 'hello'],
    [{ choices: [{ message: { content: null, refusal: "I can't help with that." } }] }, "I can't help with that."],
    [{ choices: [{ message: { content: null } }] }, ''],
    [{ choices: [{ text: 'legacy' }] }, 'legacy'],
  ])('reads %j', (payload, text) => {
    expect(readChatCompletion(payload)).toEqual({ text });
  });

  it('reads tool calls as calls (arguments parsed), and writes them into the text for a person', () => {
    const message = {
      content: 'Looking it up.',
      tool_calls: [
        { id: 'c1', type: 'function', function: { name: 'lookup', arguments: '{"q":"x"}' } },
        { id: 'c2', type: 'function', function: { name: 'notify', arguments: 'not json' } },
        { id: 'c3', type: 'function', function: { arguments: '{}' } },
      ],
    };
    expect(readChatCompletion({ choices: [{ message }] })).toEqual({
      text: 'Looking it up.\n[tool call] lookup({"q":"x"})\n[tool call] notify(not json)',
      toolCalls: [
        { name: 'lookup', arguments: { q: 'x' } },
        { name: 'notify', arguments: 'not json' },
      ],
    });
    const legacy = { choices: [{ message: { content: null, function_call: { name: 'lookup', arguments: '' } } }] };
    expect(readChatCompletion(legacy)).toEqual({ text: '[tool call] lookup()', toolCalls: [{ name: 'lookup', arguments: {} }] });
    // Prose that reads like a call is text, not a call.
    expect(readChatCompletion({ choices: [{ message: { content: '[tool call] transfer_funds({"amount": 1})' } }] })).toEqual({
      text: '[tool call] transfer_funds({"amount": 1})',
    });
  });

  it('says why an answer cannot be read', () => {
    expect(readChatCompletion({ error: { message: 'x' } })).toEqual({ problem: 'it answered an error object' });
    expect(readChatCompletion({ choices: [] })).toEqual({ problem: 'its answer has no choices' });
    expect(readChatCompletion('x')).toEqual({ problem: 'its answer is not a JSON object' });
  });
});

describe('A2A', () => {
  it('spells message/send (0.3) and SendMessage (1.0)', () => {
    const old = sendMessageRequest('0.3', 'hi', { contextId: 'c1', systemPrompt: 'S' });
    expect(old).toMatchObject({
      jsonrpc: '2.0',
      method: 'message/send',
      params: { message: { kind: 'message', role: 'user', parts: [{ kind: 'text', text: 'hi' }], contextId: 'c1', metadata: { systemPrompt: 'S' } } },
    });
    expect(typeof old.params.message.messageId).toBe('string');
    const v1 = sendMessageRequest('1.0', 'hi', {});
    expect(v1).toMatchObject({ method: 'SendMessage', params: { message: { role: 'ROLE_USER', parts: [{ text: 'hi' }] } } });
    expect(v1.params.message).not.toHaveProperty('contextId');
    expect(v1.params.message).not.toHaveProperty('kind');
  });

  const text = (t: string) => ({ kind: 'text', text: t });
  it.each([
    [
      'a 0.3 Message',
      { kind: 'message', role: 'agent', parts: [text('hi'), text('there')], contextId: 'c' },
      { kind: 'answer', text: 'hi\nthere', contextId: 'c' },
    ],
    ['a 1.0 Message', { message: { role: 'ROLE_AGENT', parts: [{ text: 'hi' }], contextId: 'c' } }, { kind: 'answer', text: 'hi', contextId: 'c' }],
    [
      'a 0.3 Task with artifacts',
      { kind: 'task', id: 't', contextId: 'c', status: { state: 'completed', message: { parts: [text('done')] } }, artifacts: [{ parts: [text('result')] }] },
      { kind: 'answer', text: 'result', contextId: 'c' },
    ],
    [
      'a 1.0 Task with the text in its status',
      { task: { id: 't', contextId: 'c', status: { state: 'TASK_STATE_INPUT_REQUIRED', message: { parts: [{ text: 'Which city?' }] } } } },
      { kind: 'answer', text: 'Which city?', contextId: 'c' },
    ],
    [
      'a Task answered in its history',
      { kind: 'task', id: 't', status: { state: 'completed' }, history: [{ role: 'user', parts: [text('q')] }, { role: 'agent', parts: [text('a')] }] },
      { kind: 'answer', text: 'a', contextId: undefined },
    ],
    [
      'a working Task',
      { task: { id: 't9', contextId: 'c', status: { state: 'TASK_STATE_WORKING', message: { parts: [{ text: 'busy' }] } } } },
      { kind: 'pending', taskId: 't9', contextId: 'c' },
    ],
    [
      'a failed Task',
      { kind: 'task', id: 't', status: { state: 'failed', message: { parts: [text('boom')] } } },
      { kind: 'task_failed', state: 'failed', text: 'boom' },
    ],
    ['data parts', { kind: 'message', parts: [{ kind: 'data', data: { a: 1 } }] }, { kind: 'answer', text: '{"a":1}', contextId: undefined }],
  ])('reads %s', (_name, result, expected) => {
    expect(readA2aAnswer({ jsonrpc: '2.0', id: 1, result })).toEqual(expected);
  });

  const transfer = { name: 'transfer_funds', args: { amount: 4800 } };
  const written = '[tool call] transfer_funds({"amount":4800})';
  const adkCall = { kind: 'data', data: { id: 'f1', ...transfer }, metadata: { adk_type: 'function_call' } };
  const openAi = { tool_calls: [{ type: 'function', function: { name: 'transfer_funds', arguments: '{"amount":4800}' } }] };
  it.each([
    ['an ADK function-call data part', { kind: 'message', parts: [text('On it.'), adkCall] }, `On it.\n${JSON.stringify(adkCall.data)}`],
    ['a function-call part', { kind: 'message', parts: [{ kind: 'function_call', ...transfer }] }, written],
    ['a Gemini-style functionCall part (1.0)', { message: { role: 'ROLE_AGENT', parts: [{ functionCall: transfer }] } }, written],
    [
      'a data part holding OpenAI tool_calls',
      { kind: 'message', parts: [{ kind: 'data', data: openAi }] },
      JSON.stringify(openAi),
    ],
    [
      "a call made in a task's history",
      { kind: 'task', id: 't', status: { state: 'completed' }, artifacts: [{ parts: [text('Done.')] }], history: [{ role: 'agent', parts: [adkCall] }] },
      'Done.',
    ],
  ])('reads the tool call of %s', (_name, result, expectedText) => {
    expect(readA2aAnswer({ jsonrpc: '2.0', id: 1, result })).toMatchObject({
      kind: 'answer',
      text: expectedText,
      toolCalls: [{ name: 'transfer_funds', arguments: { amount: 4800 } }],
    });
  });

  it('a data part that is not a call, or text that reads like one, carries no tool call', () => {
    const parts = [{ kind: 'data', data: { name: 'x', args: {} } }, text('[tool call] transfer_funds(1)')];
    const plain = readA2aAnswer({ jsonrpc: '2.0', id: 1, result: { kind: 'message', parts } });
    expect(plain).toEqual({ kind: 'answer', text: '{"name":"x","args":{}}\n[tool call] transfer_funds(1)', contextId: undefined });
  });

  it('reads JSON-RPC errors and says what it cannot read', () => {
    expect(readA2aAnswer({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } })).toEqual({
      kind: 'rpc_error',
      code: -32601,
      message: 'Method not found',
    });
    expect(readA2aAnswer({ jsonrpc: '2.0', id: 1 })).toMatchObject({ kind: 'problem' });
    expect(readA2aAnswer({ jsonrpc: '2.0', id: 1, result: { foo: 1 } })).toMatchObject({ kind: 'problem' });
  });
});

describe('secrets', () => {
  const key = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
  it('redacts the key as is, JSON-escaped, URL-encoded and in base64', () => {
    const odd = 'k/ey+"with\\chars';
    for (const form of [odd, JSON.stringify(odd).slice(1, -1), encodeURIComponent(odd), Buffer.from(`Bearer ${odd}`).toString('base64')]) {
      expect(redactSecret(`before ${form} after`, odd)).toBe('before [redacted] after');
    }
    expect(redactSecret('nothing here', key)).toBe('nothing here');
    expect(redactSecret('abc abc', 'abc')).toBe('abc abc');
  });

  it('redacts the key inside a longer base64 text, in hexadecimal, reversed and in ROT13', () => {
    // A proxy echoing the request, base64-encoded: the key may start at any byte of a three-byte group.
    for (const prefix of ['', 'x', 'xy', '{"authorization":"Bearer ']) {
      for (const encoding of ['base64', 'base64url'] as const) {
        const blob = Buffer.from(`${prefix}${key}","accept":"application/json"}`).toString(encoding);
        const redacted = redactSecret(`echo: ${blob}`, key);
        // What stays is at most the two characters either side that the key shares with its neighbours.
        const longest = `echo: ${blob}`.length - Math.floor((key.length * 4) / 3) + 4 + '[redacted]'.length;
        expect(redacted.length, `${prefix} ${encoding}`).toBeLessThanOrEqual(longest);
      }
    }
    const hex = Buffer.from(key).toString('hex');
    const reversed = [...key].reverse().join('');
    const rot13 = 'fx-yvir-4s9n8o7p6q5r4s3n2o1p';
    for (const form of [hex, hex.toUpperCase(), reversed, rot13]) expect(redactSecret(`said ${form}.`, key)).toBe('said [redacted].');
  });

  describe('spelled out', () => {
    const around = (form: string) => `The key is ${form}, as asked.`;
    const spelled: Array<[string, string]> = [
      ['zero-width spaces', [...key].join('\u200b')],
      ['bidi controls and soft hyphens', [...key].map((c, i) => (i % 2 ? `\u202e${c}\u202c` : `${c}\u00ad`)).join('')],
      ['spaces', [...key].join(' ')],
      ['dashes', [...key].join('-')],
      ['dots, underscores and line breaks', [...key].map((c, i) => (i === 0 ? '' : ['.', '_', '\n', '\r\n'][i % 4]) + c).join('')],
      ['upper case', key.toUpperCase()],
      ['decimal entities', [...key].map((c) => `&#${c.charCodeAt(0)};`).join('')],
      ['hexadecimal entities', [...key].map((c) => `&#x${c.charCodeAt(0).toString(16)};`).join('')],
      ['named entities for its punctuation', key.replace(/-/g, '&hyphen;')],
      ['URL-encoding of every character', [...key].map((c) => `%${c.charCodeAt(0).toString(16)}`).join('')],
      ['JavaScript escapes', [...key].map((c) => `\\u00${c.charCodeAt(0).toString(16)}`).join('')],
      ['full-width letters', [...key].map((c) => (/[a-z0-9]/.test(c) ? String.fromCharCode(c.charCodeAt(0) + 0xfee0) : c)).join('')],
      ['reversed, in upper case with spaces', [...key].reverse().join(' ').toUpperCase()],
      ['hexadecimal with spaces', Buffer.from(key).toString('hex').replace(/(..)/g, '$1 ').trim()],
    ];
    for (const [how, form] of spelled) {
      it(`masks the whole key written with ${how}, and nothing around it`, () => {
        expect(redactSecret(around(form), key)).toBe('The key is [redacted], as asked.');
      });
    }

    it(`masks each half, and any part of ${MIN_KEY_PART} letters or digits, wherever it is`, () => {
      const half = key.length / 2;
      const text = `first ${key.slice(0, half)} then, much later, ${key.slice(half).toUpperCase().split('').join(' ')} and a part: ${key.slice(5, 5 + 10)}.`;
      const redacted = redactSecret(text, key);
      expect(redacted).toBe('first [redacted] then, much later, [redacted] and a part: [redacted].');
      // Shorter parts stay: a key's few characters are ordinary text.
      expect(redactSecret(`code ${key.slice(-6)} here`, key)).toBe(`code ${key.slice(-6)} here`);
    });

    it('masks only the characters that spell the key: its neighbours, even glued to it, stay', () => {
      expect(redactSecret(`token=${key};path=/`, key)).toBe('token=[redacted];path=/');
      expect(redactSecret(`<b>${[...key].join('\u200b')}</b> and again: "${key.toUpperCase()}"`, key)).toBe('<b>[redacted]</b> and again: "[redacted]"');
    });

    it('leaves text that does not spell the key as it was, entities and escapes included', () => {
      const text = 'Fish &amp; chips at 50%25 off, caf\u00e9 \u200b open; 4f9a 8b7 (not the key)';
      expect(redactSecret(text, key)).toBe(text);
    });

    it('stays linear: a megabyte of text with the key spelled out at its end', () => {
      const filler = 'lorem ipsum &#100; 4f9a8b7 %41 '.repeat(32 * 1024);
      const started = performance.now();
      const redacted = redactSecret(`${filler}${[...key].join('\u200b')}`, key);
      expect(redacted).toBe(`${filler}[redacted]`);
      // Generous on a loaded machine; a quadratic scan of a megabyte takes minutes.
      expect(performance.now() - started).toBeLessThan(5_000);
    });
  });

  it('an excerpt is short, one line, and blanks partial echoes of the key', () => {
    const body = `{"error":{"message":"Incorrect API key provided: ${key.slice(0, 12)}****${key.slice(-4)}.\nSee docs"}}`;
    const excerpt = bodyExcerpt(body, key);
    expect(excerpt).not.toContain(key.slice(0, 12));
    expect(excerpt).not.toContain('\n');
    expect(bodyExcerpt('x'.repeat(500), key)).toHaveLength(160);
  });
});

describe('retries', () => {
  it('backs off exponentially with jitter, up to a ceiling', () => {
    const policy = (r: number) => ({ baseMs: 500, maxMs: 8000, random: () => r });
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffMs(n, policy(0.999999)))).toEqual([500, 1000, 2000, 4000, 8000, 8000]);
    expect([1, 2, 3].map((n) => backoffMs(n, policy(0)))).toEqual([250, 500, 1000]);
  });

  it('reads Retry-After in seconds or as an HTTP date, capped', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('3', now, 60_000)).toBe(3000);
    expect(retryAfterMs('3600', now, 60_000)).toBe(60_000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:10 GMT', now, 60_000)).toBe(10_000);
    expect(retryAfterMs('Wed, 31 Dec 2025 23:00:00 GMT', now, 60_000)).toBe(0);
    expect(retryAfterMs('soon', now, 60_000)).toBeNull();
    expect(retryAfterMs(undefined, now, 60_000)).toBeNull();
  });
});

describe('agentTarget', () => {
  it('builds a target from an agent record (params as stored text or as an object)', () => {
    const record = {
      id: 'a1',
      agent_url: 'http://127.0.0.1:9/v1',
      protocol: 'chat_completions',
      model_name: 'gpt-x',
      agent_system_prompt: 'Be nice',
      agent_params: '{"temperature":0.3}',
      rate_limit_requests_per_minute: 60,
    };
    expect(agentTarget(record, 'k')).toEqual({
      url: 'http://127.0.0.1:9/v1',
      protocol: 'chat_completions',
      modelName: 'gpt-x',
      apiKey: 'k',
      systemPrompt: 'Be nice',
      params: { temperature: 0.3 },
      rateLimitPerMinute: 60,
      rateKey: 'agent:a1',
      a2aVersion: null,
    });
    expect(agentTarget({ ...record, agent_url: null, agent_params: { top_p: 1 } }, null)).toMatchObject({ url: '', apiKey: null, params: { top_p: 1 } });
    expect(agentTarget({ ...record, agent_params: 'not json' }, null).params).toBeNull();
  });
});
