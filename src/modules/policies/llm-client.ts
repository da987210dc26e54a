import type { LlmConfig } from '../../config.js';
import { AppError } from '../../http/errors.js';

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

const unavailable = (why: string) => new AppError('unavailable', `The language model endpoint failed: ${why}`);

/**
 * One chat completion from an OpenAI-compatible endpoint, asking for a JSON object.
 * Errors name the HTTP status, never the request (which carries the API key) nor the
 * provider's body (which may echo it).
 */
export async function chatJson(llm: LlmConfig, messages: ChatMessage[], timeoutMs = 120_000): Promise<unknown> {
  const url = `${llm.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (llm.apiKey) headers.authorization = `Bearer ${llm.apiKey}`;
  let response: Response;
  try {
    response = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify({ model: llm.model, messages, temperature: 0, response_format: { type: 'json_object' } }),
      signal: AbortSignal.timeout(timeoutMs),
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
  return parseJsonContent(content);
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
