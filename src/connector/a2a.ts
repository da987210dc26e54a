import { randomUUID } from 'node:crypto';
import { MAX_TOOL_CALLS, toolCall } from './tool-calls.js';
import type { ToolCall } from './types.js';

/**
 * The A2A JSON-RPC dialects (docs/connector.md): `message/send` (A2A 0.2 / 0.3) and
 * `SendMessage` (A2A 1.0), what each sends and how an answer, a Message or a Task, is read.
 */

export type A2aDialect = '0.3' | '1.0';

export const SEND_METHOD: Record<A2aDialect, string> = { '0.3': 'message/send', '1.0': 'SendMessage' };
const GET_TASK_METHOD: Record<A2aDialect, string> = { '0.3': 'tasks/get', '1.0': 'GetTask' };

/** JSON-RPC "method not found", and A2A 1.0's "version not supported": the other dialect may work. */
export const DIALECT_MISMATCH_CODES = new Set([-32601, -32009]);

/** The dialect of a card's declared protocol version: 1.x speaks 1.0, anything else (or none) 0.3. */
export function dialectOfVersion(version: string | null | undefined): A2aDialect {
  return typeof version === 'string' && /^\s*v?1(\.|$)/.test(version) ? '1.0' : '0.3';
}

export function a2aHeaders(dialect: A2aDialect): Record<string, string> {
  return dialect === '1.0' ? { 'a2a-version': '1.0' } : {};
}

export function sendMessageRequest(dialect: A2aDialect, text: string, options: { contextId?: string | undefined; systemPrompt?: string | null | undefined }) {
  const metadata = options.systemPrompt ? { systemPrompt: options.systemPrompt } : undefined;
  const message =
    dialect === '1.0'
      ? { role: 'ROLE_USER', parts: [{ text }], messageId: randomUUID() }
      : { kind: 'message', role: 'user', parts: [{ kind: 'text', text }], messageId: randomUUID() };
  return {
    jsonrpc: '2.0',
    id: randomUUID(),
    method: SEND_METHOD[dialect],
    params: { message: { ...message, ...(options.contextId ? { contextId: options.contextId } : {}), ...(metadata ? { metadata } : {}) } },
  };
}

export function getTaskRequest(dialect: A2aDialect, taskId: string) {
  return { jsonrpc: '2.0', id: randomUUID(), method: GET_TASK_METHOD[dialect], params: { id: taskId } };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export type A2aReading =
  | { kind: 'answer'; text: string; contextId?: string | undefined; toolCalls?: ToolCall[] }
  /** A task still being worked on: ask again with its id. */
  | { kind: 'pending'; taskId: string; contextId?: string | undefined }
  | { kind: 'rpc_error'; code: number | null; message: string }
  /** A task that ended failed or cancelled (a rejected one is an answer: the agent declined). */
  | { kind: 'task_failed'; state: string; text: string }
  | { kind: 'problem'; problem: string };

const CALL_KINDS = new Set(['function_call', 'functioncall', 'tool_call', 'toolcall', 'tool_use']);
const isCallKind = (value: unknown): boolean => typeof value === 'string' && CALL_KINDS.has(value.toLowerCase());

/** A call object as agents spell it: `{name, args}` (ADK, Gemini), `{name, arguments}` (OpenAI), `{name, input}` (Anthropic). */
const callIn = (value: unknown): ToolCall | null =>
  isRecord(value) ? toolCall(value.name, value.args ?? value.arguments ?? value.input) : null;

/**
 * The tool call a part carries: a function-call part (`kind: "function_call"`, or a Gemini-style
 * `functionCall` member), or a data part marked as one (ADK's `metadata.adk_type`, or `type`
 * in its data) or holding one (`functionCall`, OpenAI `tool_calls`).
 */
function partCalls(part: Record<string, unknown>): ToolCall[] {
  const nested = part.functionCall ?? part.function_call;
  if (nested !== undefined) return [callIn(nested)].filter((c): c is ToolCall => c !== null);
  if (isCallKind(part.kind) || isCallKind(part.type)) return [callIn(part.data ?? part)].filter((c): c is ToolCall => c !== null);
  const data = part.data;
  if (!isRecord(data) || (part.kind !== undefined && part.kind !== 'data')) return [];
  const metadata = isRecord(part.metadata) ? part.metadata : {};
  if (isCallKind(metadata.adk_type) || isCallKind(metadata.type) || isCallKind(data.type)) return [callIn(data)].filter((c): c is ToolCall => c !== null);
  const inner = data.functionCall ?? data.function_call;
  if (inner !== undefined) return [callIn(inner)].filter((c): c is ToolCall => c !== null);
  if (Array.isArray(data.tool_calls)) {
    return data.tool_calls.flatMap((call) => {
      const read = isRecord(call) ? callIn(isRecord(call.function) ? call.function : call) : null;
      return read === null ? [] : [read];
    });
  }
  return [];
}

function partsCalls(parts: unknown): ToolCall[] {
  return Array.isArray(parts) ? parts.filter(isRecord).flatMap(partCalls) : [];
}

const callText = (call: ToolCall): string =>
  `[tool call] ${call.name}(${typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments) ?? ''})`;

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => {
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string' && (part.kind === undefined || part.kind === 'text' || part.type === 'text')) return part.text;
      if (part.data !== undefined && (part.kind === undefined || part.kind === 'data')) return JSON.stringify(part.data);
      // A function-call part has no text of its own: it reads as the call, for a person.
      return partCalls(part).map(callText).join('\n');
    })
    .filter((text) => text !== '')
    .join('\n');
}

