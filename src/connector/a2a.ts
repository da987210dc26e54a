import { randomUUID } from 'node:crypto';

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
  | { kind: 'answer'; text: string; contextId?: string | undefined }
  /** A task still being worked on: ask again with its id. */
  | { kind: 'pending'; taskId: string; contextId?: string | undefined }
  | { kind: 'rpc_error'; code: number | null; message: string }
  /** A task that ended failed or cancelled (a rejected one is an answer: the agent declined). */
  | { kind: 'task_failed'; state: string; text: string }
  | { kind: 'problem'; problem: string };

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .map((part) => {
      if (!isRecord(part)) return '';
      if (typeof part.text === 'string' && (part.kind === undefined || part.kind === 'text' || part.type === 'text')) return part.text;
      if (part.data !== undefined && (part.kind === undefined || part.kind === 'data')) return JSON.stringify(part.data);
      return '';
    })
    .filter((text) => text !== '')
    .join('\n');
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
  return { kind: 'answer', text: partsText(message.parts), contextId: textOf(message.contextId) };
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
  return { kind: 'answer', text, contextId };
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
