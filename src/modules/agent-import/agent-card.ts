/**
 * Maps an A2A AgentCard onto the fields of a Warden agent. Pure: no I/O, so it is unit
 * tested beside this file. Understands the three shapes in the wild:
 *  - 0.2.x: `url`, no `protocolVersion`;
 *  - 0.3.x: `protocolVersion`, `url` + `preferredTransport` (+ `additionalInterfaces`);
 *  - 1.0:   `supportedInterfaces: [{url, protocolBinding, protocolVersion, tenant}]`: the
 *           JSONRPC one, else the first.
 */

export interface CardProblem {
  /** Where in the card, e.g. ['skills', 2, 'id']. */
  path: Array<string | number>;
  msg: string;
}

export interface MappedSkill {
  id: string;
  name: string;
  description: string | null;
  input_modes: string[];
  output_modes: string[];
}

export interface MappedCard {
  agent_name: string;
  agent_url: string;
  purpose: string | null;
  agent_metadata: { role: null; job_description: string | null; version: string | null; author: string | null; tags: string[] | null };
  capabilities: { streaming: boolean; push_notifications: boolean; code_execution: boolean; memory: boolean; delegation: boolean; tools: string[] };
  skills: MappedSkill[];
  /** The A2A protocol version the card follows ("0.2", "0.3.0", "1.0", …). */
  protocol_version: string;
  /** e.g. "a2a-agent-card/0.3.0": what import_metadata.original_format records. */
  original_format: string;
  /** The chosen 1.0 interface's `tenant` (kept in import_metadata.tenant), or null. */
  tenant: string | null;
}

export type CardResult = { ok: true; card: MappedCard; warnings: string[] } | { ok: false; problems: CardProblem[]; warnings: string[] };

/** The bounds of the Agent fields the card feeds (agents.schemas.ts). */
const MAX = { name: 255, text: 10_000, url: 2083, short: 255, list: 100 } as const;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const describe = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

class Reader {
  readonly problems: CardProblem[] = [];
  readonly warnings: string[] = [];

  problem(path: Array<string | number>, msg: string) {
    this.problems.push({ path, msg });
  }

  /** A string field: required ones must be non-empty; every one within `max` characters. */
  text(obj: Record<string, unknown>, key: string, path: Array<string | number>, max: number, required: boolean): string | null {
    const value = obj[key];
    const at = [...path, key];
    if (value === undefined || value === null) {
      if (required) this.problem(at, `"${key}" is required`);
      return null;
    }
    if (typeof value !== 'string') {
      this.problem(at, `"${key}" must be a string, not ${describe(value)}`);
      return null;
    }
    if (required && value.trim() === '') {
      this.problem(at, `"${key}" must not be empty`);
      return null;
    }
    if (value.length > max) {
      this.problem(at, `"${key}" is ${value.length} characters long; at most ${max} are accepted`);
      return null;
    }
    return value;
  }

  /** A list of strings (MIME types, tags); anything else is reported, not guessed. */
  strings(obj: Record<string, unknown>, key: string, path: Array<string | number>): string[] | null {
    const value = obj[key];
    if (value === undefined || value === null) return null;
    const at = [...path, key];
    if (!Array.isArray(value)) {
      this.problem(at, `"${key}" must be a list of strings, not ${describe(value)}`);
      return null;
    }
    if (value.length > MAX.list) {
      this.problem(at, `"${key}" has ${value.length} entries; at most ${MAX.list} are accepted`);
      return null;
    }
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item !== 'string' || item.length > MAX.short)
        this.problem([...at, i], `each entry of "${key}" must be a string of at most ${MAX.short} characters`);
      else out.push(item);
    });
    return out;
  }

  flag(obj: Record<string, unknown>, key: string, path: Array<string | number>): boolean {
    const value = obj[key];
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') {
      this.problem([...path, key], `"${key}" must be true or false, not ${describe(value)}`);
      return false;
    }
    return value;
  }
}

