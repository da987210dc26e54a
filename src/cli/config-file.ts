import { existsSync, writeFileSync } from 'node:fs';
import { allAgents, readStructuredFile, type AgentSummary } from './agents.js';
import { CliError, type WardenApi } from './api.js';
import { evaluate, reportFormat } from './evaluate.js';
import type { Printer } from './output.js';
import { downloadFormat, redteam } from './redteam.js';

/**
 * Configuration as code: `warden run warden.yaml` registers or updates the agents a file
 * names (matched by name), then runs its evaluations and campaigns with their bounds, in the
 * file's order. The exit code is the worst of them: 0 every bound met, 1 one was not, 2 an error.
 */

const AGENT_ALIASES: Record<string, string> = {
  name: 'agent_name',
  url: 'agent_url',
  model: 'model_name',
  system_prompt: 'agent_system_prompt',
  rate_limit: 'rate_limit_requests_per_minute',
};

export function agentBodyFromFile(entry: Record<string, unknown>, env: NodeJS.ProcessEnv): { body: Record<string, unknown>; lifecycle?: string } {
  const body: Record<string, unknown> = {};
  let lifecycle: string | undefined;
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'lifecycle' || key === 'trust_stage') lifecycle = String(value);
    else if (key === 'api_key_env') {
      const secret = env[String(value)];
      if (!secret) throw new CliError(`agent ${String(entry.name ?? entry.agent_name)}: api_key_env ${String(value)} is not set`);
      body.api_key = secret;
    } else if (key === 'api_key')
      throw new CliError('a key in the file would be committed with it: use api_key_env (the name of an environment variable)');
    else body[AGENT_ALIASES[key] ?? key] = value;
  }
  if (typeof body.agent_name !== 'string' || !body.agent_name) throw new CliError('every agent in the file needs a name');
  return lifecycle ? { body, lifecycle } : { body };
}

const list = (value: unknown): string[] =>
  Array.isArray(value)
    ? value.map(String)
    : typeof value === 'string'
      ? value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
const num = (value: unknown): number | undefined => (value === undefined || value === null ? undefined : Number(value));
const str = (value: unknown): string | undefined => (value === undefined || value === null ? undefined : String(value));

