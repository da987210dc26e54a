import type { LlmConfig } from '../config.js';
import { AppError } from '../http/errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const unavailable = (why: string) => new AppError('unavailable', `The language model endpoint failed: ${why}`);

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
    throw unavailable('the model did not answer with JSON');
  }
}
