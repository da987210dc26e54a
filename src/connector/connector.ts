import {
  a2aHeaders,
  dialectOfVersion,
  DIALECT_MISMATCH_CODES,
  getTaskRequest,
  readA2aAnswer,
  sendMessageRequest,
  type A2aDialect,
  type A2aReading,
} from './a2a.js';
import { chatCompletionsBody, chatCompletionsUrl, readChatCompletion } from './chat-completions.js';
import { AttemptFailure, createOutboundPool, postForStream, postJson, type HttpAnswer, type OpenAnswer, type PostOptions } from './http.js';
import { sseData } from './sse.js';
import { createOutboundFence, type OutboundFence } from './outbound.js';
import { processRateLimiter, realSleep, type Sleep } from './rate-limiter.js';
import { bodyExcerpt, redactSecret, secretRedactor } from './redact.js';
import { backoffMs, RETRY_STATUSES, retryAfterMs } from './retry.js';
import {
  StreamFailure,
  type AgentCallError,
  type AgentCallErrorKind,
  type AgentCallResult,
  type AgentConnector,
  type AgentTarget,
  type CallRateLimiter,
  type ForwardRequest,
  type ForwardResult,
  type OpenedStream,
  type SendOptions,
  type ToolCall,
  type Turn,
} from './types.js';

/**
 * The agent connector (docs/connector.md): one `send` for both protocols, fenced, rate-limited,
 * retried, bounded in time and size. It never throws for an agent's failure, and nothing it
 * answers holds the agent's key.
 */

export interface AgentConnectorOptions {
  /** Which addresses may be called; default: the fixed deny-list only (loopback allowed). */
  fence?: OutboundFence;
  /** Default: the process-wide in-process limiter, shared by every connector of the process. */
  limiter?: CallRateLimiter;
  /** Per attempt, from connecting to the last byte read. Default 30 s. */
  timeoutMs?: number;
  /** Further attempts after a transient failure. Default 3 (4 attempts in all). */
  retries?: number;
  /** An answer past this is cut off (`too_large`). Default 1 MiB. */
  maxResponseBytes?: number;
  /** Back-off and A2A task polling wait here (tests inject a fake). */
  sleep?: Sleep;
  /** Wall-clock milliseconds (latencies, HTTP-date Retry-After). */
  now?: () => number;
  /** In [0, 1): the back-off jitter. */
  random?: () => number;
  userAgent?: string;
  /** First back-off (before jitter); doubles per retry up to `backoffMaxMs`. Defaults 500 ms and 8 s. */
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  /** The longest `Retry-After` honoured; a longer one is waited this long. Default 60 s. */
  retryAfterMaxMs?: number;
  /** First wait before asking again for an A2A task still working (doubles up to 5 s). Default 1 s. */
  taskPollMs?: number;
}

export interface AgentConnectorHandle extends AgentConnector {
  /** Closes idle kept-alive connections (at shutdown). */
  close(): void;
}

export const CONNECTOR_DEFAULTS = {
  timeoutMs: 30_000,
  retries: 3,
  maxResponseBytes: 1024 * 1024,
  backoffBaseMs: 500,
  backoffMaxMs: 8_000,
  retryAfterMaxMs: 60_000,
  taskPollMs: 1_000,
} as const;

const MAX_TASK_POLLS = 60;
/** Agent URLs read and kept per connector (a bound, not an expectation). */
const URLS_KEPT = 1_000;
const DIALECT_MEMORY = 1_000;

interface CallState {
  attempts: number;
  latencyMs: number;
  /** When the attempt that answered started (latency of an A2A task runs to its end from there). */
  answeredAttemptStart: number;
}

type Exchange = { ok: true; payload: unknown; raw: string } | AgentCallError;

function targetUrl(raw: string): URL | string {
  if (!raw) return 'the agent has no URL';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'the agent URL is not a valid URL';
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return 'the agent URL must start with http:// or https://';
  // Credentials in a URL end up in logs and error texts; the key has its own field.
  if (url.username !== '' || url.password !== '') {
    return "the agent URL holds a user name or password, which Warden refuses (put the key in the agent's API key)";
  }
  url.hash = '';
  return url;
}

/** Every string of a JSON value (keys included) with the key redacted (`redact`: one key's `secretRedactor`). */
function redactStrings(value: unknown, redact: (text: string) => string): unknown {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((item) => redactStrings(item, redact));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redact(key), redactStrings(inner, redact)]));
  }
  return value;
}