/** The answer reading, with the tool calls (at most MAX_TOOL_CALLS) when there are any. */
function answer(text: string, contextId: string | undefined, calls: ToolCall[]): A2aReading {
  return calls.length ? { kind: 'answer', text, contextId, toolCalls: calls.slice(0, MAX_TOOL_CALLS) } : { kind: 'answer', text, contextId };
}

/** "TASK_STATE_INPUT_REQUIRED" and "input-required" alike → "input-required". */
export function normaliseTaskState(state: unknown): string {
  return typeof state === 'string' ? state.toLowerCase().replace(/^task_state_/, '').replace(/_/g, '-') : '';
}

const WORKING_STATES = new Set(['submitted', 'working']);
const UNKNOWN_STATES = new Set(['unspecified', '']);
const FAILED_STATES = new Set(['failed', 'canceled', 'cancelled']);

const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

function readMessage(message: Record<string, unknown>): A2aReading {
  return answer(partsText(message.parts), textOf(message.contextId), partsCalls(message.parts));
}

function readTask(task: Record<string, unknown>): A2aReading {
  const contextId = textOf(task.contextId);
  const status = isRecord(task.status) ? task.status : {};
  const state = normaliseTaskState(status.state);
  const artifacts = Array.isArray(task.artifacts) ? task.artifacts : [];
  const artifactText = artifacts
    .map((artifact) => (isRecord(artifact) ? partsText(artifact.parts) : ''))
    .filter((text) => text !== '')
    .join('\n');
  const statusText = isRecord(status.message) ? partsText(status.message.parts) : '';
  const history = Array.isArray(task.history) ? task.history.filter(isRecord) : [];
  const lastAgent = [...history].reverse().find((message) => message.role === 'agent' || message.role === 'ROLE_AGENT');
  const text = artifactText || statusText || (lastAgent ? partsText(lastAgent.parts) : '');
  // A task still at work (or one that says nothing yet) is asked for again; its status text is progress, not the answer.
  if (WORKING_STATES.has(state) || (UNKNOWN_STATES.has(state) && text === '')) {
    const taskId = textOf(task.id);
    return taskId ? { kind: 'pending', taskId, contextId } : { kind: 'problem', problem: 'its task is not finished and has no id to follow' };
  }
  if (FAILED_STATES.has(state)) return { kind: 'task_failed', state, text: statusText };
  // The calls made anywhere in the task count: in its artifacts, its status, or an agent turn of its history.
  const agentTurns = history.filter((message) => message.role === 'agent' || message.role === 'ROLE_AGENT');
  const calls = [
    ...artifacts.flatMap((artifact) => (isRecord(artifact) ? partsCalls(artifact.parts) : [])),
    ...(isRecord(status.message) ? partsCalls(status.message.parts) : []),
    ...agentTurns.flatMap((message) => partsCalls(message.parts)),
  ];
  return answer(text, contextId, calls);
}

/** Reads a JSON-RPC answer to SendMessage / message/send (or to GetTask / tasks/get). */
export function readA2aAnswer(payload: unknown): A2aReading {
  if (!isRecord(payload)) return { kind: 'problem', problem: 'its answer is not a JSON object' };
  if (payload.error !== undefined && payload.error !== null) {
    const error = isRecord(payload.error) ? payload.error : {};
    return { kind: 'rpc_error', code: typeof error.code === 'number' ? error.code : null, message: typeof error.message === 'string' ? error.message : '' };
  }
  const result = payload.result;
  if (!isRecord(result)) return { kind: 'problem', problem: 'its answer has no JSON-RPC result' };
  // A2A 1.0 wraps the answer: { task } or { message }.
  if (isRecord(result.task)) return readTask(result.task);
  if (isRecord(result.message) && result.kind === undefined && result.parts === undefined) return readMessage(result.message);
  // A2A 0.2 / 0.3: the Task or Message itself, told apart by `kind` (or by its fields).
  if (result.kind === 'task' || (result.kind === undefined && isRecord(result.status))) return readTask(result);
  if (result.kind === 'message' || (result.kind === undefined && Array.isArray(result.parts))) return readMessage(result);
  return { kind: 'problem', problem: 'its answer is neither an A2A Message nor a Task' };
}
