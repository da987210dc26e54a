import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { answer, type Brain } from './brains.js';
import { mulberry32 } from '../../../src/attacks/random.js';

/**
 * Loopback test agents (test/helpers/agents/README.md): an HTTP server on 127.0.0.1 speaking
 * OpenAI chat completions (any POST path ending in /chat/completions) and A2A JSON-RPC (any
 * other POST path; `message/send` and `SendMessage`), with a behaviour: what it answers and
 * how it fails. Every request is recorded, Authorization header included.
 */

export type TestAgentBehaviour = Brain | 'slow' | 'flaky' | 'rate-limited' | 'oversized' | 'redirect';

/**
 * One scripted answer: `ok` (the behaviour answers), `reset` (connection reset before any answer), `cut` (a 200 whose body
 * stops half-way, the connection dropped), `hang` (never answers), a status, or a full answer.
 */
export type ScriptStep = 'ok' | 'reset' | 'cut' | 'hang' | number | { status: number; body?: string; headers?: Record<string, string> };

export type A2aMethod = 'message/send' | 'SendMessage';

export interface TestAgentOptions {
  /** The agent's own system prompt: used on A2A, and on chat completions when the request has no system message. */
  systemPrompt?: string;
  /** Who answers under a transport behaviour (slow, flaky, …). Default `compliant`. */
  brain?: Brain;
  /** Wait before answering; `slow` defaults to 2000 ms, other behaviours to none. */
  delayMs?: number;
  /** flaky: share of requests that fail (default 0.5), of which `resetShare` are connection resets (default 0.5), the rest HTTP 500. */
  failureRate?: number;
  resetShare?: number;
  /** flaky: the seed of its failures (default 1): the same seed, the same sequence. */
  seed?: number;
  /** rate-limited: requests answered per window (default 2); past that, 429 with `Retry-After`. */
  limit?: number;
  windowMs?: number;
  /** rate-limited: the `Retry-After` header sent (default "1"). */
  retryAfter?: string;
  /** oversized: size of the answer body (default 2 MiB), sent chunked unless `declareLength`. */
  bodyBytes?: number;
  declareLength?: boolean;
  /** redirect: where to, and the status (default 307). */
  location?: string;
  redirectStatus?: number;
  /** The first requests are answered by these steps, in order; then the behaviour takes over. */
  script?: ScriptStep[];
  /** When set, a request without `Authorization: Bearer <requireApiKey>` is answered 401. */
  requireApiKey?: string;
  /** Error bodies (401, 500, scripted statuses) echo the Authorization header received, as careless servers do. */
  echoAuthorization?: boolean;
  /**
   * Echoes the key it received (`Authorization: Bearer <key>`) instead of answering: its answer is
   * `echoKey(key)`, or, with `echoKeyStatus`, an error body of that status quoting `echoKey(key)`.
   */
  echoKey?: (key: string) => string;
  echoKeyStatus?: number;
  /** A2A methods it speaks (default both); another gets JSON-RPC -32601. */
  a2aMethods?: A2aMethod[];
  /** A2A: answer a Message (default), a Task with the text in an artifact, or a Task with it in status.message. */
  a2aAnswer?: 'message' | 'task' | 'task-status';
  /** A2A: the task is "working" for this many tasks/get / GetTask calls before it completes (default 0: done at once). */
  a2aPendingPolls?: number;
  /** chat completions: `content` as a string (default) or as an array of text parts. */
  chatContent?: 'string' | 'parts';
  /** gzip the JSON answers (with Content-Encoding: gzip). */
  gzip?: boolean;
  /** Extra benign question → answer pairs. */
  answers?: ReadonlyArray<readonly [RegExp | string, string]>;
  /** crescendo: turns refused before it gives in (default 2). */
  crescendoTurns?: number;
  /** Clock for `receivedAt` and the rate-limited window (default Date.now). */
  now?: () => number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Lower-case names; `authorization` kept, so tests can check the key was sent. */
  headers: Record<string, string>;
  /** Parsed JSON, or the raw text when it is not JSON. */
  body: unknown;
  rawBody: string;
  receivedAt: number;
  protocol: 'chat_completions' | 'a2a';
}

