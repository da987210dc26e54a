import { randomUUID } from 'node:crypto';
import { readA2aAnswer } from '../../connector/a2a.js';

/**
 * The A2A JSON-RPC shapes the gateway reads and writes (docs/gateway.md, "A2A"): both spellings
 * (0.3's `message/send`, 1.0's `SendMessage`), the text parts the guards read, and the agent card
 * that points clients at the gateway.
 */

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

export type A2aMethodKind = 'send' | 'stream' | 'get';

/** The methods passed through, in both spellings. */
export const A2A_METHODS: Record<string, A2aMethodKind> = {
  'message/send': 'send',
  SendMessage: 'send',
  'message/stream': 'stream',
  SendStreamingMessage: 'stream',
  'tasks/get': 'get',
  GetTask: 'get',
};

const isTextPart = (part: unknown): part is Record<string, unknown> & { text: string } =>
  isRecord(part) && typeof part.text === 'string' && (part.kind === undefined || part.kind === 'text');

export function partsText(parts: unknown): string {
  return Array.isArray(parts)
    ? parts
        .filter(isTextPart)
        .map((part) => part.text)
        .join('\n')
    : '';
}

/** The text of the request's message (`params.message.parts`). */
export function requestText(params: unknown): string {
  return isRecord(params) && isRecord(params.message) ? partsText(params.message.parts) : '';
}

/** The request with its message's text parts replaced by one (a redacted message). */
export function withRequestText(body: Record<string, unknown>, text: string): Record<string, unknown> {
  const params = body.params as Record<string, unknown>;
  const message = params.message as Record<string, unknown>;
  const parts = Array.isArray(message.parts) ? message.parts : [];
  const first = parts.findIndex(isTextPart);
  const kept = parts.filter((part, i) => !isTextPart(part) || i === first);
  const replaced = kept.map((part) => (isTextPart(part) ? { ...part, text } : part));
  return { ...body, params: { ...params, message: { ...message, parts: replaced } } };
}

/** The text of a finished answer (a Message, or a Task's artifacts / status message); '' while a task works. */
export function answerText(payload: unknown): string {
  const reading = readA2aAnswer(payload);
  return reading.kind === 'answer' ? reading.text : reading.kind === 'task_failed' ? reading.text : '';
}

/** The text a `message/stream` event adds: artifact updates, messages, a task's artifacts, a final status message. */
export function eventText(data: string): string {
  let payload: unknown;
  try {
    payload = JSON.parse(data);
  } catch {
    return '';
  }
  if (!isRecord(payload) || !isRecord(payload.result)) return '';
  let result = payload.result;
  // 1.0 wraps each event: {message}, {task}, {statusUpdate}, {artifactUpdate}.
  for (const key of ['message', 'task', 'statusUpdate', 'artifactUpdate']) if (isRecord(result[key])) result = result[key] as Record<string, unknown>;
  if (isRecord(result.artifact)) return partsText(result.artifact.parts);
  if (Array.isArray(result.parts)) return partsText(result.parts);
  if (Array.isArray(result.artifacts)) return result.artifacts.map((a) => (isRecord(a) ? partsText(a.parts) : '')).join('\n');
  if (isRecord(result.status) && isRecord(result.status.message) && result.final === true) return partsText(result.status.message.parts);
  return '';
}

/** An agent message carrying `text` (an answer Warden replaced: redacted). */
export function agentMessage(dialect: '0.3' | '1.0', text: string, contextId?: string) {
  return dialect === '1.0'
    ? { message: { role: 'ROLE_AGENT', parts: [{ text }], messageId: randomUUID(), ...(contextId ? { contextId } : {}) } }
    : { kind: 'message', role: 'agent', parts: [{ kind: 'text', text }], messageId: randomUUID(), ...(contextId ? { contextId } : {}) };
}

export const dialectOfMethod = (method: string): '0.3' | '1.0' => (method.includes('/') ? '0.3' : '1.0');

/** The JSON-RPC error a blocked message or answer gets (-32050: a code of the server's range). */
export function blockedRpcError(id: unknown, message: string, guard: string, direction: 'input' | 'output') {
  return {
    jsonrpc: '2.0',
    id: typeof id === 'string' || typeof id === 'number' ? id : null,
    error: { code: -32050, message, data: { type: 'content_filter', guard, direction } },
  };
}

export interface CardAgent {
  id: string;
  agent_name: string;
  purpose: string | null;
  skills: string | null;
  capabilities: string | null;
}

function parsedList(json: string | null): Array<Record<string, unknown>> {
  try {
    const value: unknown = json === null ? [] : JSON.parse(json);
    return Array.isArray(value) ? value.filter(isRecord) : [];
  } catch {
    return [];
  }
}

/**
 * The agent's card as the gateway serves it: the agent's name, description and skills, with
 * every endpoint at the gateway (0.3's `url`, 1.0's `supportedInterfaces`), so an A2A client
 * calls through Warden with its own credential.
 */
export function gatewayCard(agent: CardAgent, endpoint: string) {
  const skills = parsedList(agent.skills).map((skill, i) => ({
    id: typeof skill.id === 'string' ? skill.id : `skill-${i + 1}`,
    name: typeof skill.name === 'string' ? skill.name : `Skill ${i + 1}`,
    description: typeof skill.description === 'string' ? skill.description : '',
    tags: [],
    ...(Array.isArray(skill.input_modes) && skill.input_modes.length > 0 ? { inputModes: skill.input_modes } : {}),
    ...(Array.isArray(skill.output_modes) && skill.output_modes.length > 0 ? { outputModes: skill.output_modes } : {}),
  }));
  return {
    name: agent.agent_name,
    description: agent.purpose ?? `${agent.agent_name}, behind Warden's gateway`,
    version: '1.0.0',
    protocolVersion: '0.3.0',
    url: endpoint,
    preferredTransport: 'JSONRPC',
    supportedInterfaces: [{ url: endpoint, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
    capabilities: { streaming: true, pushNotifications: false },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills,
    securitySchemes: { warden: { type: 'http', scheme: 'bearer', description: "A Warden token or API key holding 'gateway:invoke'" } },
    security: [{ warden: [] }],
  };
}
