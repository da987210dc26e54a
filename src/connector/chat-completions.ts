import { MAX_TOOL_CALLS, toolCall } from './tool-calls.js';
import type { AgentTarget, ToolCall, Turn } from './types.js';

/**
 * The OpenAI-compatible `POST {url}/chat/completions` dialect (docs/connector.md): what is
 * sent and how the answer's text is read.
 */

/** `{url}/chat/completions`, unless the URL already ends with it. */
export function chatCompletionsUrl(base: URL): URL {
  const url = new URL(base.href);
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/chat/completions') ? path : `${path}/chat/completions`;
  return url;
}

const finite = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);
const integer = (value: unknown): value is number => Number.isSafeInteger(value);
const shortString = (value: unknown): value is string => typeof value === 'string' && value.length <= 200;

/**
 * The `agent_params` keys passed through, each with the shape it must have. Others (and
 * values of the wrong shape) are left out: an agent record must not be able to replace the
 * model, the messages or `stream`, nor smuggle nested objects into the request.
 */
const PARAMS: Record<string, (value: unknown) => boolean> = {
  temperature: finite,
  top_p: finite,
  top_k: integer,
  min_p: finite,
  max_tokens: integer,
  max_completion_tokens: integer,
  presence_penalty: finite,
  frequency_penalty: finite,
  repetition_penalty: finite,
  seed: integer,
  stop: (value) => shortString(value) || (Array.isArray(value) && value.length <= 4 && value.every(shortString)),
  user: shortString,
  reasoning_effort: shortString,
  logit_bias: (value) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) && Object.keys(value).length <= 300 && Object.values(value).every(finite),
};

export function passThroughParams(params: Record<string, unknown> | null | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return out;
  for (const [key, check] of Object.entries(PARAMS)) {
    if (Object.hasOwn(params, key) && check(params[key])) out[key] = params[key];
  }
  return out;
}

export function chatCompletionsBody(target: AgentTarget, turns: readonly Turn[]): Record<string, unknown> {
  const messages: Array<{ role: string; content: string }> = [];
  if (target.systemPrompt) messages.push({ role: 'system', content: target.systemPrompt });
  for (const turn of turns) messages.push({ role: turn.role, content: turn.content });
  const body: Record<string, unknown> = { ...passThroughParams(target.params) };
  if (target.modelName) body.model = target.modelName;
  body.messages = messages;
  body.stream = false;
  return body;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => {
      if (typeof part === 'string') return part;
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string') return part.text;
      if (isRecord(part.text) && typeof part.text.value === 'string') return part.text.value;
      if (typeof part.refusal === 'string') return part.refusal;
      return '';
    })
    .join('');
}

/**
 * `tool_calls` (and the older single `function_call`) of an assistant message: each call, and
 * how it reads in the answer's text for a person (the verdict engine reads the call, not this).
 */
function toolCallsOf(message: Record<string, unknown>): Array<{ call: ToolCall; text: string }> {
  const calls = Array.isArray(message.tool_calls) ? message.tool_calls : isRecord(message.function_call) ? [{ function: message.function_call }] : [];
  return calls.slice(0, MAX_TOOL_CALLS).flatMap((call) => {
    const fn = isRecord(call) && isRecord(call.function) ? call.function : null;
    const read = fn === null ? null : toolCall(fn.name, fn.arguments);
    if (fn === null || read === null) return [];
    const args = typeof fn.arguments === 'string' ? fn.arguments : fn.arguments === undefined ? '' : JSON.stringify(fn.arguments);
    return [{ call: read, text: `[tool call] ${read.name}(${args})` }];
  });
}

/** The answer's text (and its tool calls, when it made any), or a reason (for a person) why there is none. */
export function readChatCompletion(payload: unknown): { text: string; toolCalls?: ToolCall[] } | { problem: string } {
  if (!isRecord(payload)) return { problem: 'its answer is not a JSON object' };
  const choices = payload.choices;
  if (!Array.isArray(choices) || choices.length === 0) {
    return { problem: isRecord(payload.error) || typeof payload.error === 'string' ? 'it answered an error object' : 'its answer has no choices' };
  }
  const choice = choices[0];
  if (!isRecord(choice)) return { problem: 'its answer has no choices' };
  if (!isRecord(choice.message)) {
    // The legacy completions shape.
    return typeof choice.text === 'string' ? { text: choice.text } : { problem: 'its answer has no message' };
  }
  const message = choice.message;
  const pieces: string[] = [];
  const text = contentText(message.content);
  if (text !== '') pieces.push(text);
  else if (typeof message.refusal === 'string' && message.refusal !== '') pieces.push(message.refusal);
  const calls = toolCallsOf(message);
  pieces.push(...calls.map((c) => c.text));
  return calls.length ? { text: pieces.join('\n'), toolCalls: calls.map((c) => c.call) } : { text: pieces.join('\n') };
}
