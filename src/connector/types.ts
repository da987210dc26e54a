/**
 * The agent connector's vocabulary (docs/connector.md). One module calls agents for the
 * evaluations, the red team and (later) the gateway: by protocol, fenced, rate-limited,
 * retried. It knows nothing of HTTP routes, the database or teams; callers decrypt the key.
 */

export type AgentProtocol = 'chat_completions' | 'a2a';

/** Everything needed to call one agent. Built by the caller from an Agent row (or a campaign's bare URL). */
export interface AgentTarget {
  /** Base URL: `{url}/chat/completions` for chat_completions, the JSON-RPC endpoint itself for a2a. */
  url: string;
  protocol: AgentProtocol;
  modelName?: string | null | undefined;
  /** Decrypted. Sent as `Authorization: Bearer …`; never logged, never in an error or a result. */
  apiKey?: string | null | undefined;
  /** Sent as the first (system) message on chat_completions; on a2a as message metadata. */
  systemPrompt?: string | null | undefined;
  /** The agent's `agent_params` (temperature, top_p, max_tokens, …), passed through on chat_completions. */
  params?: Record<string, unknown> | null | undefined;
  /** The agent's `rate_limit_requests_per_minute`: a hard ceiling on calls to it; null/0 = none. */
  rateLimitPerMinute?: number | null | undefined;
  /** Whose ceiling this call counts against (the agent id; a campaign's URL target: the URL). */
  rateKey: string;
  /**
   * a2a: the protocol version the agent's card declared at import ("0.3.0", "1.0"…): the first
   * call to the endpoint speaks that dialect (1.0 with `A2A-Version`). Unknown: 0.3 first.
   */
  a2aVersion?: string | null | undefined;
  /**
   * Record the call in telemetry (src/connector/recorded.ts): the team and labels (`evaluation_id`,
   * `campaign_id`, `agent_configuration_id`) of an evaluation's or a campaign's calls. Absent: not recorded.
   */
  telemetry?: CallTelemetry | undefined;
}

export interface CallTelemetry {
  teamId: string;
  labels: Readonly<Record<string, string>>;
  /** The agent's name, for the `invoke_agent {name}` span of an A2A call. */
  agentName?: string | undefined;
}

export interface Turn {
  role: 'user' | 'assistant';
  content: string;
}

export type AgentCallErrorKind =
  | 'timeout' // no complete answer in time (each attempt)
  | 'http' // a non-2xx answer that retries did not cure
  | 'network' // connection refused / reset / DNS failure, after retries
  | 'refused_address' // the outbound fence refused the address (never retried)
  | 'too_large' // the answer passed the size bound (cut off, counted as an error)
  | 'protocol' // a 2xx answer with no answer in it: unreadable, a JSON-RPC error, a failed A2A task (also a target that cannot be sent)
  | 'cancelled'; // the caller's signal aborted

/**
 * A tool call the agent's answer carried in its structure: chat completions' `tool_calls`, an
 * A2A function-call part or data part. Text that merely reads like a call is not one.
 */
export interface ToolCall {
  name: string;
  /** The arguments as the agent sent them: parsed JSON when they were a JSON string, else as given. */
  arguments: unknown;
}

export interface AgentCallOk {
  ok: true;
  /** The agent's answer text (the key, should the agent echo it, is replaced by "[redacted]"). */
  text: string;
  /** The tool calls the answer carried (absent when none); also written into `text` for a person to read. */
  toolCalls?: ToolCall[] | undefined;
  /**
   * The attempt that answered, from sending it to reading the answer (for an A2A task followed
   * until done: to its end). Rate-limit waits and back-off before it are not counted.
   */
  latencyMs: number;
  /** HTTP requests made (retries, an A2A dialect switch and task polls included). */
  attempts: number;
  /** a2a: the conversation's contextId, to pass back for the next turn. */
  contextId?: string | undefined;
}

