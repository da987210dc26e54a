import { readFileSync } from 'node:fs';
import YAML from 'yaml';
import { CliError, type Query, type WardenApi } from './api.js';
import { table, type Printer } from './output.js';

export interface AgentSummary {
  id: string;
  agent_name: string;
  team_id?: string;
  status?: string;
  trust_stage?: string;
  protocol?: string;
  agent_url?: string | null;
  purpose?: string | null;
  agent_system_prompt?: string | null;
  test_score?: string | null;
  [key: string]: unknown;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every agent the caller sees, page by page. */
export async function allAgents(api: WardenApi, query: Query = {}): Promise<AgentSummary[]> {
  const out: AgentSummary[] = [];
  for (let offset = 0; ;) {
    const page = await api.get<{ results: AgentSummary[]; total?: number }>('/v1/agent-configurations/', { ...query, limit: 1000, offset });
    if (!Array.isArray(page?.results))
      throw new CliError(`GET /v1/agent-configurations/ at ${api.where} answered without a list of agents: is WARDEN_URL a Warden?`);
    out.push(...page.results);
    if (page.results.length < 1000) return out;
    offset += page.results.length;
  }
}

/** An agent by its id, or by its exact name when the name is unique among the caller's agents. */
export async function resolveAgent(api: WardenApi, ref: string): Promise<AgentSummary> {
  if (UUID.test(ref)) return api.get<AgentSummary>(`/v1/agent-configurations/${ref}`);
  const matches = (await allAgents(api)).filter((a) => a.agent_name === ref);
  if (matches.length === 1) return matches[0] as AgentSummary;
  if (matches.length === 0) throw new CliError(`no agent is named "${ref}" (give its id or its exact name; \`warden agents list\` shows them)`);
  throw new CliError(`${matches.length} agents are named "${ref}": give one's id (${matches.map((m) => m.id).join(', ')})`);
}

/** Reads a JSON or YAML file into an object (the format is told by the content, not the name). */
export function readStructuredFile(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let value: unknown;
  try {
    value = YAML.parse(text);
  } catch (error) {
    throw new CliError(`${file} is neither JSON nor YAML: ${(error as Error).message.split('\n')[0]}`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new CliError(`${file} must hold one object (an agent's fields)`);
  return value as Record<string, unknown>;
}

export async function listAgents(api: WardenApi, print: Printer, options: { status?: string; stage?: string; search?: string }): Promise<void> {
  // The API filters (its `search` holds the name or the id, ignoring case): only the matches travel.
  const statuses = options.status?.split(',').map((s) => s.trim()).filter((s) => s !== '');
  const agents = await allAgents(api, { statuses, trust_stage: options.stage, search: options.search, include_scores: true });
  if (print.json) return print.out(JSON.stringify(agents, null, 2));
  if (agents.length === 0) return print.out('no agents');
  print.out(table(agents, ['id', 'agent_name', 'status', 'trust_stage', 'protocol', 'test_score']));
}

export async function getAgent(api: WardenApi, print: Printer, ref: string): Promise<void> {
  const agent = await resolveAgent(api, ref);
  if (print.json) return print.out(JSON.stringify(agent, null, 2));
  for (const key of [
    'id',
    'agent_name',
    'status',
    'trust_stage',
    'protocol',
    'agent_url',
    'model_name',
    'protection_status',
    'test_score',
    'last_evaluated_at',
  ]) {
    if (agent[key] !== undefined) print.out(`${key.padEnd(18)} ${agent[key] === null ? '' : String(agent[key])}`);
  }
}

export interface RegisterFlags {
  file?: string;
  name?: string;
  url?: string;
  model?: string;
  protocol?: string;
  purpose?: string;
  systemPrompt?: string;
  apiKeyEnv?: string;
  rateLimit?: number;
}

/** The agent's fields from a file, overridden by flags; the key only from an environment variable (never a flag: shell history keeps flags). */
export function registerBody(flags: RegisterFlags, env: NodeJS.ProcessEnv = process.env): Record<string, unknown> {
  const body: Record<string, unknown> = flags.file ? readStructuredFile(flags.file) : {};
  const set = (key: string, value: unknown) => {
    if (value !== undefined) body[key] = value;
  };
  set('agent_name', flags.name);
  set('agent_url', flags.url);
  set('model_name', flags.model);
  set('protocol', flags.protocol);
  set('purpose', flags.purpose);
  set('agent_system_prompt', flags.systemPrompt);
  set('rate_limit_requests_per_minute', flags.rateLimit);
  if (flags.apiKeyEnv) {
    const key = env[flags.apiKeyEnv];
    if (!key) throw new CliError(`--api-key-env ${flags.apiKeyEnv}: that environment variable is not set`);
    body.api_key = key;
  }
  if (typeof body.agent_name !== 'string') throw new CliError('an agent needs a name: --name or agent_name in --file');
  return body;
}

export async function registerAgent(api: WardenApi, print: Printer, flags: RegisterFlags): Promise<void> {
  const body = registerBody(flags);
  // The API allows two agents of one name; commands that take a name then need the id: say so.
  const namesakes = (await allAgents(api, { search: body.agent_name as string })).filter((a) => a.agent_name === body.agent_name);
  const agent = await api.post<AgentSummary>('/v1/agent-configurations/', body);
  if (namesakes.length > 0)
    print.err(
      `warning: ${namesakes.length + 1} agents are now named "${agent.agent_name}": ` +
        'give the id where a command takes an agent (`warden run` updates by name instead)',
    );
  if (print.json) return print.out(JSON.stringify(agent, null, 2));
  print.out(`registered ${agent.agent_name}: ${agent.id} (${agent.trust_stage ?? 'registered'})`);
}

export async function importAgent(api: WardenApi, print: Printer, source: string, options: { apiKeyEnv?: string }): Promise<void> {
  const body: Record<string, unknown> = /^https?:\/\//i.test(source) ? { agent_url: source } : { agent_card: readStructuredFile(source) };
  if (options.apiKeyEnv) {
    const key = process.env[options.apiKeyEnv];
    if (!key) throw new CliError(`--api-key-env ${options.apiKeyEnv}: that environment variable is not set`);
    body.api_key = key;
  }
  const answer = await api.post<{ agent: AgentSummary; access_level?: string; warnings?: string[] }>('/v1/agent-configurations/import', body);
  if (print.json) return print.out(JSON.stringify(answer, null, 2));
  print.out(`imported ${answer.agent.agent_name}: ${answer.agent.id} (${answer.access_level ?? 'black_box'}, ${answer.agent.protocol ?? ''})`);
  for (const warning of answer.warnings ?? []) print.err(`warning: ${warning}`);
}

export async function moveLifecycle(api: WardenApi, print: Printer, ref: string, stage: string): Promise<void> {
  const agent = await resolveAgent(api, ref);
  const moved = await api.put<AgentSummary>(`/v1/agent-configurations/${agent.id}/lifecycle`, { trust_stage: stage });
  if (print.json) return print.out(JSON.stringify(moved, null, 2));
  print.out(`${moved.agent_name}: ${agent.trust_stage ?? '?'} → ${moved.trust_stage ?? stage}`);
}
