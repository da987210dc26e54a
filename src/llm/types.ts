/**
 * The configured language model (WARDEN_LLM_*) as every feature calls it: the guard's LLM-based
 * methods, an evaluation's judge, the red team's attacker, crescendo steerer and judge, custom
 * harness generation, rule extraction. One interface (src/llm/client.ts builds it); tests pass
 * a scripted one.
 */

export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface CompleteOptions {
  signal?: AbortSignal | undefined;
  /** Per call (default two minutes). */
  timeoutMs?: number | undefined;
  /** Asks the endpoint for a JSON object (`response_format`). */
  json?: boolean | undefined;
}

export interface LanguageModel {
  /** One completion; resolves to the assistant's text. Throws (an LlmError) on any failure. */
  complete(messages: ChatMessage[], options?: CompleteOptions): Promise<string>;
}

/**
 * The model's endpoint failed (unreachable, no answer in time, an HTTP error, no message in its
 * answer). Never holds the request (which carries the API key) nor the provider's body. The
 * HTTP layer answers it 503 (src/http/error-handler.ts); a job records it for the unit.
 */
export class LlmError extends Error {
  override name = 'LlmError';
}

/** The model answered, but not what was asked (no JSON, or JSON of another shape): a clear error for that unit. */
export class LlmReplyError extends LlmError {
  override name = 'LlmReplyError';
}