export interface AgentCallError {
  ok: false;
  kind: AgentCallErrorKind;
  /** For a person; never holds the key, the request headers or the agent's body verbatim past a short excerpt. */
  error: string;
  status?: number | undefined;
  /** The last attempt's time (0 when none was made). */
  latencyMs: number;
  attempts: number;
  /** The agent asked to wait this long (Retry-After, capped) and the caller's `maxRetryAfterMs` said not to wait. */
  retryAfterMs?: number | undefined;
}

export type AgentCallResult = AgentCallOk | AgentCallError;

export interface SendOptions {
  signal?: AbortSignal | undefined;
  /** a2a: continue this conversation (from the previous AgentCallOk). */
  contextId?: string | undefined;
  /**
   * A Retry-After longer than this is not waited: the call answers its failure at once, with
   * `retryAfterMs` (a background job gives its slot back instead of sleeping in it). Default: waited.
   */
  maxRetryAfterMs?: number | undefined;
  /** This call's time per attempt, instead of the connector's (the gateway's own timeout). */
  timeoutMs?: number | undefined;
  /** This call's further attempts after a transient failure, instead of the connector's. */
  retries?: number | undefined;
}

/** A request passed through to the agent as the caller wrote it (the gateway): the body and extra headers. */
export interface ForwardRequest {
  body: Record<string, unknown>;
  headers?: Record<string, string> | undefined;
}

export interface ForwardOk {
  ok: true;
  /** The agent's JSON answer, its key (should it echo it) replaced by "[redacted]". */
  payload: unknown;
  /**
   * The answer's text as the agent sent it, when it holds no spelling of the key (then `payload`
   * is this text parsed): a caller passing the answer on unchanged sends these bytes instead of
   * serialising `payload` again. Absent when anything was redacted.
   */
  raw?: string;
  latencyMs: number;
  attempts: number;
}

export type ForwardResult = ForwardOk | AgentCallError;

export interface OpenedStream {
  ok: true;
  /** The answer is server-sent events (otherwise it is one JSON answer, given whole as one item). */
  eventStream: boolean;
  /**
   * The `data` of each event as it arrives (the key redacted), or the whole body when it is not an
   * event stream. Iterating throws a StreamFailure when the agent stops answering in time, the
   * connection breaks, or the answer passes the size bound.
   */
  events: AsyncIterable<string>;
  /** Until the answer's headers came. */
  latencyMs: number;
  attempts: number;
}

/** A streamed answer that ended in a failure (thrown while iterating `OpenedStream.events`). */
export class StreamFailure extends Error {
  constructor(readonly failure: AgentCallError) {
    super(failure.error);
    this.name = 'StreamFailure';
  }
}

export interface AgentConnector {
  /**
   * Sends a conversation whose last turn is the user's new message and answers the agent's
   * reply. chat_completions sends the whole history (after the system prompt); a2a sends the
   * last user turn with the contextId. Never throws for an agent's failure: that is a result.
   */
  send(target: AgentTarget, turns: readonly Turn[], options?: SendOptions): Promise<AgentCallResult>;
  /**
   * Passes a request through to the agent (the gateway): the body as given, to
   * `{url}/chat/completions` or to the A2A endpoint, fenced, rate-limited and retried as `send`.
   */
  forward(target: AgentTarget, request: ForwardRequest, options?: SendOptions): Promise<ForwardResult>;
  /** As `forward`, for an answer read as it arrives (server-sent events). Not retried. */
  stream(target: AgentTarget, request: ForwardRequest, options?: SendOptions): Promise<OpenedStream | AgentCallError>;
}

/**
 * A per-key ceiling of calls per minute: in process (rate-limiter.ts) or shared by every process
 * through Redis (redis-rate-limiter.ts).
 */
export interface CallRateLimiter {
  /** Resolves when a call under `key` may start without passing `perMinute`; rejects when `signal` aborts. */
  acquire(key: string, perMinute: number, signal?: AbortSignal): Promise<void>;
  /**
   * Takes a place at once if the window has one (the gateway answers 429 instead of waiting):
   * `{ ok: true }`, or how long until a place frees. Rejects when a shared store cannot be reached.
   */
  tryAcquire(key: string, perMinute: number): Promise<RateDecision>;
}

export type RateDecision = { ok: true } | { ok: false; retryAfterMs: number };
