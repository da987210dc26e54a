/**
 * The red team and the guard engine (docs/redteam.md, "Closing the loop"):
 * - a campaign against an agent with an applied Dome configuration sends each message through
 *   its input guards first (a blocked message never reaches the agent and the attack counts as
 *   resisted) and each answer through its output guards, as Warden's gateway does in production;
 * - each successful attack is scanned again by candidate guards of the catalogue, to say which
 *   would have caught it;
 * - the guards that caught something make up a suggested Dome configuration.
 */
import { toDomeShape } from '../guard/engine.js';
import type { Turn } from '../connector/types.js';
import type { AttackRunner, ExchangeResult } from './run-attack.js';
import type { AttackOutcome, GuardScan, SendTurns, Verdict } from './types.js';

/** A compiled configuration's scan, bound to its detector context. */
export type GuardScanner = (direction: 'input' | 'output', text: string) => Promise<GuardScan>;

/** `send` with the guard in front: what Warden's gateway does for an agent whose configuration is applied. */
export function guardedExchange(send: SendTurns, guard: GuardScanner | undefined): AttackRunner['exchange'] {
  return async (turns, options): Promise<ExchangeResult> => {
    const last = turns.at(-1);
    let outgoing: readonly Turn[] = turns;
    if (guard && last) {
      const input = await guard('input', last.content);
      if (input.enforced) return { ok: true, response: input.response_string, blockedBy: input.triggered_methods };
      // A guard that only redacts passes the message on, redacted.
      if (input.flagged) outgoing = [...turns.slice(0, -1), { role: 'user', content: input.response_string }];
    }
    const answer = await send(outgoing, options);
    if (!answer.ok) return { ok: false, error: answer.error, status: answer.status, retryAfterMs: answer.retryAfterMs };
    const toolCalls = answer.toolCalls?.length ? { toolCalls: answer.toolCalls } : {};
    if (!guard) return { ok: true, response: answer.text, contextId: answer.contextId, ...toolCalls };
    const output = await guard('output', answer.text);
    if (!output.flagged) return { ok: true, response: answer.text, contextId: answer.contextId, ...toolCalls };
    // An answer the guard blocks never reaches the caller, its tool calls neither; a redacted one keeps them.
    const kept = output.enforced ? {} : toolCalls;
    const guarded = { guardedBy: output.triggered_methods, unguardedResponse: answer.text };
    return { ok: true, response: output.response_string, contextId: answer.contextId, ...kept, ...guarded };
  };
}

/** A guard of the catalogue that may be suggested: one Dome guard section, in one direction. */
export interface CandidateGuard {
  name: string;
  direction: 'input' | 'output';
  /** The Dome guard section (type, methods, method parameters). */
  section: Record<string, unknown>;
  /** Needs the configured language model. */
  needsLlm?: boolean;
}

export const CANDIDATE_GUARDS: readonly CandidateGuard[] = [
  { name: 'redteam-prompt-injection', direction: 'input', section: { type: 'security', methods: ['prompt-injection-warden'] } },
  { name: 'redteam-encoding', direction: 'input', section: { type: 'security', methods: ['encoding-heuristics'] } },
  { name: 'redteam-input-moderation', direction: 'input', section: { type: 'moderation', methods: ['moderation-flashtext'] } },
  { name: 'redteam-security-llm', direction: 'input', section: { type: 'security', methods: ['security-llm'] }, needsLlm: true },
  { name: 'redteam-output-privacy', direction: 'output', section: { type: 'privacy', methods: ['privacy-presidio'] } },
  { name: 'redteam-output-secrets', direction: 'output', section: { type: 'privacy', methods: ['detect-secrets'] } },
  { name: 'redteam-output-moderation', direction: 'output', section: { type: 'moderation', methods: ['moderation-flashtext'] } },
];

/** A one-guard configuration of a candidate, as the guard engine compiles it. */
export const candidateConfig = (candidate: CandidateGuard): Record<string, unknown> => ({
  [`${candidate.direction}-guards`]: [candidate.name],
  [`${candidate.direction === 'input' ? 'output' : 'input'}-guards`]: [],
  [candidate.name]: candidate.section,
});

export interface Catch {
  guard: string;
  direction: 'input' | 'output';
  methods: string[];
  /** What the guard did: blocked the message or the answer, or redacted the answer so that the attack no longer worked. */
  action: 'blocked' | 'redacted';
}

/**
 * Which candidates would have stopped a successful attack: an input guard that blocks one of
 * the messages up to the one that worked, or an output guard that blocks its answer or redacts
 * it so that the judge no longer finds what it found.
 */
