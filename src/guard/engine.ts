/**
 * The guard engine: a Dome configuration compiled once into a scanner that the Dome API, the
 * gateway, the evaluations and the red team share (docs/guardrails.md). A scan runs the
 * direction's guards in order (or together with `run-parallel`), each guard's methods in
 * sequence (or together), stops early where `early-exit` says, applies the `on-error` policy,
 * chains the sanitizing methods, and answers Dome's scan result plus what Warden adds.
 */
import { CATALOGUE, type Catalogue, type CatalogueMethod } from './catalogue.js';
import { type Direction, type GatewaySpec, type GuardSpec, type MethodSpec, type ParsedDomeConfig, parseDomeConfig } from './config.js';
import { errorResult } from './detectors/llm-judge.js';
import { type DetectionResult, type DetectorContext, GuardConfigError } from './types.js';

export { MASKED_SECRET, maskConfigSecrets, toConsoleShape, toDomeShape } from './shapes.js';

export interface CompileOptions {
  llmAvailable: boolean;
}

export interface ScanResult {
  /** Something was detected: a method hit (sanitizing ones included), or failed under `fail_closed`. */
  flagged: boolean;
  /** The result blocks: a method that does not sanitize hit, or failed under `fail_closed`. */
  enforced: boolean;
  /** The blocked message when enforced; otherwise the text, sanitized by the methods that redact. */
  response_string: string;
  /** Per guard that ran: `{type, triggered, flagged, exec_time, methods: {name: {hit, score, label, exec_time, details}}}`. */
  trace: Record<string, unknown>;
  /** Milliseconds. */
  exec_time: number;
  /** The highest score of the methods that ran (0..1). */
  detection_score: number;
  /** Method ids (aliases resolved) that hit, in the order they ran. */
  triggered_methods: string[];
  /** Method ids (aliases resolved) that could not run. */
  errored_methods: string[];
}

export interface CompiledDomeConfig {
  /** The configuration as stored/answered: the input's shape kept (hyphen or underscore keys), defaults not injected. */
  source: Record<string, unknown>;
  inputGuards: string[];
  outputGuards: string[];
  /** Every method id used (after alias resolution), for the catalogue listing and policy loading. */
  methods: string[];
  usesPolicyRules: boolean;
  /** How Warden's gateway applies it (mode, streamed output checks): docs/gateway.md. */
  gateway: GatewaySpec;
  /** The message a blocked input or output is answered with. */
  blockedMessages: { input: string; output: string };
  scan(direction: 'input' | 'output', text: string, context: DetectorContext): Promise<ScanResult>;
}

/**
 * The longest text the default configuration reads, in characters; a longer one is refused, never
 * passed unread. Within it, both injection methods read every character (encoding-heuristics
 * measures up to ENCODING_SCAN_CHARS, which is larger).
 */
export const DEFAULT_MAX_CHARS = 64_000;

/**
 * Warden's default: on the way in, a text longer than DEFAULT_MAX_CHARS refused, prompt
 * injections, jailbreaks and requests with a harmful goal flagged (ordinary requests pass); on the way out, an answer longer
 * than DEFAULT_MAX_CHARS refused, credentials censored and payment, bank and national identity
 * numbers redacted, without blocking the answer.
 */