interface Endpoint {
  url: string | null;
  version: string;
  /** A2A 1.0 `AgentInterface.tenant` of the interface chosen, when it has one. */
  tenant: string | null;
}

/** `protocolBinding` (1.0), or `transport`, which drafts of 1.0 used in the same place (as 0.3's additionalInterfaces did). */
const bindingOf = (entry: Record<string, unknown>): unknown => entry.protocolBinding ?? entry.transport;
const isJsonRpc = (binding: unknown) => typeof binding === 'string' && binding.toUpperCase() === 'JSONRPC';

/**
 * 1.0: the interface Warden talks to is the first whose `protocolBinding` is JSONRPC (the
 * binding Warden speaks), else the first listed (the spec's order of preference), with a warning.
 */
function interfaceEndpoint(r: Reader, interfaces: unknown): Endpoint {
  if (!Array.isArray(interfaces) || interfaces.length === 0) {
    r.problem(['supportedInterfaces'], '"supportedInterfaces" must be a non-empty list of {url, protocolBinding}');
    return { url: null, version: '1.0', tenant: null };
  }
  const jsonRpc = interfaces.findIndex((entry: unknown) => isObject(entry) && isJsonRpc(bindingOf(entry)));
  const index = jsonRpc === -1 ? 0 : jsonRpc;
  const chosen: unknown = interfaces[index];
  const path = ['supportedInterfaces', index];
  if (!isObject(chosen)) {
    r.problem(path, 'each interface must be an object with a "url"');
    return { url: null, version: '1.0', tenant: null };
  }
  const url = r.text(chosen, 'url', path, MAX.url, true);
  const tenant = r.text(chosen, 'tenant', path, MAX.short, false);
  const version = typeof chosen.protocolVersion === 'string' && chosen.protocolVersion !== '' ? chosen.protocolVersion : '1.0';
  if (url !== null && !isHttpUrl(url)) r.problem([...path, 'url'], `"${url}" is not an http(s) URL`);
  const binding = bindingOf(chosen);
  if (jsonRpc === -1 && typeof binding === 'string') {
    r.warnings.push(
      `The card has no JSONRPC interface; its first uses the ${binding} binding. Warden talks to A2A agents over JSON-RPC, so check that ${url ?? 'it'} answers JSON-RPC`,
    );
  }
  return { url, version, tenant: tenant === '' ? null : tenant };
}

function endpoint(r: Reader, card: Record<string, unknown>): Endpoint {
  if (card.supportedInterfaces !== undefined && card.supportedInterfaces !== null) return interfaceEndpoint(r, card.supportedInterfaces);
  const version = typeof card.protocolVersion === 'string' && card.protocolVersion !== '' ? card.protocolVersion : '0.2';
  if (card.url === undefined || card.url === null) {
    r.problem(['url'], 'The card names no endpoint: give "url" (A2A 0.2/0.3) or "supportedInterfaces" (A2A 1.0)');
    return { url: null, version, tenant: null };
  }
  const url = r.text(card, 'url', [], MAX.url, true);
  if (url !== null && !isHttpUrl(url)) r.problem(['url'], `"${url}" is not an http(s) URL`);
  if (typeof card.preferredTransport === 'string' && card.preferredTransport !== 'JSONRPC') {
    r.warnings.push(
      `The card prefers the ${card.preferredTransport} transport; Warden talks to A2A agents over JSON-RPC, so check that ${url ?? 'it'} answers JSON-RPC`,
    );
  }
  return { url, version, tenant: null };
}

