import { randomUUID } from 'node:crypto';
import { readChatCompletion } from '../../connector/chat-completions.js';

/**
 * The OpenAI chat completions shapes the gateway reads and writes (docs/gateway.md): the text of
 * the caller's last user message, the answer's text, and the answers Warden writes itself (a
 * blocked call, a redacted answer), plain and as stream chunks.
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A message's content as text: a string, or the text parts of a list of parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : typeof part === 'string' ? part : ''))
    .filter((text) => text !== '')
    .join('\n');
}

/** The index of the last `user` message (-1 when none). */
export function lastUserIndex(messages: readonly unknown[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (isRecord(message) && message.role === 'user') return i;
  }
  return -1;
}

/** The answer's text (choices[0]), as the connector reads it. */
export function answerText(payload: unknown): string {
  const reading = readChatCompletion(payload);
  return 'text' in reading ? reading.text : '';
}

/** The answer with choices[0]'s content replaced (a redacted answer). */
export function withAnswerText(payload: unknown, text: string): unknown {
  if (!isRecord(payload) || !Array.isArray(payload.choices) || !isRecord(payload.choices[0])) return payload;
  const first = payload.choices[0];
  const message = isRecord(first.message) ? { ...first.message, content: text } : { role: 'assistant', content: text };
  return { ...payload, choices: [{ ...first, message }, ...payload.choices.slice(1)] };
}

const completionId = () => `chatcmpl-warden-${randomUUID()}`;

/** Warden's own answer (a blocked call): the OpenAI shape, `finish_reason: "content_filter"`. */
export function blockedCompletion(model: string, content: string, now: number) {
  return {
    id: completionId(),
    object: 'chat.completion',
    created: now,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content, refusal: null }, logprobs: null, finish_reason: 'content_filter' }],
    usage: { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 },
  };
}

/** The same as stream chunks: the content, then the finish reason. */
export function blockedChunks(model: string, content: string, now: number, finishReason: 'content_filter' | 'stop' = 'content_filter'): string[] {
  const id = completionId();
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    JSON.stringify({ id, object: 'chat.completion.chunk', created: now, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] });
  return [chunk({ role: 'assistant', content }, null), chunk({}, finishReason)];
}

/** The text a stream chunk adds (`choices[0].delta.content`). */
export function chunkText(data: string): string {
  try {
    const chunk: unknown = JSON.parse(data);
    if (!isRecord(chunk) || !Array.isArray(chunk.choices)) return '';
    const first: unknown = chunk.choices[0];
    if (!isRecord(first) || !isRecord(first.delta)) return '';
    return contentText(first.delta.content);
  } catch {
    return '';
  }
}

export const sseFrame = (data: string) => `data: ${data}\n\n`;
