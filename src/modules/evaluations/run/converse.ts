import type { AgentCallError, AgentConnector, AgentTarget, Turn } from '../../../connector/types.js';

export type ConversationResult = { ok: true; text: string; latencyMs: number } | AgentCallError;

/**
 * Sends a prompt's user turns one after the other, each with the conversation so far (the A2A
 * context carried along), and answers the last reply: what the prompt is scored on. Latency
 * adds up the turns. An error on any turn ends the conversation with that error.
 */
export async function converse(
  connector: AgentConnector,
  target: AgentTarget,
  turns: readonly string[],
  signal: AbortSignal,
  /** A longer Retry-After is not waited (the failure says how long): the job gives its slot back. */
  maxRetryAfterMs?: number,
): Promise<ConversationResult> {
  const history: Turn[] = [];
  let contextId: string | undefined;
  let latencyMs = 0;
  let text = '';
  for (const content of turns) {
    history.push({ role: 'user', content });
    const answer = await connector.send(target, history, { signal, contextId, maxRetryAfterMs });
    if (!answer.ok) return { ...answer, latencyMs: latencyMs + answer.latencyMs };
    latencyMs += answer.latencyMs;
    text = answer.text;
    contextId = answer.contextId;
    history.push({ role: 'assistant', content: text });
  }
  return { ok: true, text, latencyMs };
}