function skillsOf(r: Reader, card: Record<string, unknown>, inputModes: string[], outputModes: string[]): { skills: MappedSkill[]; tags: string[] } {
  const raw = card.skills;
  if (raw === undefined || raw === null) {
    r.warnings.push('The card lists no skills: the agent is imported without any');
    return { skills: [], tags: [] };
  }
  if (!Array.isArray(raw)) {
    r.problem(['skills'], `"skills" must be a list, not ${describe(raw)}`);
    return { skills: [], tags: [] };
  }
  if (raw.length > MAX.list) r.problem(['skills'], `The card has ${raw.length} skills; at most ${MAX.list} are accepted`);
  const skills: MappedSkill[] = [];
  const tags = new Set<string>();
  const seen = new Map<string, number>();
  raw.slice(0, MAX.list).forEach((item: unknown, i) => {
    const path = ['skills', i];
    if (!isObject(item)) {
      r.problem(path, `each skill must be an object with "id" and "name", not ${describe(item)}`);
      return;
    }
    const id = r.text(item, 'id', path, MAX.short, true);
    const name = r.text(item, 'name', path, MAX.short, true);
    const description = r.text(item, 'description', path, MAX.text, false);
    const ins = r.strings(item, 'inputModes', path);
    const outs = r.strings(item, 'outputModes', path);
    for (const tag of r.strings(item, 'tags', path) ?? []) tags.add(tag);
    if (id === null || name === null) return;
    const first = seen.get(id);
    if (first !== undefined) {
      r.problem([...path, 'id'], `skill id "${id}" is already used by skills[${first}]; skill ids must be unique`);
      return;
    }
    seen.set(id, i);
    // An empty list says nothing either: the skill takes the card's defaults (as the A2A SDK's own cards declare it).
    skills.push({
      id,
      name,
      description,
      input_modes: ins !== null && ins.length > 0 ? ins : inputModes,
      output_modes: outs !== null && outs.length > 0 ? outs : outputModes,
    });
  });
  return { skills, tags: [...tags] };
}

export function mapAgentCard(input: unknown): CardResult {
  const r = new Reader();
  if (!isObject(input)) {
    return { ok: false, problems: [{ path: [], msg: `An agent card must be a JSON object, not ${describe(input)}` }], warnings: [] };
  }
  const name = r.text(input, 'name', [], MAX.name, true);
  const description = r.text(input, 'description', [], MAX.text, false);
  const version = r.text(input, 'version', [], MAX.short, false);
  const { url, version: protocolVersion, tenant } = endpoint(r, input);

  let author: string | null = null;
  if (isObject(input.provider)) author = r.text(input.provider, 'organization', ['provider'], MAX.short, false);
  else if (input.provider !== undefined && input.provider !== null)
    r.problem(['provider'], '"provider" must be an object like {"organization": "...", "url": "..."}');

  let streaming = false;
  let push = false;
  if (isObject(input.capabilities)) {
    streaming = r.flag(input.capabilities, 'streaming', ['capabilities']);
    push = r.flag(input.capabilities, 'pushNotifications', ['capabilities']);
  } else if (input.capabilities !== undefined && input.capabilities !== null) {
    r.problem(['capabilities'], `"capabilities" must be an object like {"streaming": true}, not ${describe(input.capabilities)}`);
  }

  const inputModes = r.strings(input, 'defaultInputModes', []) ?? [];
  const outputModes = r.strings(input, 'defaultOutputModes', []) ?? [];
  const { skills, tags } = skillsOf(r, input, inputModes, outputModes);

  if (r.problems.length > 0 || name === null || url === null) return { ok: false, problems: r.problems, warnings: r.warnings };
  return {
    ok: true,
    warnings: r.warnings,
    card: {
      agent_name: name,
      agent_url: url,
      purpose: description,
      agent_metadata: { role: null, job_description: description, version, author, tags: tags.length > 0 ? tags.slice(0, MAX.list) : null },
      capabilities: { streaming, push_notifications: push, code_execution: false, memory: false, delegation: false, tools: [] },
      skills,
      protocol_version: protocolVersion,
      original_format: `a2a-agent-card/${protocolVersion}`,
      tenant,
    },
  };
}

/** "skills[2].id" — how a problem's place is written for a person. */
export function formatPath(path: ReadonlyArray<string | number>): string {
  return path.reduce<string>((out, part) => (typeof part === 'number' ? `${out}[${part}]` : out === '' ? part : `${out}.${part}`), '');
}
