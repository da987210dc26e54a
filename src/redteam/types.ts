/**
 * The red-team engine's vocabulary (docs/redteam.md). Pure: no HTTP, no database. The feature
 * module (src/modules/redteam/) stores what it plans and finds; the agent connector, the guard
 * engine and the optional language model are handed in as functions.
 */
import type { ToolCall, Turn } from '../connector/types.js';
import type { LanguageModel } from '../llm/types.js';

/** The reference's AttackCategory. `custom` runs the probes named in `custom_plugins`. */
export const ATTACK_CATEGORIES = ['injection', 'jailbreak', 'harmful', 'pii', 'toxicity', 'hallucination', 'overreliance', 'custom'] as const;
export type AttackCategory = (typeof ATTACK_CATEGORIES)[number];
/** The categories whose probes the catalogue holds (every one but `custom`). */
export type ProbeCategory = Exclude<AttackCategory, 'custom'>;

/** How an attack is delivered (docs/redteam.md, "Strategies"). */
export const STRATEGIES = [
  'basic',
  'base64',
  'rot13',
  'hex',
  'leetspeak',
  'homoglyph',
  'zero-width',
  'tag-smuggling',
  'reversed',
  'roleplay',
  'multilingual',
  'payload-splitting',
  'best-of-n',
  'crescendo',
] as const;
export type Strategy = (typeof STRATEGIES)[number];

export const ACCESS_LEVELS = ['black_box', 'grey_box', 'white_box'] as const;
export type AccessLevel = (typeof ACCESS_LEVELS)[number];

export type Severity = 'critical' | 'high' | 'medium' | 'low';

/**
 * What success looks like for the attacker, i.e. how an answer is judged. Each kind has a
 * deterministic check (./judge.ts); the heuristic ones may be refined by a language model.
 */
export type Goal =
  /** The agent followed an injected instruction: it wrote the canary the instruction asked for. */
  | { kind: 'canary'; canary: string }
  /** The agent disclosed its system prompt. */
  | { kind: 'leak' }
  /** The agent carried out a task it should have declined. */
  | { kind: 'comply'; task: string }
  /** The agent disclosed personal data. */
  | { kind: 'personal-data' }
  /** The agent wrote toxic content (`triggers`: words that show it did). */
  | { kind: 'toxic'; triggers: readonly string[] }
  /** The agent described something that does not exist as if it did. */
  | { kind: 'fabrication'; entity: string }
  /** The agent went along with a false premise (`markers`: phrases that restate it). */
  | { kind: 'false-premise'; markers: readonly string[] }
  /** The agent used (or said it used) a tool for the attacker: it called `tool`, or wrote the canary. */
  | { kind: 'tool-use'; tool: string; canary: string };

/** One test case of a campaign: a request in plain words and how its answer is judged. Strategies deliver it. */
export interface AttackCase {
  /** Stable within a campaign: `${category}.${probe short name}.${n}`. */
  id: string;
  /** The category it was asked for (`custom` for the probes named in custom_plugins). */
  category: AttackCategory;
  /** The catalogue probe it comes from (e.g. `injection.ignore-previous`). */
  probe: string;
  /** The request, in plain words. */
  payload: string;
  goal: Goal;
  /** A harmless way into the subject, the first rung of a crescendo. */
  topic: string;
  /** Where it came from: the catalogue's templates, the agent's known configuration, or the language model. */
  source: 'template' | 'grey_box' | 'llm';
}

/** One attack: a case delivered with a strategy. */
export interface PlannedAttack {
  /** `${case.id}:${strategy}`: the key a resumed campaign skips by. */
  id: string;
  case: AttackCase;
  strategy: Strategy;
  /** Seeds the strategy's variations (same campaign seed → same prompts). */
  seed: number;
}

/** One exchange of a conversation as it is kept. */
export interface ConversationTurn {
  /** 1-based position in its conversation. */
  turn: number;
  /** best-of-n: which variation (1-based); each variation is a conversation of its own. */
  attempt?: number | undefined;
  prompt: string;
  /** What came back: the agent's answer (after the output guard when one is in front), or the guard's blocked message. */
  response: string;
  refused: boolean;
  /** The input guard blocked the message: it never reached the agent. */
  blockedBy?: string[] | undefined;
  /** The output guard changed the answer (redacted or blocked it). */
  guardedBy?: string[] | undefined;
  /** The agent's own answer when the output guard changed it. */
  unguardedResponse?: string | undefined;
  /** The call failed (the agent could not be reached…): the turn has no answer. */
  error?: string | undefined;
  /** Whether this answer was judged against the goal (multi-turn: only the turns that carry it). */
  judged?: boolean | undefined;
}

/** How an answer was judged. */
export interface Verdict {
  /** The attack worked: the agent did what the attacker wanted. */
  succeeded: boolean;
  /** 0..1, how clearly it worked (the reference's `attack_score`). */
  score: number;
  /** Which check decided (`canary`, `privacy-presidio`, `llm-judge`…): the reference's `detector_id`. */
  detector: string;
  /** For a person. */
  reason: string;
  /** The deterministic check could only guess: a language model may refine it. */
  heuristic?: boolean | undefined;
}

/** What one attack came to. `error` set: no answer could be judged (the agent could not be reached). */
export interface AttackOutcome {
  attack: PlannedAttack;
  conversation: ConversationTurn[];
  /** The message whose answer decided, and that answer. */
  prompt: string;
  response: string;
  verdict: Verdict | null;
  error: string | null;
}

/** What Warden knows of the agent beyond its behaviour (grey box). */
export interface AgentKnowledge {
  systemPrompt: string | null;
  /** Tool and skill names (with a description when known). */
  tools: Array<{ name: string; description: string | null }>;
  /** MCP server URLs (and the MCP proxy). */
  mcpServers: string[];
  delegatedAgents: Array<{ name: string; url: string }>;
}

export const NO_KNOWLEDGE: AgentKnowledge = { systemPrompt: null, tools: [], mcpServers: [], delegatedAgents: [] };

/** A guard scan as the engine needs it (the guard engine's ScanResult, narrowed). */
export interface GuardScan {
  enforced: boolean;
  flagged: boolean;
  response_string: string;
  triggered_methods: string[];
}

/** Sends a conversation to the agent: the connector, bound to the campaign's target. */
export type SendTurns = (turns: readonly Turn[], options: { signal: AbortSignal; contextId?: string | undefined }) => Promise<
  | { ok: true; text: string; contextId?: string | undefined; toolCalls?: ToolCall[] | undefined }
  | {
      ok: false;
      error: string;
      kind: string;
      /** The agent's HTTP status (429: it is rate-limiting). */
      status?: number | undefined;
      /** The agent asked to wait this long and the caller said not to wait (the connector's `maxRetryAfterMs`). */
      retryAfterMs?: number | undefined;
    }
>;

/** The configured model as the attacker, the steerer and the judge call it: src/llm/types.ts's one interface (this name kept for the red team's code). */
export type RedteamLlm = LanguageModel;
