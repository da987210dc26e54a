/**
 * Reading a Dome configuration (docs/guardrails.md, "Configuration"). Three spellings load:
 * Vijil Dome's dictionary (`input-guards`, guard sections at the top level, list items either a
 * section's name or an inline `{name: section}`), the same as parsed from Dome's TOML (its
 * `[guardrail]` table holding the top-level options), and the Console's `DomeGuardConfig`
 * (`input_guards`, `output_guards`, `guards: {name: section}`). Everything is validated once; the
 * first problem is a GuardConfigError whose path names the key as the input spells it.
 */
import { CATALOGUE, type Catalogue, type CatalogueMethod } from './catalogue.js';
import { GUARD_TYPES, GuardConfigError, type GuardType } from './types.js';

export type OnError = 'fail_open' | 'fail_closed';
export type Direction = 'input' | 'output';
export type ConfigShape = 'dome' | 'console';
type Path = Array<string | number>;

export interface MethodSpec {
  /** As the configuration names it (a method id or a Dome alias). */
  name: string;
  /** The method that runs. */
  id: string;
  method: CatalogueMethod;
  params: unknown;
}

export interface GuardSpec {
  name: string;
  type: GuardType;
  earlyExit: boolean;
  parallel: boolean;
  onError: OnError;
  methods: MethodSpec[];
}

export interface GuardrailSpec {
  guards: GuardSpec[];
  earlyExit: boolean;
  parallel: boolean;
  blockedMessage: string;
}

/**
 * How Warden's gateway applies the configuration (a Warden addition, docs/gateway.md): `enforce`
 * blocks what the guards block, `monitor` records it and lets it through. On a streamed answer the
 * output guards either `hold` it until the whole answer passes, or stream it at once
 * (`incremental`), checking every `streamCheckChars` characters and ending with an error frame when
 * a check fails.
 */
export interface GatewaySpec {
  mode: 'enforce' | 'monitor';
  streamOutput: 'hold' | 'incremental';
  streamCheckChars: number;
}

export const DEFAULT_GATEWAY_SPEC: GatewaySpec = Object.freeze({ mode: 'enforce', streamOutput: 'hold', streamCheckChars: 400 });

export interface ParsedDomeConfig {
  shape: ConfigShape;
  input: GuardrailSpec;
  output: GuardrailSpec;
  gateway: GatewaySpec;
}

export const DEFAULT_BLOCKED_MESSAGES: Record<Direction, string> = {
  input: "I'm sorry, but I can't help with that request.",
  output: "I'm sorry, but I can't share that response.",
};

const LIMITS = { guards: 32, methods: 32, name: 100, message: 2000, id: 200 };
const OPTIONS = ['guards', 'early-exit', 'run-parallel', 'blocked-message'] as const;
type OptionName = (typeof OPTIONS)[number];
const DOME_TOP = new Set([
  'input-guards',
  'output-guards',
  'input-early-exit',
  'output-early-exit',
  'input-run-parallel',
  'output-run-parallel',
  'input-blocked-message',
  'output-blocked-message',
  'on-error',
  'gateway-mode',
  'gateway-stream-output',
  'gateway-stream-check-chars',
]);
/** The gateway's options (GatewaySpec), by their Dome spelling; the Console's is the same with underscores. */
export const GATEWAY_OPTIONS = ['gateway-mode', 'gateway-stream-output', 'gateway-stream-check-chars'] as const;
export type GatewayOptionName = (typeof GATEWAY_OPTIONS)[number];
const CONSOLE_TOP = new Set([
  'input_guards',
  'output_guards',
  'guards',
  'input_early_exit',
  'output_early_exit',
  'input_run_parallel',
  'output_run_parallel',
  'input_blocked_message',
  'output_blocked_message',
  'on_error',
  'gateway_mode',
  'gateway_stream_output',
  'gateway_stream_check_chars',
]);
/** Who the configuration is for, as Dome's TOML carries it; kept, not used. */
export const IDENTITY_KEYS = new Set(['agent_id', 'team_id', 'user_id']);
const GUARD_KEYS: Record<string, string> = {
  type: 'type',
  methods: 'methods',
  'early-exit': 'early-exit',
  early_exit: 'early-exit',
  'run-parallel': 'run-parallel',
  run_parallel: 'run-parallel',
  'on-error': 'on-error',
  on_error: 'on-error',
};

const fail = (path: Path, message: string, type = 'value_error'): never => {
  throw new GuardConfigError(path, message, type);
};
export const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const objectAt = (value: unknown, path: Path): Record<string, unknown> =>
  isObject(value) ? value : fail(path, 'Input should be a valid dictionary', 'dict_type');
