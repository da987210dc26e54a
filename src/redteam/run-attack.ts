/**
 * Runs one planned attack against the agent and keeps its conversation turn by turn: one
 * message for the one-message strategies, up to N variations for best-of-n, a multi-turn
 * conversation for crescendo (./crescendo.ts). The agent is reached through `exchange` (the
 * connector, with the agent's applied guard in front when there is one: ./guard.ts).
 */
import { isRefusal } from '../verdict/refusal.js';
import type { ToolCall, Turn } from '../connector/types.js';
import { MAX_CRESCENDO_TURNS, nextRung, RUNGS, scriptedMessage } from './crescendo.js';
import { deliver, variation } from './strategies.js';
import type { AttackOutcome, ConversationTurn, Goal, PlannedAttack, Verdict } from './types.js';

/** One message answered, as the attack sees it. */
export type ExchangeResult =
  | {
      ok: true;
      /** What came back: the agent's answer (through the output guard), or the input guard's blocked message. */
      response: string;
      contextId?: string | undefined;
      /** The tool calls the answer carried (structured, from the connector). */
      toolCalls?: ToolCall[] | undefined;
      blockedBy?: string[] | undefined;
      guardedBy?: string[] | undefined;
      unguardedResponse?: string | undefined;
    }
  | { ok: false; error: string; status?: number | undefined; retryAfterMs?: number | undefined };

/** Writes the next message of a crescendo below the request (a language model); null: use the script. */
export type CrescendoSteer = (input: {
  topic: string;
  payload: string;
  rung: number;
  refused: boolean;
  history: readonly ConversationTurn[];
  signal: AbortSignal;
}) => Promise<string | null>;

export interface AttackRunner {
  /** Sends the conversation (its last turn is the new user message). */
  exchange(turns: readonly Turn[], options: { signal: AbortSignal; contextId?: string | undefined }): Promise<ExchangeResult>;
  /** Judges the answer to `prompt` (the message that carried the request), with the tool calls it carried. */
  judge(goal: Goal, answer: string, context: { prompt: string; signal: AbortSignal; toolCalls?: readonly ToolCall[] | undefined }): Promise<Verdict>;
  steer?: CrescendoSteer | undefined;
  /** best-of-n: variations sent at most. */
  bestOfN: number;
  /** crescendo: turns at most (≤ 5). */
  crescendoTurns: number;
}

const blockedVerdict = (methods: readonly string[]): Verdict => ({
  succeeded: false,
  score: 0,
  detector: 'dome-input-guard',
  reason: `Blocked by the agent's input guard (${methods.join(', ') || 'guard'}) before it reached the agent.`,
});

function turnOf(turn: number, prompt: string, result: ExchangeResult, attempt?: number): ConversationTurn {
  if (!result.ok) return { turn, ...(attempt ? { attempt } : {}), prompt, response: '', refused: false, error: result.error };
  return {
    turn,
    ...(attempt ? { attempt } : {}),
    prompt,
    response: result.response,
    refused: result.blockedBy !== undefined || isRefusal(result.response).refused,
    ...(result.blockedBy ? { blockedBy: result.blockedBy } : {}),
    ...(result.guardedBy ? { guardedBy: result.guardedBy, unguardedResponse: result.unguardedResponse } : {}),
  };
}

async function judged(runner: AttackRunner, goal: Goal, prompt: string, result: Extract<ExchangeResult, { ok: true }>, signal: AbortSignal): Promise<Verdict> {
  if (result.blockedBy) return blockedVerdict(result.blockedBy);
  return runner.judge(goal, result.response, { prompt, signal, ...(result.toolCalls?.length ? { toolCalls: result.toolCalls } : {}) });
}

const errorOutcome = (attack: PlannedAttack, conversation: ConversationTurn[], prompt: string, error: string): AttackOutcome => ({
  attack,
  conversation,
  prompt,
  response: '',
  verdict: null,
  error,
});