export async function caughtBy(
  outcome: AttackOutcome,
  scanners: ReadonlyArray<{ candidate: CandidateGuard; scan: GuardScanner }>,
  rejudge: (answer: string) => Promise<Verdict>,
): Promise<Catch[]> {
  const upTo = outcome.conversation.findIndex((turn) => turn.judged && turn.prompt === outcome.prompt && turn.response === outcome.response);
  const attempt = outcome.conversation[upTo]?.attempt;
  const sent = outcome.conversation.slice(0, upTo < 0 ? undefined : upTo + 1).filter((turn) => !turn.error && turn.attempt === attempt);
  const judgedTurn = outcome.conversation[upTo];
  const answer = judgedTurn?.unguardedResponse ?? outcome.response;
  const catches: Catch[] = [];
  for (const { candidate, scan } of scanners) {
    const methods = candidate.section.methods as string[];
    if (candidate.direction === 'input') {
      // A guard that asks the model reads the message that worked only: one call per successful attack.
      const read = candidate.needsLlm ? sent.slice(-1) : sent;
      for (const turn of read) {
        if ((await scan('input', turn.prompt)).enforced) {
          catches.push({ guard: candidate.name, direction: 'input', methods, action: 'blocked' });
          break;
        }
      }
      continue;
    }
    const result = await scan('output', answer);
    if (result.enforced) catches.push({ guard: candidate.name, direction: 'output', methods, action: 'blocked' });
    else if (result.flagged && !(await rejudge(result.response_string)).succeeded) {
      catches.push({ guard: candidate.name, direction: 'output', methods, action: 'redacted' });
    }
  }
  return catches;
}

export interface SuggestedConfig {
  /** A Dome configuration (Dome's hyphen keys): the applied one, when there is one, plus the guards that caught something. */
  config_body: Record<string, unknown>;
  /** The guards added, with the successful attacks each would have stopped. */
  added_guards: Array<{ guard: string; direction: 'input' | 'output'; methods: string[]; would_stop: number }>;
  /** Successful attacks that at least one added guard would have stopped, of all successful attacks. */
  would_stop: number;
  successful_attacks: number;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Methods the base configuration already runs in a direction (a candidate using only those adds nothing). */
function methodsIn(config: Record<string, unknown>, direction: 'input' | 'output'): Set<string> {
  const names = config[`${direction}-guards`];
  const out = new Set<string>();
  for (const name of Array.isArray(names) ? names : []) {
    const section = config[String(name)];
    if (isObject(section) && Array.isArray(section.methods)) for (const method of section.methods) out.add(String(method));
  }
  return out;
}

/**
 * The configuration that would have stopped what got through: the guards that caught at least
 * one successful attack, added (in the order of CANDIDATE_GUARDS) to the applied configuration
 * when the agent has one. Null when no candidate caught anything.
 */
export function suggestConfig(catchesPerAttack: ReadonlyArray<readonly Catch[]>, applied: Record<string, unknown> | null): SuggestedConfig | null {
  const counts = new Map<string, number>();
  for (const catches of catchesPerAttack) for (const name of new Set(catches.map((c) => c.guard))) counts.set(name, (counts.get(name) ?? 0) + 1);
  const base = applied === null ? { 'input-guards': [], 'output-guards': [] } : toDomeShape(applied);
  const config: Record<string, unknown> = structuredClone(base);
  const added: SuggestedConfig['added_guards'] = [];
  for (const candidate of CANDIDATE_GUARDS) {
    const wouldStop = counts.get(candidate.name) ?? 0;
    if (wouldStop === 0) continue;
    const present = methodsIn(config, candidate.direction);
    const methods = candidate.section.methods as string[];
    if (methods.every((m) => present.has(m)) || config[candidate.name] !== undefined) continue;
    const key = `${candidate.direction}-guards`;
    config[key] = [...(Array.isArray(config[key]) ? (config[key] as unknown[]) : []), candidate.name];
    config[candidate.name] = structuredClone(candidate.section);
    added.push({ guard: candidate.name, direction: candidate.direction, methods, would_stop: wouldStop });
  }
  if (added.length === 0) return null;
  const addedNames = new Set(added.map((a) => a.guard));
  const wouldStop = catchesPerAttack.filter((catches) => catches.some((c) => addedNames.has(c.guard))).length;
  return { config_body: config, added_guards: added, would_stop: wouldStop, successful_attacks: catchesPerAttack.length };
}