const booleanAt = (value: unknown, path: Path): boolean => (typeof value === 'boolean' ? value : fail(path, 'Input should be a valid boolean', 'bool_type'));
function stringAt(value: unknown, path: Path, max: number): string {
  if (typeof value !== 'string') return fail(path, 'Input should be a valid string', 'string_type');
  if (value.length > max) return fail(path, `String should have at most ${max} characters`, 'string_too_long');
  return value;
}
function onErrorAt(value: unknown, path: Path): OnError {
  if (value === 'fail_open' || value === 'fail_closed') return value;
  return fail(path, "Input should be 'fail_open' or 'fail_closed'", 'enum');
}

/** Where each top-level option lives, per shape. */
export interface ConfigLayout {
  shape: ConfigShape;
  root: Record<string, unknown>;
  /** Dome's TOML table, when the options are inside it. */
  table: Record<string, unknown> | undefined;
  option(direction: Direction, name: OptionName): { value: unknown; path: Path } | undefined;
  onError(): { value: unknown; path: Path } | undefined;
  gatewayOption(name: GatewayOptionName): { value: unknown; path: Path } | undefined;
  /** Guard sections defined by name (top-level sections, or the Console's `guards` map). */
  sections: Map<string, { value: unknown; path: Path }>;
}

export function layoutOf(raw: unknown): ConfigLayout {
  const root = objectAt(raw, []);
  const keys = Object.keys(root);
  const consoleKey = keys.find((k) => CONSOLE_TOP.has(k));
  const domeKey = keys.find((k) => DOME_TOP.has(k) || k === 'guardrail');
  if (consoleKey !== undefined && domeKey !== undefined) {
    fail([domeKey], `mixes the Console's underscore keys ('${consoleKey}') with Dome's hyphen keys ('${domeKey}'): use one shape`, 'extra_forbidden');
  }
  const sections = new Map<string, { value: unknown; path: Path }>();
  if (consoleKey !== undefined) {
    for (const key of keys) {
      if (!CONSOLE_TOP.has(key) && !IDENTITY_KEYS.has(key)) {
        fail([key], `unknown key '${key}': a configuration in this shape takes ${[...CONSOLE_TOP, ...IDENTITY_KEYS].join(', ')}`, 'extra_forbidden');
      }
    }
    if (root.guards !== undefined) {
      for (const [name, value] of Object.entries(objectAt(root.guards, ['guards']))) {
        // A name Dome's shape reserves could not be converted to it (toDomeShape).
        if (DOME_TOP.has(name) || CONSOLE_TOP.has(name) || IDENTITY_KEYS.has(name) || name === 'guardrail') {
          fail(['guards', name], `'${name}' is reserved: name the guard otherwise`);
        }
        sections.set(name, { value, path: ['guards', name] });
      }
    }
    const at = (key: string) => (root[key] === undefined ? undefined : { value: root[key], path: [key] });
    return {
      shape: 'console',
      root,
      table: undefined,
      option: (direction, name) => at(`${direction}_${name.replace(/-/g, '_')}`),
      onError: () => at('on_error'),
      gatewayOption: (name) => at(name.replace(/-/g, '_')),
      sections,
    };
  }
  const table = root.guardrail === undefined ? undefined : objectAt(root.guardrail, ['guardrail']);
  if (table) {
    for (const key of Object.keys(table)) {
      if (!DOME_TOP.has(key) && !IDENTITY_KEYS.has(key)) fail(['guardrail', key], `unknown key '${key}' in [guardrail]`, 'extra_forbidden');
      if (root[key] !== undefined) fail([key], `'${key}' is set both at the top level and in [guardrail]`, 'value_error');
    }
  }
  for (const key of keys) {
    if (DOME_TOP.has(key) || IDENTITY_KEYS.has(key) || key === 'guardrail') continue;
    if (!isObject(root[key])) {
      fail([key], `unknown key '${key}': a top-level entry is an option (${[...DOME_TOP].join(', ')}) or a guard section`, 'extra_forbidden');
    }
    sections.set(key, { value: root[key], path: [key] });
  }
  const at = (key: string) => {
    if (table && table[key] !== undefined) return { value: table[key], path: ['guardrail', key] };
    return root[key] === undefined ? undefined : { value: root[key], path: [key] };
  };
  return {
    shape: 'dome',
    root,
    table,
    option: (direction, name) => at(`${direction}-${name}`),
    onError: () => at('on-error'),
    gatewayOption: (name) => at(name),
    sections,
  };
}

