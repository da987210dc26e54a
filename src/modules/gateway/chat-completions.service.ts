import type { Principal } from '../auth/permissions.js';
import { blockedChunks, blockedCompletion, answerText, chunkText, contentText, lastUserIndex, sseFrame, withAnswerText } from './gateway.chat.js';
import { GatewayError, openAiError } from './gateway.errors.js';
import type { GatewayAnswer, GatewayCore } from './gateway.service.js';
import { guardedFrames } from './gateway.stream.js';
import type { CallRecorder } from './gateway.telemetry.js';

/**
 * `POST /v1/gateway/{agent_id}/chat/completions` (docs/gateway.md): the caller's body passed to
 * the agent with the agent's `model_name` and key, the last user message through the input
 * guards first, the answer through the output guards after; `stream: true` answered as
 * server-sent events.
 */
export function createChatCompletionsGateway(core: GatewayCore) {
  const blockedHeader = (guard: string) => ({ 'x-warden-guard': `blocked; guard=${guard}` });

  return async function chatCompletions(principal: Principal, agentId: string, body: Record<string, unknown>): Promise<GatewayAnswer> {
    const call = await core.open(principal, agentId, (agent) => `chat ${agent.model_name || 'unknown'}`);
    const { agent, target, guard, recorder } = call;
    if (agent.protocol !== 'chat_completions') {
      recorder.end(400, 'wrong protocol');
      throw new GatewayError(400, 'invalid_request_error', 'wrong_protocol', 'This agent speaks A2A: call /v1/gateway/{agent_id}/a2a');
    }
    const messages = Array.isArray(body.messages) ? [...(body.messages as unknown[])] : [];
    const model = agent.model_name || (typeof body.model === 'string' ? body.model : 'unknown');
    const stream = body.stream === true;
    recorder.set('gen_ai.operation.name', 'chat');
    recorder.set('gen_ai.request.model', model);
    recorder.set('gen_ai.request.stream', stream);

    const last = lastUserIndex(messages);
    if (last >= 0) {
      const message = messages[last] as Record<string, unknown>;
      const input = await core.check(guard, 'input', contentText(message.content), recorder);
      if (input.blockedBy !== null) {
        recorder.end(200);
        const headers = blockedHeader(input.blockedBy);
        if (!stream) return { kind: 'json', status: 200, body: blockedCompletion(model, input.text, core.now()), headers };
        const frames = [...blockedChunks(model, input.text, core.now()), '[DONE]'].map(sseFrame);
        return { kind: 'events', headers, frames: listOf(frames), firstByte: () => undefined };
      }
      if (input.changed) messages[last] = { ...message, content: input.text };
    }

    const upstreamBody: Record<string, unknown> = { ...body, messages, stream };
    if (agent.model_name) upstreamBody.model = agent.model_name;
    const sendOptions = { timeoutMs: core.timeoutMs, retries: 0 };

    if (!stream) {
      const answer = await core.forwardOrFail(recorder, () => call.connector.forward(target, { body: upstreamBody }, sendOptions));
      const text = answerText(answer.payload);
      const output = await core.check(guard, 'output', text, recorder);
      setUsage(recorder, answer.payload);
      if (output.blockedBy !== null) {
        recorder.end(200);
        return { kind: 'json', status: 200, body: blockedCompletion(model, output.text, core.now()), headers: blockedHeader(output.blockedBy) };
      }
      recorder.end(200);
      if (output.changed) return { kind: 'json', status: 200, body: withAnswerText(answer.payload, output.text), headers: {} };
      // Unchanged: the agent's bytes, checked for its key, are passed on as they came.
      return { kind: 'json', status: 200, body: answer.payload, text: answer.raw, headers: {} };
    }

    const opened = await core.forwardOrFail(recorder, () => call.connector.stream(target, { body: upstreamBody }, sendOptions));
    const spec = guard?.config.gateway;
    let blockedBy: string | null = null;
    const frames = guardedFrames(opened.events, {
      mode: spec?.streamOutput ?? 'hold',
      checkChars: spec?.streamCheckChars ?? 400,
      textOf: opened.eventStream ? chunkText : (data) => answerText(safeJson(data)),
      check: guard !== null && guard.config.outputGuards.length > 0 ? core.outputCheck(guard, recorder) : null,
      frame: sseFrame,
      isEnd: (data) => data.trim() === '[DONE]',
      replacement: (text, blocked) => blockedChunks(model, text, core.now(), blocked ? 'content_filter' : 'stop').map(sseFrame),
      errorFrame: (message, code) => {
        const type = code === 'output_blocked' ? 'content_filter' : 'api_error';
        return sseFrame(JSON.stringify(openAiError(new GatewayError(200, type, code, message))));
      },
      blockedMessage: guard?.config.blockedMessages.output ?? '',
      onBlocked: (name) => (blockedBy = name),
      onUpstreamFailure: (failure) => core.describeFailure(failure),
    });
    return {
      kind: 'events',
      headers: {},
      frames: ended(frames, () => recorder.end(200, blockedBy === null ? undefined : `blocked by ${blockedBy}`)),
      firstByte: () => core.firstByte(recorder),
    };
  };
}

function setUsage(recorder: CallRecorder, payload: unknown) {
  const usage = (payload as { usage?: { prompt_tokens?: unknown; completion_tokens?: unknown } } | null)?.usage;
  if (typeof usage?.prompt_tokens === 'number') recorder.set('gen_ai.usage.input_tokens', usage.prompt_tokens);
  if (typeof usage?.completion_tokens === 'number') recorder.set('gen_ai.usage.output_tokens', usage.completion_tokens);
  const model = (payload as { model?: unknown } | null)?.model;
  if (typeof model === 'string') recorder.set('gen_ai.response.model', model);
}

function safeJson(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return null;
  }
}

async function* listOf(items: string[]): AsyncIterable<string> {
  yield* items;
}

/** The frames, then `onEnd` once (whether the stream ran out, failed or the caller left). */
export async function* ended(frames: AsyncIterable<string>, onEnd: () => void): AsyncIterable<string> {
  try {
    yield* frames;
  } finally {
    onEnd();
  }
}
