/**
 * The two shapes of a Dome configuration, converted into each other (for the Console's
 * `DomeGuardConfig` of `GET /v1/agents/{id}/constraints`, and for a Dome instance that reads
 * Dome's dictionary). The input must be valid (compileDomeConfig accepted it); guard sections are
 * carried as written, defaults are not injected.
 */
import { type ConfigLayout, type Direction, GATEWAY_OPTIONS, IDENTITY_KEYS, isObject, layoutOf } from './config.js';

const clone = <T>(value: T): T => structuredClone(value);

/** The guards a list names, with their sections (inline ones included), for the shape converters. */
function collect(layout: ConfigLayout) {
  const lists: Record<Direction, string[]> = { input: [], output: [] };
  const sections = new Map<string, unknown>();
  for (const direction of ['input', 'output'] as const) {
    const list = layout.option(direction, 'guards');
    for (const item of Array.isArray(list?.value) ? (list.value as unknown[]) : []) {
      if (typeof item === 'string') {
        lists[direction].push(item);
        if (!sections.has(item)) sections.set(item, clone(layout.sections.get(item)?.value));
      } else if (isObject(item)) {
        const name = Object.keys(item)[0] ?? '';
        lists[direction].push(name);
        if (!sections.has(name)) sections.set(name, clone(item[name]));
      }
    }
  }
  for (const [name, section] of layout.sections) if (!sections.has(name)) sections.set(name, clone(section.value));
  return { lists, sections };
}

const OPTION_NAMES = ['early-exit', 'run-parallel', 'blocked-message'] as const;

/**
 * A valid configuration in the Console's `DomeGuardConfig` shape (`input_guards`, `output_guards`,
 * `guards`), the options it sets carried over with underscore keys; guard sections as written.
 */
export function toConsoleShape(raw: unknown): Record<string, unknown> {
  const layout = layoutOf(raw);
  if (layout.shape === 'console') return { input_guards: [], output_guards: [], guards: {}, ...clone(layout.root) };
  const { lists, sections } = collect(layout);
  const out: Record<string, unknown> = { input_guards: lists.input, output_guards: lists.output, guards: Object.fromEntries(sections) };
  for (const direction of ['input', 'output'] as const) {
    for (const name of OPTION_NAMES) {
      const option = layout.option(direction, name);
      if (option) out[`${direction}_${name.replace(/-/g, '_')}`] = clone(option.value);
    }
  }
  const onError = layout.onError();
  if (onError) out.on_error = onError.value;
  for (const name of GATEWAY_OPTIONS) {
    const option = layout.gatewayOption(name);
    if (option) out[name.replace(/-/g, '_')] = clone(option.value);
  }
  for (const key of IDENTITY_KEYS) {
    const value = layout.table?.[key] ?? layout.root[key];
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** A valid configuration in Vijil Dome's dictionary shape (hyphen keys, guard sections at the top level). */
export function toDomeShape(raw: unknown): Record<string, unknown> {
  const layout = layoutOf(raw);
  const { lists, sections } = collect(layout);
  const out: Record<string, unknown> = { 'input-guards': lists.input, 'output-guards': lists.output };
  for (const direction of ['input', 'output'] as const) {
    for (const name of OPTION_NAMES) {
      const option = layout.option(direction, name);
      if (option) out[`${direction}-${name}`] = clone(option.value);
    }
  }
  const onError = layout.onError();
  if (onError) out['on-error'] = onError.value;
  for (const name of GATEWAY_OPTIONS) {
    const option = layout.gatewayOption(name);
    if (option) out[name] = clone(option.value);
  }
  for (const key of IDENTITY_KEYS) {
    const value = layout.table?.[key] ?? layout.root[key];
    if (value !== undefined) out[key] = value;
  }
  for (const [name, section] of sections) out[name] = section;
  return out;
}

/** Method parameters of Dome that carry credentials (accepted and unused by Warden; see docs/guardrails.md). */
const SECRET_PARAMS = new Set(['api_key', 'aws_access_key_id', 'aws_secret_access_key', 'aws_session_token']);
export const MASKED_SECRET = '********';

/**
 * A copy of a configuration with the values of Dome's credential parameters masked, for answers
 * and logs: a Dome configuration may carry an `api_key` for its own model calls, which Warden
 * never uses and never shows back.
 */
export function maskConfigSecrets<T>(value: T): T {
  if (Array.isArray(value)) return value.map((item) => maskConfigSecrets(item)) as T;
  if (!isObject(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    out[key] = SECRET_PARAMS.has(key) && typeof inner === 'string' && inner !== '' ? MASKED_SECRET : maskConfigSecrets(inner);
  }
  return out as T;
}