function parseMethods(value: unknown, path: Path, type: GuardType, llmAvailable: boolean, catalogue: Catalogue): CatalogueMethod[] {
  if (!Array.isArray(value)) return fail(path, 'Input should be a valid list', 'list_type');
  if (value.length === 0) return fail(path, 'List should have at least 1 item', 'too_short');
  if (value.length > LIMITS.methods) return fail(path, `List should have at most ${LIMITS.methods} items`, 'too_long');
  const seen = new Set<string>();
  return value.map((entry, index) => {
    const at = [...path, index];
    const name = stringAt(entry, at, LIMITS.id);
    if (seen.has(name)) fail(at, `method '${name}' is listed twice`);
    seen.add(name);
    const method = catalogue.get(name);
    if (!method) return fail(at, `unknown method '${name}'; a ${type} guard takes: ${catalogue.idsOfType(type).join(', ')}`);
    if (method.type !== type) {
      const takes = catalogue.idsOfType(type).join(', ');
      return fail(at, `method '${name}' belongs to ${method.type} guards, not to this ${type} guard (a ${type} guard takes: ${takes})`);
    }
    if (method.needsLlm && !llmAvailable) {
      return fail(at, `method '${name}' needs a language model: configure WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL (WARDEN_LLM_*) to use it`);
    }
    return method;
  });
}

