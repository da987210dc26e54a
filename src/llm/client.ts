import type { Static, TSchema } from 'typebox';
import { Value } from 'typebox/value';
import type { LlmConfig } from '../config.js';
import { LlmError, LlmReplyError, type ChatMessage, type LanguageModel } from './types.js';

export type { ChatMessage } from './types.js';

const unavailable = (why: string) => new LlmError(`The language model endpoint failed: ${why}`);

/**
 * One chat completion's assistant text. Errors name the HTTP status, never the request (which carries the API key) nor the
 * provider's body (which may echo it).
 */
export async function chatText(
  llm: LlmConfig,
  messages: ChatMessage[],
  options: { timeoutMs?: number; json?: boolean; signal?: AbortSignal; maxTokens?: number } = {},
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? 120_000;
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
  const body: Record<string, unknown> = { model: llm.model, messages, temperature: 0 };
  if (options.json) body.response_format = { type: 'json_object' };
  if (options.maxTokens !== undefined) body.max_tokens = options.maxTokens;
  const timeout = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
    });
  } catch (error) {
    const name = error instanceof Error ? error.name : 'error';
    throw unavailable(name === 'TimeoutError' ? `no answer within ${Math.round(timeoutMs / 1000)} s` : 'it could not be reached');
  }
  if (!response.ok) {
    await response.body?.cancel();
    throw unavailable(`it answered HTTP ${response.status}`);
  }
  let payload: { choices?: Array<{ message?: { content?: unknown } }> };
  try {
    payload = (await response.json()) as typeof payload;
  } catch {
    throw unavailable('its answer is not JSON');
  }
  const content = payload.choices?.[0]?.message?.content;
  if (typeof content !== 'string') throw unavailable('its answer has no message content');
  return content;
}

/** One chat completion from an OpenAI-compatible endpoint, asking for a JSON object. */
export async function chatJson(llm: LlmConfig, messages: ChatMessage[], timeoutMs = 120_000): Promise<unknown> {
  return parseJsonContent(await chatText(llm, messages, { timeoutMs, json: true }));
}

/** The JSON in a model's message, tolerating a Markdown code fence around it. */
export function parseJsonContent(content: string): unknown {
  const fenced = /^\s*```(?:json)?\s*([\s\S]*?)\s*```\s*$/i.exec(content);
  try {
    return JSON.parse(fenced?.[1] ?? content);
  } catch {
    throw new LlmReplyError('The language model endpoint failed: the model did not answer with JSON');
  }
}

/**
 * The model's JSON reply checked against `schema` (TypeBox): the reply typed, or an
 * LlmReplyError saying what was wrong in it (where, and what was expected), never a crash
 * further on. Unknown fields are kept (the schema says what is needed, not all there is).
 */
export function parseReply<S extends TSchema>(schema: S, content: string): Static<S> {
  const value = parseJsonContent(content);
  if (Value.Check(schema, value)) return value as Static<S>;
  const first = Value.Errors(schema, value)[0];
  const where = first === undefined || first.instancePath === '' ? 'the reply' : `the reply's ${first.instancePath.slice(1).replaceAll('/', '.')}`;
  throw new LlmReplyError(`The language model answered JSON of another shape: ${where} ${first?.message ?? 'is not what was asked'}`);
}

/**
 * The configured model as every feature calls it (src/llm/types.ts), or undefined when none is
 * configured. No max_tokens: a reasoning model spends part of it before answering, and a cut
 * answer reads as no answer.
 */
export function configuredModel(llm: LlmConfig): LanguageModel;
export function configuredModel(llm: LlmConfig | undefined): LanguageModel | undefined;
export function configuredModel(llm: LlmConfig | undefined): LanguageModel | undefined {
  if (llm === undefined) return undefined;
  return {
    complete: (messages, options = {}) =>
      chatText(llm, messages, {
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.json ? { json: true } : {}),
        ...(options.signal ? { signal: options.signal } : {}),
      }),
  };
}