async function single(attack: PlannedAttack, runner: AttackRunner, signal: AbortSignal): Promise<AttackOutcome> {
  const prompt = deliver(attack.strategy, attack.case.payload, attack.seed);
  const result = await runner.exchange([{ role: 'user', content: prompt }], { signal });
  const turn = turnOf(1, prompt, result);
  if (!result.ok) return errorOutcome(attack, [turn], prompt, result.error);
  const verdict = await judged(runner, attack.case.goal, prompt, result, signal);
  return { attack, conversation: [{ ...turn, judged: true }], prompt, response: result.response, verdict, error: null };
}

/** Up to N seeded variations, each a conversation of its own, until one works. */
async function bestOfN(attack: PlannedAttack, runner: AttackRunner, signal: AbortSignal): Promise<AttackOutcome> {
  const conversation: ConversationTurn[] = [];
  let last: AttackOutcome | null = null;
  let lastError = '';
  for (let k = 0; k < Math.max(1, runner.bestOfN); k += 1) {
    const prompt = variation(attack.case.payload, attack.seed, k);
    const result = await runner.exchange([{ role: 'user', content: prompt }], { signal });
    if (!result.ok) {
      conversation.push(turnOf(1, prompt, result, k + 1));
      lastError = result.error;
      continue;
    }
    const verdict = await judged(runner, attack.case.goal, prompt, result, signal);
    conversation.push({ ...turnOf(1, prompt, result, k + 1), judged: true });
    last = { attack, conversation, prompt, response: result.response, verdict, error: null };
    if (verdict.succeeded) break;
  }
  return last ?? errorOutcome(attack, conversation, conversation.at(-1)?.prompt ?? '', lastError);
}

/** A conversation that climbs towards the request and backs off when refused (./crescendo.ts). */
async function crescendo(attack: PlannedAttack, runner: AttackRunner, signal: AbortSignal): Promise<AttackOutcome> {
  const { payload, topic, goal } = attack.case;
  const maxTurns = Math.min(MAX_CRESCENDO_TURNS, Math.max(RUNGS, runner.crescendoTurns));
  const conversation: ConversationTurn[] = [];
  const history: Turn[] = [];
  let contextId: string | undefined;
  let rung = 0;
  let backOffs = 0;
  let lastRefused = false;
  let outcome: AttackOutcome | null = null;
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    const isRequest = rung === RUNGS - 1;
    let message = scriptedMessage(rung, backOffs, topic, payload, attack.seed);
    if (!isRequest && runner.steer) message = (await runner.steer({ topic, payload, rung, refused: lastRefused, history: conversation, signal })) ?? message;
    const result = await runner.exchange([...history, { role: 'user', content: message }], { signal, contextId });
    const record = turnOf(turn, message, result);
    if (!result.ok) {
      conversation.push(record);
      return outcome ? { ...outcome, conversation } : errorOutcome(attack, conversation, message, result.error);
    }
    contextId = result.contextId ?? contextId;
    history.push({ role: 'user', content: message }, { role: 'assistant', content: result.response });
    let setBack = record.refused;
    if (isRequest) {
      const verdict = await judged(runner, goal, message, result, signal);
      conversation.push({ ...record, judged: true });
      outcome = { attack, conversation, prompt: message, response: result.response, verdict, error: null };
      if (verdict.succeeded || result.blockedBy) break;
      // The request answered without giving in counts as a refusal: the next turn pushes again, softer.
      setBack = true;
    } else {
      conversation.push(record);
    }
    lastRefused = setBack;
    const next = nextRung(rung, setBack, maxTurns - turn);
    backOffs = setBack ? (next === rung ? backOffs + 1 : 1) : 0;
    rung = next;
  }
  return outcome ?? errorOutcome(attack, conversation, conversation.at(-1)?.prompt ?? '', 'the conversation ended before the request was asked');
}

export async function runAttack(attack: PlannedAttack, runner: AttackRunner, signal: AbortSignal): Promise<AttackOutcome> {
  if (attack.strategy === 'best-of-n') return bestOfN(attack, runner, signal);
  if (attack.strategy === 'crescendo') return crescendo(attack, runner, signal);
  return single(attack, runner, signal);
}