export const DEFAULT_DOME_CONFIG: Record<string, unknown> = deepFreeze({
  'input-guards': ['input-length', 'prompt-injection', 'harmful-request'],
  'output-guards': ['output-length', 'output-privacy'],
  'input-length': {
    type: 'integrity',
    methods: ['max-length'],
    'max-length': { max_chars: DEFAULT_MAX_CHARS },
  },
  'prompt-injection': {
    type: 'security',
    methods: ['prompt-injection-warden', 'encoding-heuristics'],
  },
  'harmful-request': {
    type: 'moderation',
    methods: ['prompt-harmfulness-warden'],
  },
  'output-length': {
    type: 'integrity',
    methods: ['max-length'],
    'max-length': { max_chars: DEFAULT_MAX_CHARS },
  },
  'output-privacy': {
    type: 'privacy',
    methods: ['detect-secrets', 'privacy-presidio'],
    'privacy-presidio': {
      entities: ['CREDIT_CARD', 'IBAN_CODE', 'US_BANK_NUMBER', 'US_SSN', 'US_ITIN', 'US_PASSPORT', 'UK_NINO', 'UK_NHS'],
    },
  },
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;
const isPromise = (value: unknown): value is Promise<DetectionResult> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** One method on one text; a thrown error becomes the `error` label (never rejects). */
async function runMethod(method: CatalogueMethod, params: unknown, text: string, context: DetectorContext): Promise<{ result: DetectionResult; ms: number }> {
  const started = performance.now();
  let result: DetectionResult;
  try {
    const answer = method.definition.detect(text, params, context);
    result = isPromise(answer) ? await answer : answer;
  } catch (error) {
    result = errorResult(error instanceof Error ? error.message.slice(0, 300) : 'the method failed');
  }
  return { result, ms: performance.now() - started };
}

interface MethodOutcome {
  spec: MethodSpec;
  result: DetectionResult;
  ms: number;
  blocking: boolean;
}

interface GuardOutcome {
  guard: GuardSpec;
  methods: MethodOutcome[];
  blocking: boolean;
  ms: number;
}

/**
 * Runs `tasks` together; with `earlyExit`, resolves as soon as one result `stops` (the others'
 * results are left out and their signal aborted). Results keep the tasks' order.
 */
function together<T>(tasks: Array<(signal: AbortSignal) => Promise<T>>, stops: (result: T) => boolean, earlyExit: boolean, parent?: AbortSignal): Promise<T[]> {
  return new Promise((resolve) => {
    const results: Array<T | undefined> = new Array(tasks.length);
    const controller = new AbortController();
    const signal = parent ? AbortSignal.any([parent, controller.signal]) : controller.signal;
    let pending = tasks.length;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      controller.abort();
      resolve(results.filter((r): r is T => r !== undefined));
    };
    if (pending === 0) finish();
    tasks.forEach((task, index) => {
      // Each task starts on its own turn, so a synchronous method after an early stop never runs.
      void Promise.resolve()
        .then(() => (done ? undefined : task(signal)))
        .then((result) => {
          if (done || result === undefined) return;
          results[index] = result;
          pending--;
          if ((earlyExit && stops(result)) || pending === 0) finish();
        });
    });
  });
}

function isBlocking(guard: GuardSpec, result: DetectionResult): boolean {
  if (result.label === 'error') return guard.onError === 'fail_closed';
  return result.hit && result.sanitized === undefined;
}

async function runGuard(guard: GuardSpec, text: string, context: DetectorContext): Promise<GuardOutcome> {
  const started = performance.now();
  const one = async (spec: MethodSpec, ctx: DetectorContext): Promise<MethodOutcome> => {
    const { result, ms } = await runMethod(spec.method, spec.params, text, ctx);
    return { spec, result, ms, blocking: isBlocking(guard, result) };
  };
  let methods: MethodOutcome[];
  if (guard.parallel) {
    const tasks = guard.methods.map((spec) => (signal: AbortSignal) => one(spec, { ...context, signal }));
    methods = await together(tasks, (outcome) => outcome.blocking, guard.earlyExit, context.signal);
  } else {
    methods = [];
    for (const spec of guard.methods) {
      const outcome = await one(spec, context);
      methods.push(outcome);
      if (outcome.blocking && guard.earlyExit) break;
    }
  }
  return { guard, methods, blocking: methods.some((m) => m.blocking), ms: performance.now() - started };
}

/** The sanitizing methods' redactions, one after the other, each on the text the previous one left. */
async function sanitize(text: string, guards: GuardOutcome[], context: DetectorContext): Promise<string> {
  let current = text;
  for (const outcome of guards) {
    for (const m of outcome.methods) {
      if (!m.result.hit || m.result.sanitized === undefined || m.result.label === 'error') continue;
      if (current === text) {
        current = m.result.sanitized;
        continue;
      }
      const again = await runMethod(m.spec.method, m.spec.params, current, context);
      if (again.result.sanitized !== undefined) current = again.result.sanitized;
    }
  }
  return current;
}

function traceOf(guards: GuardOutcome[]): Record<string, unknown> {
  const trace: Record<string, unknown> = {};
  for (const outcome of guards) {
    const methods: Record<string, unknown> = {};
    for (const m of outcome.methods) {
      methods[m.spec.name] = {
        ...(m.spec.name !== m.spec.id ? { method: m.spec.id } : {}),
        hit: m.result.hit,
        score: m.result.score,
        label: m.result.label,
        exec_time: round(m.ms),
        details: m.result.details,
      };
    }
    trace[outcome.guard.name] = {
      type: outcome.guard.type,
      triggered: outcome.blocking,
      flagged: outcome.methods.some((m) => m.result.hit || m.blocking),
      exec_time: round(outcome.ms),
      methods,
    };
  }
  return trace;
}

async function scanWith(parsed: ParsedDomeConfig, direction: Direction, text: string, context: DetectorContext): Promise<ScanResult> {
  const started = performance.now();
  const guardrail = parsed[direction];
  let guards: GuardOutcome[];
  if (guardrail.parallel) {
    const tasks = guardrail.guards.map((guard) => (signal: AbortSignal) => runGuard(guard, text, { ...context, signal }));
    guards = await together(tasks, (outcome) => outcome.blocking, guardrail.earlyExit, context.signal);
  } else {
    guards = [];
    for (const guard of guardrail.guards) {
      const outcome = await runGuard(guard, text, context);
      guards.push(outcome);
      if (outcome.blocking && guardrail.earlyExit) break;
    }
  }
  const all = guards.flatMap((g) => g.methods);
  const enforced = guards.some((g) => g.blocking);
  const unique = (ids: string[]) => [...new Set(ids)];
  return {
    flagged: all.some((m) => m.result.hit || m.blocking),
    enforced,
    response_string: enforced ? guardrail.blockedMessage : await sanitize(text, guards, context),
    trace: traceOf(guards),
    exec_time: round(performance.now() - started),
    detection_score: all.reduce((max, m) => Math.max(max, Number.isFinite(m.result.score) ? m.result.score : 0), 0),
    triggered_methods: unique(all.filter((m) => m.result.hit).map((m) => m.spec.id)),
    errored_methods: unique(all.filter((m) => m.result.label === 'error').map((m) => m.spec.id)),
  };
}

export function compileDomeConfig(raw: unknown, options: CompileOptions): CompiledDomeConfig {
  return compileDomeConfigWith(raw, options, CATALOGUE);
}

/** `compileDomeConfig` against another catalogue (a deployment's own methods; fakes in tests). */
export function compileDomeConfigWith(raw: unknown, options: CompileOptions, catalogue: Catalogue): CompiledDomeConfig {
  const parsed = parseDomeConfig(raw, options, catalogue);
  const methods = [...new Set([...parsed.input.guards, ...parsed.output.guards].flatMap((g) => g.methods.map((m) => m.id)))];
  return {
    source: structuredClone(raw) as Record<string, unknown>,
    inputGuards: parsed.input.guards.map((g) => g.name),
    outputGuards: parsed.output.guards.map((g) => g.name),
    methods,
    usesPolicyRules: methods.includes('policy-sections'),
    gateway: parsed.gateway,
    blockedMessages: { input: parsed.input.blockedMessage, output: parsed.output.blockedMessage },
    scan: (direction, text, context) => scanWith(parsed, direction, text, context),
  };
}

/**
 * One method on one text, outside any configuration (the evaluations, the red team): `params`
 * validated as in a configuration. An unknown method, a bad parameter, or a method that needs a
 * model when `context.llm` is absent is a GuardConfigError; a method that fails while running
 * answers the `error` label.
 */
export async function runDetection(methodId: string, text: string, params: Record<string, unknown>, context: DetectorContext): Promise<DetectionResult> {
  const method = CATALOGUE.get(methodId);
  if (!method) throw new GuardConfigError(['method'], `unknown method '${methodId}'`, 'value_error');
  const parsed = method.parseParams(params);
  if (method.needsLlm && !context.llm) {
    const message = `method '${methodId}' needs a language model: configure WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL (WARDEN_LLM_*)`;
    throw new GuardConfigError(['method'], message, 'value_error');
  }
  return (await runMethod(method, parsed, text, context)).result;
}