export interface TestAgent {
  /** http://127.0.0.1:<port> */
  url: string;
  port: number;
  /** A base URL for chat completions (`/v1`; the connector appends /chat/completions). */
  chatUrl: string;
  /** The A2A JSON-RPC endpoint. */
  a2aUrl: string;
  requests: RecordedRequest[];
  /** Requests being answered now, and the most ever at once. */
  readonly inFlight: number;
  readonly maxInFlight: number;
  /** Answers the client stopped reading before their end (the connection closed first). */
  readonly abortedResponses: number;
  close(): Promise<void>;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

function partsText(parts: unknown): string {
  if (!Array.isArray(parts)) return '';
  return parts
    .filter(isRecord)
    .map((part) => (typeof part.text === 'string' ? part.text : ''))
    .join('\n');
}

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? content.map((part) => (isRecord(part) && typeof part.text === 'string' ? part.text : '')).join('') : '';
}

export async function startTestAgent(behaviour: TestAgentBehaviour, options: TestAgentOptions = {}): Promise<TestAgent> {
  const now = options.now ?? Date.now;
  const brain: Brain = behaviour === 'compliant' || behaviour === 'refusing' || behaviour === 'crescendo' ? behaviour : (options.brain ?? 'compliant');
  const delayMs = options.delayMs ?? (behaviour === 'slow' ? 2000 : 0);
  const random = mulberry32(options.seed ?? 1);
  const methods = new Set<string>(options.a2aMethods ?? ['message/send', 'SendMessage']);
  const requests: RecordedRequest[] = [];
  const served: number[] = [];
  const turnsByContext = new Map<string, number>();
  const tasks = new Map<string, { text: string; contextId: string; pollsLeft: number }>();
  let inFlight = 0;
  let maxInFlight = 0;
  let abortedResponses = 0;

  function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}) {
    const json = Buffer.from(JSON.stringify(value));
    const body = options.gzip ? gzipSync(json) : json;
    const encoding = options.gzip ? { 'content-encoding': 'gzip' } : {};
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...encoding, ...headers });
    res.end(body);
  }

  function errorBody(req: IncomingMessage, message: string) {
    const error: Record<string, unknown> = { message };
    if (options.echoAuthorization) error.received_authorization = req.headers.authorization ?? null;
    return { error };
  }

  function echoedKey(req: IncomingMessage): string | null {
    if (!options.echoKey) return null;
    return options.echoKey((req.headers.authorization ?? '').replace(/^Bearer /, ''));
  }

  function reset(req: IncomingMessage) {
    const socket = req.socket as typeof req.socket & { resetAndDestroy?: () => void };
    if (socket.resetAndDestroy) socket.resetAndDestroy();
    else socket.destroy();
  }

  function oversized(res: ServerResponse, protocol: RecordedRequest['protocol']) {
    const size = options.bodyBytes ?? 2 * 1024 * 1024;
    const head =
      protocol === 'chat_completions'
        ? '{"choices":[{"index":0,"message":{"role":"assistant","content":"'
        : '{"jsonrpc":"2.0","id":1,"result":{"kind":"message","role":"agent","parts":[{"kind":"text","text":"';
    const tail = protocol === 'chat_completions' ? '"}}]}' : '"}]}}';
    const filler = Math.max(0, size - head.length - tail.length);
    const length = options.declareLength ? { 'content-length': String(head.length + filler + tail.length) } : {};
    res.writeHead(200, { 'content-type': 'application/json', ...length });
    res.write(head);
    const chunk = 'x'.repeat(64 * 1024);
    let left = filler;
    const pump = () => {
      while (left > 0 && !res.destroyed) {
        const piece = left >= chunk.length ? chunk : chunk.slice(0, left);
        left -= piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
      if (!res.destroyed) res.end(tail);
    };
    pump();
  }

  function chatAnswer(req: IncomingMessage, res: ServerResponse, body: unknown) {
    const messages = isRecord(body) && Array.isArray(body.messages) ? body.messages.filter(isRecord) : [];
    const system = messages.find((message) => message.role === 'system' || message.role === 'developer');
    const users = messages.filter((message) => message.role === 'user');
    const lastUser = users[users.length - 1];
    if (lastUser === undefined) {
      sendJson(res, 400, errorBody(req, 'messages must hold a user message'));
      return;
    }
    const text = echoedKey(req) ?? answer(brain, {
      text: contentText(lastUser.content),
      systemPrompt: system ? contentText(system.content) : (options.systemPrompt ?? null),
      turn: users.length,
      answers: options.answers,
      crescendoTurns: options.crescendoTurns,
    });
    const content = options.chatContent === 'parts' ? [{ type: 'text', text }] : text;
    sendJson(res, 200, {
      id: `chatcmpl-${randomUUID()}`,
      object: 'chat.completion',
      created: Math.floor(now() / 1000),
      model: isRecord(body) && typeof body.model === 'string' ? body.model : 'test-agent',
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content } }],
      usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
    });
  }

  function agentMessage(v1: boolean, text: string, contextId: string) {
    return v1
      ? { role: 'ROLE_AGENT', parts: [{ text }], messageId: randomUUID(), contextId }
      : { kind: 'message', role: 'agent', parts: [{ kind: 'text', text }], messageId: randomUUID(), contextId };
  }

  function a2aTask(v1: boolean, id: string, contextId: string, text: string | null) {
    const state = text === null ? 'working' : 'completed';
    const message = text === null ? undefined : agentMessage(v1, text, contextId);
    const inStatus = options.a2aAnswer === 'task-status';
    const task: Record<string, unknown> = {
      id,
      contextId,
      status: {
        state: v1 ? `TASK_STATE_${state.toUpperCase()}` : state,
        ...(inStatus && message ? { message } : {}),
        timestamp: new Date(now()).toISOString(),
      },
      ...(!inStatus && text !== null ? { artifacts: [{ artifactId: randomUUID(), parts: [v1 ? { text } : { kind: 'text', text }] }] } : {}),
    };
    if (!v1) task.kind = 'task';
    return v1 ? { task } : task;
  }

  function a2aAnswer(_req: IncomingMessage, res: ServerResponse, body: unknown) {
    const rpc = isRecord(body) ? body : null;
    const id = rpc && (typeof rpc.id === 'string' || typeof rpc.id === 'number') ? rpc.id : null;
    const reply = (result: unknown) => sendJson(res, 200, { jsonrpc: '2.0', id, result });
    const rpcError = (code: number, message: string) => sendJson(res, 200, { jsonrpc: '2.0', id, error: { code, message } });
    if (rpc === null || rpc.jsonrpc !== '2.0' || typeof rpc.method !== 'string') {
      rpcError(rpc === null ? -32700 : -32600, rpc === null ? 'Invalid JSON payload' : 'Request payload validation error');
      return;
    }
    const params = isRecord(rpc.params) ? rpc.params : {};
    const v1 = rpc.method === 'SendMessage' || rpc.method === 'GetTask';
    if (rpc.method === 'tasks/get' || rpc.method === 'GetTask') {
      const task = typeof params.id === 'string' ? tasks.get(params.id) : undefined;
      if (!task) {
        rpcError(-32001, 'Task not found');
        return;
      }
      task.pollsLeft -= 1;
      reply(a2aTask(v1, params.id as string, task.contextId, task.pollsLeft > 0 ? null : task.text));
      return;
    }
    if (!methods.has(rpc.method)) {
      rpcError(-32601, 'Method not found');
      return;
    }
    const message = isRecord(params.message) ? params.message : null;
    if (message === null) {
      rpcError(-32602, 'Invalid parameters');
      return;
    }
    const contextId = typeof message.contextId === 'string' && message.contextId !== '' ? message.contextId : randomUUID();
    const turn = (turnsByContext.get(contextId) ?? 0) + 1;
    turnsByContext.set(contextId, turn);
    const metadata = isRecord(message.metadata) ? message.metadata : {};
    const text = echoedKey(_req) ?? answer(brain, {
      text: partsText(message.parts),
      systemPrompt: options.systemPrompt ?? (typeof metadata.systemPrompt === 'string' ? metadata.systemPrompt : null),
      turn,
      answers: options.answers,
      crescendoTurns: options.crescendoTurns,
    });
    const pending = options.a2aPendingPolls ?? 0;
    if (pending > 0 || options.a2aAnswer === 'task' || options.a2aAnswer === 'task-status') {
      const taskId = randomUUID();
      if (pending > 0) tasks.set(taskId, { text, contextId, pollsLeft: pending });
      reply(a2aTask(v1, taskId, contextId, pending > 0 ? null : text));
      return;
    }
    const answerMessage = agentMessage(v1, text, contextId);
    reply(v1 ? { message: answerMessage } : answerMessage);
  }

  async function handle(req: IncomingMessage, res: ServerResponse, recorded: RecordedRequest, closed: Promise<void>) {
    if (delayMs > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([new Promise<void>((resolve) => (timer = setTimeout(resolve, delayMs))), closed]);
      clearTimeout(timer);
      if (res.destroyed || req.socket.destroyed) return;
    }
    const index = requests.indexOf(recorded);
    const step = options.script?.[index];
    if (step !== undefined && step !== 'ok') {
      if (step === 'reset') reset(req);
      else if (step === 'cut') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        res.write('{"choices":[{"message":{"content":"half', () => req.socket.destroy());
      } else if (step === 'hang') await closed;
      else if (typeof step === 'number') {
        sendJson(res, step, errorBody(req, `scripted HTTP ${step}`), step === 429 ? { 'retry-after': options.retryAfter ?? '1' } : {});
      }
      else {
        res.writeHead(step.status, { 'content-type': 'application/json', ...step.headers });
        res.end(step.body ?? JSON.stringify(errorBody(req, `scripted HTTP ${step.status}`)));
      }
      return;
    }
    if (step === undefined) {
      if (behaviour === 'flaky' && random() < (options.failureRate ?? 0.5)) {
        if (random() < (options.resetShare ?? 0.5)) reset(req);
        else sendJson(res, 500, errorBody(req, 'the flaky agent failed'));
        return;
      }
      if (behaviour === 'rate-limited') {
        const windowMs = options.windowMs ?? 60_000;
        const at = now();
        while (served.length > 0 && served[0]! <= at - windowMs) served.shift();
        if (served.length >= (options.limit ?? 2)) {
          sendJson(res, 429, errorBody(req, 'rate limit exceeded'), { 'retry-after': options.retryAfter ?? '1' });
          return;
        }
        served.push(at);
      }
      if (behaviour === 'redirect') {
        res.writeHead(options.redirectStatus ?? 307, { location: options.location ?? '/elsewhere' });
        res.end();
        return;
      }
    }
    if (options.requireApiKey !== undefined && req.headers.authorization !== `Bearer ${options.requireApiKey}`) {
      const said = options.echoAuthorization ? `Incorrect API key provided: ${req.headers.authorization ?? '(none)'}` : 'Incorrect API key provided';
      sendJson(res, 401, errorBody(req, said));
      return;
    }
    if (options.echoKey && options.echoKeyStatus !== undefined) {
      sendJson(res, options.echoKeyStatus, { error: { message: `Invalid API key: ${echoedKey(req)}` } });
      return;
    }
    if (behaviour === 'oversized') {
      oversized(res, recorded.protocol);
      return;
    }
    if (recorded.protocol === 'chat_completions') chatAnswer(req, res, recorded.body);
    else a2aAnswer(req, res, recorded.body);
  }

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: unknown = rawBody;
      try {
        body = JSON.parse(rawBody);
      } catch {
        // Recorded as text.
      }
      const path = req.url ?? '/';
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(req.headers)) if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
      const recorded: RecordedRequest = {
        method: req.method ?? 'GET',
        path,
        headers,
        body,
        rawBody,
        receivedAt: now(),
        protocol: path.split('?')[0]!.replace(/\/+$/, '').endsWith('/chat/completions') ? 'chat_completions' : 'a2a',
      };
      requests.push(recorded);
      if (req.method !== 'POST') {
        sendJson(res, 405, errorBody(req, 'POST only'));
        return;
      }
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const closed = new Promise<void>((resolve) => res.once('close', resolve));
      res.once('close', () => {
        inFlight -= 1;
        if (!res.writableFinished) abortedResponses += 1;
      });
      handle(req, res, recorded, closed).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    chatUrl: `${url}/v1`,
    a2aUrl: `${url}/a2a`,
    requests,
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
    get abortedResponses() {
      return abortedResponses;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