/** A call whose name or arguments hold the key (an agent echoing it) gets the key replaced, as the text does. */
const redactCall = (call: ToolCall, redact: (text: string) => string): ToolCall => ({
  name: redact(call.name),
  arguments: redactStrings(call.arguments, redact),
});

const redactCalls = (calls: ToolCall[], redact: (text: string) => string) => calls.map((call) => redactCall(call, redact));

const seconds = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`);

export function createAgentConnector(options: AgentConnectorOptions = {}): AgentConnectorHandle {
  const fence = options.fence ?? createOutboundFence();
  const limiter = options.limiter ?? processRateLimiter;
  const timeoutMs = options.timeoutMs ?? CONNECTOR_DEFAULTS.timeoutMs;
  const defaultTimeoutMs = timeoutMs;
  const retries = Math.max(0, Math.floor(options.retries ?? CONNECTOR_DEFAULTS.retries));
  const maxResponseBytes = options.maxResponseBytes ?? CONNECTOR_DEFAULTS.maxResponseBytes;
  const sleep = options.sleep ?? realSleep;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const userAgent = options.userAgent ?? 'Warden agent connector';
  const backoff = { baseMs: options.backoffBaseMs ?? CONNECTOR_DEFAULTS.backoffBaseMs, maxMs: options.backoffMaxMs ?? CONNECTOR_DEFAULTS.backoffMaxMs, random };
  const retryAfterMaxMs = options.retryAfterMaxMs ?? CONNECTOR_DEFAULTS.retryAfterMaxMs;
  const taskPollMs = options.taskPollMs ?? CONNECTOR_DEFAULTS.taskPollMs;
  /** Kept-alive connections, made on first use; `close` drops them (a later call makes a new pool). */
  let pool: ReturnType<typeof createOutboundPool> | null = null;
  const dispatcher = () => (pool ??= createOutboundPool(fence));
  /** Which A2A dialect each endpoint answered last, so the next call asks it right away. */
  const dialects = new Map<string, A2aDialect>();

  function rememberDialect(url: string, dialect: A2aDialect) {
    dialects.delete(url);
    dialects.set(url, dialect);
    if (dialects.size > DIALECT_MEMORY) dialects.delete(dialects.keys().next().value!);
  }

  async function pause(ms: number, signal: AbortSignal | undefined): Promise<boolean> {
    try {
      await sleep(ms, signal);
    } catch {
      // Only the caller's signal ends a wait early; a sleep failing otherwise just ends the wait.
    }
    return !signal?.aborted;
  }

  async function send(target: AgentTarget, turns: readonly Turn[], sendOptions: SendOptions = {}): Promise<AgentCallResult> {
    try {
      return await sendOnce(target, turns, sendOptions);
    } catch {
      // A fault of ours, not the agent's: still a result (send never throws), and never the exception's text.
      return { ok: false, kind: 'protocol', error: 'the call failed unexpectedly inside Warden', latencyMs: 0, attempts: 0 };
    }
  }

  /**
   * What one call to an agent shares between its requests: the key (only ever in a header and in
   * redaction), the attempt count, failures worded and redacted, and `exchange`: one request
   * attempted until it answers 2xx, fails for good, or the retries run out.
   */
  function beginCall(target: AgentTarget, sendOptions: SendOptions) {
    const { signal } = sendOptions;
    const callTimeoutMs = sendOptions.timeoutMs ?? timeoutMs;
    const callRetries = sendOptions.retries === undefined ? retries : Math.max(0, Math.floor(sendOptions.retries));
    const secret = target.apiKey || undefined;
    const state: CallState = { attempts: 0, latencyMs: 0, answeredAttemptStart: 0 };
    const failure = (kind: AgentCallErrorKind, message: string, status?: number): AgentCallError => ({
      ok: false,
      kind,
      error: redactSecret(message, secret),
      ...(status !== undefined ? { status } : {}),
      latencyMs: state.latencyMs,
      attempts: state.attempts,
    });
    const cancelled = () => failure('cancelled', 'the call was cancelled');
    const afterAttempts = () => (state.attempts > 1 ? ` after ${state.attempts} attempts` : '');

    const baseHeaders: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/json',
      'accept-encoding': 'identity',
      'user-agent': userAgent,
    };
    if (secret !== undefined) baseHeaders.authorization = `Bearer ${secret}`;
    const perMinute = target.rateLimitPerMinute ?? 0;
    /** One request of this call: its bounds, its signal, the fence and the shared agents. */
    const post = (to: URL, headers: Record<string, string>, body: string): PostOptions => ({
      url: to,
      headers,
      body,
      timeoutMs: callTimeoutMs,
      maxResponseBytes,
      signal,
      fence,
      dispatcher: dispatcher(),
    });
    const asAttempt = (error: unknown) => (error instanceof AttemptFailure ? error : new AttemptFailure('network', 'a network error occurred', false));

    function httpFailure(answer: HttpAnswer, to: URL): AgentCallError {
      const { status } = answer;
      if (status >= 300 && status < 400) {
        let where = '';
        try {
          const location = answer.headers.location;
          if (location) where = `: it points to ${new URL(location, to).origin}`;
        } catch {
          // An unreadable Location is left out.
        }
        const advice = `set the agent's URL to the new address${where}`;
        return failure('http', `the agent answered HTTP ${status}, a redirect, which Warden does not follow (${advice})`, status);
      }
      const excerpt = bodyExcerpt(answer.body.toString('utf8'), secret);
      const hint = status === 401 || status === 403 ? " (check the agent's API key)" : '';
      return failure('http', `the agent answered HTTP ${status}${afterAttempts()}${hint}${excerpt ? `: ${excerpt}` : ''}`, status);
    }

    function attemptFailure(error: AttemptFailure): AgentCallError {
      switch (error.kind) {
        case 'timeout':
          return failure('timeout', `${error.message}${state.attempts > 1 ? ` (${state.attempts} attempts)` : ''}`);
        case 'network':
          return failure('network', `the agent could not be reached: ${error.message}${afterAttempts()}`);
        case 'refused_address':
          return failure('refused_address', `the agent's address is refused: ${error.message}`);
        case 'too_large':
          return failure('too_large', `the agent's ${error.message}`);
        case 'cancelled':
          return cancelled();
      }
    }

    /** One request, attempted until it answers 2xx, fails for good, or the retries run out. */
    async function exchange(to: URL, body: unknown, extraHeaders: Record<string, string> = {}): Promise<Exchange> {
      const payload = JSON.stringify(body);
      let retry = 0;
      for (;;) {
        if (perMinute > 0) {
          try {
            await limiter.acquire(target.rateKey, perMinute, signal);
          } catch {
            // A limiter shared across processes may fail on its own; the call then does not start.
            return signal?.aborted ? cancelled() : failure('network', 'the rate ceiling could not be checked, so the call was not made');
          }
        }
        if (signal?.aborted) return cancelled();
        state.attempts += 1;
        const started = now();
        let answer: HttpAnswer;
        try {
          answer = await postJson(post(to, { ...baseHeaders, ...extraHeaders }, payload));
        } catch (error) {
          state.latencyMs = now() - started;
          const attempt = asAttempt(error);
          if (attempt.transient && retry < callRetries) {
            retry += 1;
            if (!(await pause(backoffMs(retry, backoff), signal))) return cancelled();
            continue;
          }
          return attemptFailure(attempt);
        }
        state.latencyMs = now() - started;
        if (answer.status >= 200 && answer.status < 300) {
          state.answeredAttemptStart = started;
          const raw = answer.body.toString('utf8');
          try {
            return { ok: true, payload: JSON.parse(raw), raw };
          } catch {
            return failure('protocol', `the agent's answer (HTTP ${answer.status}) is not JSON`, answer.status);
          }
        }
        if (RETRY_STATUSES.has(answer.status) && retry < callRetries) {
          retry += 1;
          const asked = retryAfterMs(answer.headers['retry-after'], now(), retryAfterMaxMs);
          if (asked !== null && sendOptions.maxRetryAfterMs !== undefined && asked > sendOptions.maxRetryAfterMs) {
            return { ...httpFailure(answer, to), retryAfterMs: asked };
          }
          if (!(await pause(asked ?? backoffMs(retry, backoff), signal))) return cancelled();
          continue;
        }
        return httpFailure(answer, to);
      }
    }

    /** One request whose 2xx answer is read as it arrives (no retries: a stream cannot be replayed to its reader). */
    async function open(to: URL, body: unknown, extraHeaders: Record<string, string> = {}): Promise<OpenedStream | AgentCallError> {
      if (signal?.aborted) return cancelled();
      state.attempts += 1;
      const started = now();
      let answer: OpenAnswer | HttpAnswer;
      try {
        answer = await postForStream(post(to, { ...baseHeaders, accept: 'text/event-stream, application/json', ...extraHeaders }, JSON.stringify(body)));
      } catch (error) {
        state.latencyMs = now() - started;
        return attemptFailure(asAttempt(error));
      }
      state.latencyMs = now() - started;
      if (!('stream' in answer)) return httpFailure(answer, to);
      const contentType = String(answer.headers['content-type'] ?? '');
      const source = answer.stream;
      const eventStream = contentType.includes('text/event-stream');
      async function* whole(chunks: AsyncIterable<Buffer>): AsyncIterable<string> {
        const parts: Buffer[] = [];
        for await (const chunk of chunks) parts.push(chunk);
        yield Buffer.concat(parts).toString('utf8');
      }
      async function* events(): AsyncIterable<string> {
        try {
          for await (const data of eventStream ? sseData(source) : whole(source)) yield redactSecret(data, secret);
        } catch (error) {
          const failed = attemptFailure(error instanceof AttemptFailure ? error : new AttemptFailure('network', 'a network error occurred', false));
          throw new StreamFailure(failed);
        }
      }
      return { ok: true, eventStream, events: events(), latencyMs: state.latencyMs, attempts: state.attempts };
    }

    return { secret, state, failure, cancelled, exchange, open };
  }

  /**
   * Each URL as read by `targetUrl` (or why it is refused), per URL text: a memoised target (the
   * gateway's) is called with the same text every time. The URLs are never changed after this.
   */
  const readUrls = new Map<string, URL | string>();
  function readUrl(raw: string): URL | string {
    let url = readUrls.get(raw);
    if (url === undefined) {
      url = targetUrl(raw);
      if (readUrls.size >= URLS_KEPT) readUrls.clear();
      readUrls.set(raw, url);
    }
    return url;
  }

  function checkedUrl(target: AgentTarget, call: ReturnType<typeof beginCall>, signal: AbortSignal | undefined): URL | AgentCallError {
    const url = readUrl(target.url);
    if (typeof url === 'string') return call.failure('refused_address', url);
    if (call.secret !== undefined && !/^[\x21-\x7e]+$/.test(call.secret)) {
      return call.failure('protocol', "the agent's API key holds characters an HTTP header cannot carry");
    }
    if (signal?.aborted) return call.cancelled();
    return url;
  }

  async function sendOnce(target: AgentTarget, turns: readonly Turn[], sendOptions: SendOptions): Promise<AgentCallResult> {
    const call = beginCall(target, sendOptions);
    const { secret, state, failure, exchange } = call;
    const checked = checkedUrl(target, call, sendOptions.signal);
    if (!(checked instanceof URL)) return checked;
    const url = checked;
    const last = turns[turns.length - 1];
    if (last === undefined || last.role !== 'user') return failure('protocol', 'the conversation sent to an agent must end with a user turn');
    const { signal } = sendOptions;
    const timeoutMs = sendOptions.timeoutMs ?? defaultTimeoutMs;

    const unreadable = (problem: string, raw: string) => {
      const excerpt = bodyExcerpt(raw, secret, 120);
      return failure('protocol', `the agent's answer could not be read: ${problem}${excerpt ? ` (${excerpt})` : ''}`);
    };
    const rpcError = (code: number | null, message: string) => {
      const excerpt = bodyExcerpt(message, secret, 120);
      return failure('protocol', `the agent answered JSON-RPC error ${code ?? '(no code)'}${excerpt ? `: ${excerpt}` : ''}`);
    };

    const answered = (text: string, contextId?: string, toolCalls?: ToolCall[]): AgentCallResult => ({
      ok: true,
      text: redactSecret(text, secret),
      ...(toolCalls?.length ? { toolCalls: redactCalls(toolCalls, secretRedactor(secret)) } : {}),
      latencyMs: state.latencyMs,
      attempts: state.attempts,
      ...(contextId && redactSecret(contextId, secret) === contextId ? { contextId } : {}),
    });

    if (target.protocol === 'chat_completions') {
      const out = await exchange(chatCompletionsUrl(url), chatCompletionsBody(target, turns));
      if (!out.ok) return out;
      const reading = readChatCompletion(out.payload);
      return 'text' in reading ? answered(reading.text, undefined, reading.toolCalls) : unreadable(reading.problem, out.raw);
    }

    if (target.protocol !== 'a2a') return failure('protocol', `the agent's protocol "${String(target.protocol)}" is not one Warden speaks`);

    // A2A: the last user turn, in the dialect this endpoint answered last (0.3 until known).
    const endpoint = url.href;
    let dialect: A2aDialect = dialects.get(endpoint) ?? dialectOfVersion(target.a2aVersion);
    let switched = false;
    let reading: A2aReading;
    let raw: string;
    for (;;) {
      const request = sendMessageRequest(dialect, last.content, { contextId: sendOptions.contextId, systemPrompt: target.systemPrompt });
      const out = await exchange(url, request, a2aHeaders(dialect));
      if (!out.ok) return out;
      reading = readA2aAnswer(out.payload);
      raw = out.raw;
      if (reading.kind === 'rpc_error' && !switched && reading.code !== null && DIALECT_MISMATCH_CODES.has(reading.code)) {
        switched = true;
        dialect = dialect === '0.3' ? '1.0' : '0.3';
        continue;
      }
      break;
    }
    if (reading.kind === 'rpc_error') return rpcError(reading.code, reading.message);
    rememberDialect(endpoint, dialect);

    // A task still at work: ask for it again, within the time one attempt may take.
    const deadline = state.answeredAttemptStart + timeoutMs;
    let contextId = reading.kind === 'pending' ? reading.contextId : undefined;
    let wait = taskPollMs;
    for (let polls = 0; reading.kind === 'pending'; polls++) {
      if (polls >= MAX_TASK_POLLS || now() + wait > deadline) {
        return failure('timeout', `no answer within ${seconds(timeoutMs)} (the agent's task was still working)`);
      }
      if (!(await pause(wait, signal))) return call.cancelled();
      wait = Math.min(wait * 2, 5_000);
      const sendStart = state.answeredAttemptStart;
      const out = await exchange(url, getTaskRequest(dialect, reading.taskId), a2aHeaders(dialect));
      if (!out.ok) return out;
      state.answeredAttemptStart = sendStart;
      state.latencyMs = now() - sendStart;
      reading = readA2aAnswer(out.payload);
      raw = out.raw;
      contextId = reading.kind === 'pending' || reading.kind === 'answer' ? (reading.contextId ?? contextId) : contextId;
    }
    if (reading.kind === 'answer') return answered(reading.text, reading.contextId ?? contextId, reading.toolCalls);
    if (reading.kind === 'rpc_error') return rpcError(reading.code, reading.message);
    if (reading.kind === 'task_failed') {
      const excerpt = bodyExcerpt(reading.text, secret, 120);
      return failure('protocol', `the agent's task ended ${reading.state}${excerpt ? `: ${excerpt}` : ''}`);
    }
    return unreadable(reading.problem, raw);
  }

  /** The URL a pass-through request goes to: `{url}/chat/completions`, or the A2A endpoint itself. */
  const completionsUrls = new Map<string, URL>();
  function forwardUrl(target: AgentTarget, url: URL): URL {
    if (target.protocol !== 'chat_completions') return url;
    let to = completionsUrls.get(url.href);
    if (to === undefined) {
      to = chatCompletionsUrl(url);
      if (completionsUrls.size >= URLS_KEPT) completionsUrls.clear();
      completionsUrls.set(url.href, to);
    }
    return to;
  }

  async function forward(target: AgentTarget, request: ForwardRequest, sendOptions: SendOptions = {}): Promise<ForwardResult> {
    try {
      const call = beginCall(target, sendOptions);
      const url = checkedUrl(target, call, sendOptions.signal);
      if (!(url instanceof URL)) return url;
      const out = await call.exchange(forwardUrl(target, url), request.body, request.headers);
      if (!out.ok) return out;
      // The text as a whole is looked at once; only an answer that holds the key is walked, string by string.
      const redact = secretRedactor(call.secret);
      const { latencyMs, attempts } = call.state;
      if (redact(out.raw) === out.raw) return { ok: true, payload: out.payload, raw: out.raw, latencyMs, attempts };
      return { ok: true, payload: redactStrings(out.payload, redact), latencyMs, attempts };
    } catch {
      return { ok: false, kind: 'protocol', error: 'the call failed unexpectedly inside Warden', latencyMs: 0, attempts: 0 };
    }
  }

  async function stream(target: AgentTarget, request: ForwardRequest, sendOptions: SendOptions = {}): Promise<OpenedStream | AgentCallError> {
    try {
      const call = beginCall(target, sendOptions);
      const url = checkedUrl(target, call, sendOptions.signal);
      if (!(url instanceof URL)) return url;
      return await call.open(forwardUrl(target, url), request.body, request.headers);
    } catch {
      return { ok: false, kind: 'protocol', error: 'the call failed unexpectedly inside Warden', latencyMs: 0, attempts: 0 };
    }
  }

  return {
    send,
    forward,
    stream,
    close() {
      const closing = pool;
      pool = null;
      closing?.destroy().catch(() => undefined);
    },
  };
}
