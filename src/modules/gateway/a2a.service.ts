import type { Principal } from '../auth/permissions.js';
import {
  A2A_METHODS,
  agentMessage,
  answerText,
  blockedRpcError,
  dialectOfMethod,
  eventText,
  gatewayCard,
  requestText,
  withRequestText,
} from './gateway.a2a.js';
import { sseFrame } from './gateway.chat.js';
import { ended } from './chat-completions.service.js';
import { GatewayError, jsonRpcError } from './gateway.errors.js';
import type { GatewayAnswer, GatewayCore } from './gateway.service.js';
import { guardedFrames } from './gateway.stream.js';
import { authorize, canSeeTeam, requireAnywhere } from '../auth/permissions.js';
import { notFound } from '../../http/errors.js';

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `POST /v1/gateway/{agent_id}/a2a` (docs/gateway.md, "A2A"): JSON-RPC pass-through of
 * `message/send`, `message/stream` and `tasks/get` (and 1.0's `SendMessage`,
 * `SendStreamingMessage`, `GetTask`), the text parts through the guards; a blocked message or
 * answer is a JSON-RPC error. `GET …/.well-known/agent-card.json`: the agent's card, pointing at
 * the gateway.
 */
export function createA2aGateway(core: GatewayCore) {
  const rpc = (body: unknown, headers: Record<string, string> = {}): GatewayAnswer => ({ kind: 'json', status: 200, body, headers });
  const blockedHeader = (guard: string) => ({ 'x-warden-guard': `blocked; guard=${guard}` });

  async function call(principal: Principal, agentId: string, body: unknown, a2aVersion: string | undefined): Promise<GatewayAnswer> {
    if (!isRecord(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') {
      return rpc({ jsonrpc: '2.0', id: null, error: { code: -32600, message: 'Invalid Request: a JSON-RPC 2.0 object with a method is expected' } });
    }
    const { id, method } = body;
    const kind = A2A_METHODS[method];
    if (kind === undefined) {
      const known = Object.keys(A2A_METHODS).join(', ');
      return rpc({ jsonrpc: '2.0', id: id ?? null, error: { code: -32601, message: `Method not found: Warden's gateway passes ${known}` } });
    }
    const opened = await core.open(principal, agentId, (agent) => `invoke_agent ${agent.agent_name}`);
    const { agent, target, guard, recorder } = opened;
    recorder.set('gen_ai.operation.name', 'invoke_agent');
    recorder.set('rpc.method', method);
    if (agent.protocol !== 'a2a') {
      recorder.end(400, 'wrong protocol');
      const where = 'This agent speaks chat completions: call /v1/gateway/{agent_id}/chat/completions';
      throw new GatewayError(400, 'invalid_request_error', 'wrong_protocol', where);
    }
    const dialect = dialectOfMethod(method);
    const headers: Record<string, string> = a2aVersion !== undefined ? { 'a2a-version': a2aVersion } : dialect === '1.0' ? { 'a2a-version': '1.0' } : {};
    let upstreamBody: Record<string, unknown> = body;

    if (kind !== 'get') {
      const input = await core.check(guard, 'input', requestText(body.params), recorder);
      if (input.blockedBy !== null) {
        recorder.end(200);
        const error = blockedRpcError(id, input.text, input.blockedBy, 'input');
        if (kind === 'send') return rpc(error, blockedHeader(input.blockedBy));
        return { kind: 'events', headers: blockedHeader(input.blockedBy), frames: one(sseFrame(JSON.stringify(error))), firstByte: () => undefined };
      }
      if (input.changed) upstreamBody = withRequestText(body, input.text);
    }
    const sendOptions = { timeoutMs: core.timeoutMs, retries: 0 };

    if (kind !== 'stream') {
      const answer = await core.forwardOrFail(recorder, () => opened.connector.forward(target, { body: upstreamBody, headers }, sendOptions));
      const output = await core.check(guard, 'output', answerText(answer.payload), recorder);
      recorder.end(200);
      if (output.blockedBy !== null) return rpc(blockedRpcError(id, output.text, output.blockedBy, 'output'), blockedHeader(output.blockedBy));
      if (output.changed && isRecord(answer.payload)) {
        const result = answer.payload.result;
        const contextId = isRecord(result) && typeof result.contextId === 'string' ? result.contextId : undefined;
        return rpc({ ...answer.payload, result: agentMessage(dialect, output.text, contextId) });
      }
      return rpc(answer.payload);
    }

    const stream = await core.forwardOrFail(recorder, () => opened.connector.stream(target, { body: upstreamBody, headers }, sendOptions));
    const spec = guard?.config.gateway;
    let blockedBy: string | null = null;
    const frames = guardedFrames(stream.events, {
      mode: spec?.streamOutput ?? 'hold',
      checkChars: spec?.streamCheckChars ?? 400,
      textOf: eventText,
      check: guard !== null && guard.config.outputGuards.length > 0 ? core.outputCheck(guard, recorder) : null,
      frame: sseFrame,
      isEnd: () => false,
      replacement: (text, blocked) => {
        const answer = blocked ? blockedRpcError(id, text, blockedBy ?? 'guard', 'output') : { jsonrpc: '2.0', id, result: agentMessage(dialect, text) };
        return [sseFrame(JSON.stringify(answer))];
      },
      errorFrame: (message, code) => {
        const blocked = code === 'output_blocked';
        const upstream = () => jsonRpcError(new GatewayError(502, 'api_error', code, message), id);
        const error = blocked ? blockedRpcError(id, message, blockedBy ?? 'guard', 'output') : upstream();
        return sseFrame(JSON.stringify(error));
      },
      blockedMessage: guard?.config.blockedMessages.output ?? '',
      onBlocked: (name) => (blockedBy = name),
      onUpstreamFailure: (failure) => core.describeFailure(failure),
    });
    return { kind: 'events', headers: {}, frames: ended(frames, () => recorder.end(200)), firstByte: () => core.firstByte(recorder) };
  }

  /** The agent's card with every endpoint at the gateway. */
  async function card(principal: Principal, agentId: string, endpoint: string) {
    requireAnywhere(principal, 'gateway:invoke');
    const found = await core.findAgent(agentId);
    if (found === undefined || !canSeeTeam(principal, found.agent.team_id)) throw notFound('Agent');
    authorize(principal, 'gateway:invoke', found.agent.team_id, 'Agent');
    return gatewayCard(found.agent, endpoint);
  }

  return { call, card };
}

async function* one(frame: string): AsyncIterable<string> {
  yield frame;
}