function parseGuard(name: string, value: unknown, path: Path, inherited: OnError, llmAvailable: boolean, catalogue: Catalogue): GuardSpec {
  const section = objectAt(value, path);
  const canonical = new Map<string, string>();
  for (const key of Object.keys(section)) {
    const meaning = GUARD_KEYS[key];
    if (meaning === undefined) continue;
    const other = canonical.get(meaning);
    if (other !== undefined) fail([...path, key], `'${key}' and '${other}' say the same thing: keep one`);
    canonical.set(meaning, key);
  }
  const get = (meaning: string) => {
    const key = canonical.get(meaning);
    return key === undefined ? undefined : { value: section[key], path: [...path, key] };
  };
  const type = get('type') ?? fail([...path, 'type'], 'Field required', 'missing');
  if (typeof type.value !== 'string' || !(GUARD_TYPES as readonly string[]).includes(type.value)) {
    fail(type.path, `Input should be ${GUARD_TYPES.map((t) => `'${t}'`).join(', ')}`, 'enum');
  }
  const guardType = type.value as GuardType;
  const methodsEntry = get('methods') ?? fail([...path, 'methods'], 'Field required', 'missing');
  const methods = parseMethods(methodsEntry.value, methodsEntry.path, guardType, llmAvailable, catalogue);
  const names = new Set((methodsEntry.value as string[]).map(String));
  for (const key of Object.keys(section)) {
    if (GUARD_KEYS[key] !== undefined || names.has(key)) continue;
    // Dome ignores a parameter table of a method the guard does not list; so does Warden.
    if (catalogue.get(key)) continue;
    const takes = 'type, methods, early-exit, run-parallel, on-error and a table per listed method';
    fail([...path, key], `unknown key '${key}' in guard '${name}': a guard takes ${takes}`, 'extra_forbidden');
  }
  const earlyExit = get('early-exit');
  const parallel = get('run-parallel');
  const onError = get('on-error');
  return {
    name,
    type: guardType,
    earlyExit: earlyExit ? booleanAt(earlyExit.value, earlyExit.path) : true,
    parallel: parallel ? booleanAt(parallel.value, parallel.path) : false,
    onError: onError ? onErrorAt(onError.value, onError.path) : inherited,
    methods: methods.map((method, index) => {
      const methodName = (methodsEntry.value as string[])[index] ?? method.id;
      const tablePath = [...path, methodName];
      const table = section[methodName] === undefined ? {} : objectAt(section[methodName], tablePath);
      try {
        return { name: methodName, id: method.aliasOf ?? method.id, method, params: method.parseParams(table) };
      } catch (error) {
        if (error instanceof GuardConfigError) throw new GuardConfigError([...tablePath, ...error.path], error.message, error.type);
        throw error;
      }
    }),
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function parseDomeConfig(raw: unknown, options: { llmAvailable: boolean }, catalogue: Catalogue = CATALOGUE): ParsedDomeConfig {
  const layout = layoutOf(raw);
  for (const key of IDENTITY_KEYS) {
    const value = layout.table?.[key] ?? layout.root[key];
    const path = layout.table?.[key] !== undefined ? ['guardrail', key] : [key];
    if (value !== undefined && value !== null) stringAt(value, path, LIMITS.id);
  }
  const onErrorEntry = layout.onError();
  const defaultOnError = onErrorEntry ? onErrorAt(onErrorEntry.value, onErrorEntry.path) : 'fail_open';

  const parsed = new Map<string, GuardSpec>();
  const inline = new Map<string, { value: unknown; path: Path }>();
  const guardNamed = (name: string, value: unknown, path: Path) => {
    const done = parsed.get(name);
    if (done) return done;
    const guard = parseGuard(name, value, path, defaultOnError, options.llmAvailable, catalogue);
    parsed.set(name, guard);
    return guard;
  };

  const guardrail = (direction: Direction): GuardrailSpec => {
    const list = layout.option(direction, 'guards');
    const guards: GuardSpec[] = [];
    if (list !== undefined) {
      if (!Array.isArray(list.value)) fail(list.path, 'Input should be a valid list', 'list_type');
      const items = list.value as unknown[];
      if (items.length > LIMITS.guards) fail(list.path, `List should have at most ${LIMITS.guards} items`, 'too_long');
      const seen = new Set<string>();
      items.forEach((item, index) => {
        const at = [...list.path, index];
        let guard: GuardSpec;
        if (typeof item === 'string') {
          stringAt(item, at, LIMITS.name);
          const section = layout.sections.get(item);
          if (!section) fail(at, `guard '${item}' is not defined: add a section named '${item}'${layout.shape === 'console' ? " under 'guards'" : ''}`);
          guard = guardNamed(item, section?.value, section?.path ?? at);
        } else if (isObject(item)) {
          const names = Object.keys(item);
          if (names.length !== 1) fail(at, 'an inline guard is an object with exactly one key, the guard name');
          const name = names[0] ?? '';
          stringAt(name, at, LIMITS.name);
          if (layout.sections.has(name)) fail([...at, name], `guard '${name}' is defined both inline and as a section`);
          const earlier = inline.get(name);
          if (earlier && !sameJson(earlier.value, item[name])) fail([...at, name], `guard '${name}' is defined inline twice, differently`);
          if (!earlier) inline.set(name, { value: item[name], path: [...at, name] });
          guard = guardNamed(name, item[name], [...at, name]);
        } else {
          return fail(at, 'a guard is its name (a string) or an inline {name: section} object', 'value_error');
        }
        if (seen.has(guard.name)) fail(at, `guard '${guard.name}' is listed twice`);
        seen.add(guard.name);
        guards.push(guard);
      });
    }
    const earlyExit = layout.option(direction, 'early-exit');
    const parallel = layout.option(direction, 'run-parallel');
    const message = layout.option(direction, 'blocked-message');
    return {
      guards,
      earlyExit: earlyExit ? booleanAt(earlyExit.value, earlyExit.path) : true,
      parallel: parallel ? booleanAt(parallel.value, parallel.path) : false,
      blockedMessage: message && message.value !== null ? stringAt(message.value, message.path, LIMITS.message) : DEFAULT_BLOCKED_MESSAGES[direction],
    };
  };

  const input = guardrail('input');
  const output = guardrail('output');
  // Sections no list names are validated too: a mistake in one should not wait until it is used.
  for (const [name, section] of layout.sections) {
    if (name.length > LIMITS.name) fail(section.path, `a guard name has at most ${LIMITS.name} characters`, 'string_too_long');
    guardNamed(name, section.value, section.path);
  }
  return { shape: layout.shape, input, output, gateway: gatewaySpec(layout) };
}

function gatewaySpec(layout: ConfigLayout): GatewaySpec {
  const mode = layout.gatewayOption('gateway-mode');
  const stream = layout.gatewayOption('gateway-stream-output');
  const chars = layout.gatewayOption('gateway-stream-check-chars');
  const oneOf = <T extends string>(entry: { value: unknown; path: Path }, values: readonly T[]): T =>
    values.includes(entry.value as T) ? (entry.value as T) : fail(entry.path, `Input should be ${values.map((v) => `'${v}'`).join(' or ')}`, 'enum');
  let checkChars = DEFAULT_GATEWAY_SPEC.streamCheckChars;
  if (chars !== undefined) {
    if (!Number.isSafeInteger(chars.value)) fail(chars.path, 'Input should be a valid integer', 'int_type');
    checkChars = chars.value as number;
    if (checkChars < 1) fail(chars.path, 'Input should be greater than or equal to 1', 'greater_than_equal');
    if (checkChars > 100_000) fail(chars.path, 'Input should be less than or equal to 100000', 'less_than_equal');
  }
  return {
    mode: mode === undefined ? DEFAULT_GATEWAY_SPEC.mode : oneOf(mode, ['enforce', 'monitor'] as const),
    streamOutput: stream === undefined ? DEFAULT_GATEWAY_SPEC.streamOutput : oneOf(stream, ['hold', 'incremental'] as const),
    streamCheckChars: checkChars,
  };
}