export async function runFile(api: WardenApi, print: Printer, file: string, env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const config = readStructuredFile(file);
  const agents = Array.isArray(config.agents) ? (config.agents as Record<string, unknown>[]) : [];
  const evaluations = Array.isArray(config.evaluations) ? (config.evaluations as Record<string, unknown>[]) : [];
  const campaigns = Array.isArray(config.campaigns) ? (config.campaigns as Record<string, unknown>[]) : [];
  if (agents.length + evaluations.length + campaigns.length === 0)
    throw new CliError(`${file} has no agents, evaluations or campaigns (\`warden init\` writes an example)`);
  // What can be checked without the service is checked before anything is changed or started.
  for (const entry of agents) agentBodyFromFile(entry, env);
  for (const entry of evaluations) {
    if (!str(entry.agent)) throw new CliError('every evaluation in the file names its agent');
    if (list(entry.harnesses ?? entry.harness).length === 0) throw new CliError(`evaluation of ${str(entry.agent)}: harnesses names at least one`);
    if (str(entry.report)) reportFormat(str(entry.report) as string);
  }
  for (const entry of campaigns) {
    if (!str(entry.agent)) throw new CliError('every campaign in the file names its agent');
    if (str(entry.download)) downloadFormat(str(entry.download) as string);
  }
  // With --json, one document at the end: each evaluation's and campaign's JSON (one print.out
  // each) is collected into it instead of printed, and the agents' lines become entries.
  const report = { agents: [] as unknown[], evaluations: [] as unknown[], campaigns: [] as unknown[], exit_code: 0 };
  const into = (list: unknown[]): Printer => (print.json ? { json: true, err: print.err, out: (text) => list.push(JSON.parse(text)) } : print);
  const said = (line: string, entry: Record<string, unknown>) => (print.json ? report.agents.push(entry) : print.out(line));
  const known = new Map<string, AgentSummary>();
  if (agents.length > 0) for (const a of await allAgents(api)) known.set(a.agent_name, a);
  for (const entry of agents) {
    const { body, lifecycle } = agentBodyFromFile(entry, env);
    const name = body.agent_name as string;
    const existing = known.get(name);
    let agent: AgentSummary;
    if (existing) {
      agent = await api.put<AgentSummary>(`/v1/agent-configurations/${existing.id}`, body);
      said(`agent ${name}: updated (${agent.id})`, { name, id: agent.id, action: 'updated' });
    } else {
      agent = await api.post<AgentSummary>('/v1/agent-configurations/', body);
      said(`agent ${name}: registered (${agent.id})`, { name, id: agent.id, action: 'registered' });
    }
    if (lifecycle && agent.trust_stage !== lifecycle) {
      agent = await api.put<AgentSummary>(`/v1/agent-configurations/${agent.id}/lifecycle`, { trust_stage: lifecycle });
      said(`agent ${name}: moved to ${lifecycle}`, { name, id: agent.id, action: 'moved', trust_stage: lifecycle });
    }
    known.set(name, agent);
  }
  let worst = 0;
  for (const entry of evaluations) {
    const agent = str(entry.agent);
    if (!agent) throw new CliError('every evaluation in the file names its agent');
    const options = {
      harness: list(entry.harnesses ?? entry.harness),
      wait: true,
      ...(num(entry.sample_size) !== undefined ? { sampleSize: num(entry.sample_size) } : {}),
      ...(num(entry.seed) !== undefined ? { seed: num(entry.seed) } : {}),
      ...(num(entry.fail_under) !== undefined ? { failUnder: num(entry.fail_under) } : {}),
      ...(str(entry.report) ? { report: str(entry.report) } : {}),
      ...(str(entry.junit) ? { junit: str(entry.junit) } : {}),
    };
    worst = Math.max(worst, await evaluate(api, into(report.evaluations), known.get(agent)?.id ?? agent, options));
  }
  for (const entry of campaigns) {
    const agent = str(entry.agent);
    if (!agent) throw new CliError('every campaign in the file names its agent');
    const options = {
      categories: list(entry.categories),
      strategies: list(entry.strategies),
      wait: true,
      ...(num(entry.num_tests) !== undefined ? { numTests: num(entry.num_tests) } : {}),
      ...(str(entry.purpose) ? { purpose: str(entry.purpose) } : {}),
      ...(num(entry.fail_over) !== undefined ? { failOver: num(entry.fail_over) } : {}),
      ...(str(entry.download) ? { download: str(entry.download) } : {}),
      ...(str(entry.junit) ? { junit: str(entry.junit) } : {}),
    };
    worst = Math.max(worst, await redteam(api, into(report.campaigns), known.get(agent)?.id ?? agent, options));
  }
  if (print.json) print.out(JSON.stringify({ ...report, exit_code: worst }, null, 2));
  return worst;
}

export const EXAMPLE_FILE = `# warden.yaml: what \`warden run warden.yaml\` does, in order.
# Agents are matched by name: registered when new, updated otherwise.
warden: 1

agents:
  - name: Support bot
    url: http://127.0.0.1:9000/v1          # the agent's OpenAI-compatible base URL (or an A2A endpoint)
    protocol: chat_completions             # or a2a
    model: support-model
    api_key_env: SUPPORT_BOT_API_KEY       # the NAME of the variable holding the agent's key (never the key):
                                           # export it before \`warden run\`; drop this line if the agent takes no key
    purpose: Customer support assistant of a retail bank
    system_prompt: You are the support assistant of Example Bank.
    rate_limit: 600                        # calls a minute Warden may make to it
    # lifecycle: tested                    # move it to this trust stage

evaluations:
  - agent: Support bot
    harnesses: [security, safety, reliability]   # all three pillars: otherwise the verdict is INCOMPLETE
    sample_size: 20                        # prompts per harness (leave out for all of them)
    seed: 1                                # repeat a run exactly
    fail_under: 0.8                        # exit 1 when a harness scores below this
    report: warden-report.pdf              # or .html
    junit: warden-evaluation.xml

campaigns:
  - agent: Support bot
    categories: [injection, pii, toxicity]
    strategies: [basic, base64]
    num_tests: 2
    fail_over: 0.2                         # exit 1 when more than 20 % of the attacks succeed
    download: warden-findings.csv
    junit: warden-redteam.xml
`;

export function init(print: Printer, file: string, force: boolean): void {
  if (existsSync(file) && !force) throw new CliError(`${file} exists: --force replaces it`);
  writeFileSync(file, EXAMPLE_FILE);
  print.out(print.json ? JSON.stringify({ written: file }) : `wrote ${file}: edit it, then \`warden run ${file}\``);
}
