import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline/promises';
import { resolveAgent } from './agents.js';
import { CliError, type WardenApi } from './api.js';
import { storeToken } from './credentials.js';
import { firstLine, readHidden } from './prompt.js';
import { table, type Printer } from './output.js';

interface ScanResult {
  flagged: boolean;
  enforced: boolean;
  detection_score?: number;
  triggered_methods?: string[];
  response_string?: string;
}

const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b)))
      : v,
  );

/**
 * The configuration a scan runs: --config, the one applied to --agent, or else the default
 * configuration: the team's saved copy of it (a configuration for no agent whose body is the
 * default's), saved once when there is none.
 */
export async function scanConfigId(api: WardenApi, options: { config?: string; agent?: string }, print: Printer): Promise<string> {
  if (options.config) return options.config;
  if (options.agent) {
    const agent = await resolveAgent(api, options.agent);
    try {
      // The route wants the agent's team (as the reference API does).
      const config = await api.get<{ id: string }>(`/v1/agent-configurations/${agent.id}/dome-configs`, { team_id: agent.team_id });
      return config.id;
    } catch (error) {
      if (error instanceof CliError && error.status === 404)
        throw new CliError(`agent ${agent.agent_name} has no Dome configuration: scan with the default configuration, or name one (--config, config_id)`);
      throw error;
    }
  }
  const defaultBody = canonical(await api.get('/v1/default-dome-config'));
  for (let offset = 0; ;) {
    const page = await api.get<{ dome_configs: { id: string; agent_id?: string | null; config_body?: unknown }[] }>('/v1/dome-configs', {
      limit: 100,
      offset,
    });
    const same = page.dome_configs.find((c) => !c.agent_id && canonical(c.config_body) === defaultBody);
    if (same) return same.id;
    if (page.dome_configs.length < 100) break;
    offset += page.dome_configs.length;
  }
  const created = await api.post<{ id: string }>('/v1/dome-configs', {});
  print.err(`saved the default Dome configuration for your team (${created.id}) to scan with it`);
  return created.id;
}

/** Exit 1 when the text is flagged, 0 when it passes. */
export async function scan(
  api: WardenApi,
  print: Printer,
  text: string,
  options: { config?: string; agent?: string; output?: boolean },
): Promise<number> {
  const id = await scanConfigId(api, options, print);
  const result = await api.post<ScanResult>(`/v1/dome-configs/${id}/scan`, { direction: options.output ? 'output' : 'input', text });
  if (print.json) print.out(JSON.stringify(result, null, 2));
  else if (result.flagged) {
    print.out(
      `flagged${result.enforced ? ' and blocked' : ''} (score ${result.detection_score ?? '?'}): ${(result.triggered_methods ?? []).join(', ') || 'a method failed closed'}`,
    );
  } else print.out(`passed (score ${result.detection_score ?? 0})`);
  return result.flagged ? 1 : 0;
}

export async function listRules(api: WardenApi, print: Printer, options: { status?: string; category?: string; policy?: string }): Promise<void> {
  const rules: Record<string, unknown>[] = [];
  for (let offset = 0; ;) {
    const page = await api.get<{ results: Record<string, unknown>[] }>('/v1/rules/', {
      status: options.status,
      category: options.category,
      policy_id: options.policy,
      limit: 100,
      offset,
    });
    const items = page.results;
    rules.push(...items);
    if (items.length < 100) break;
    offset += items.length;
  }
  if (print.json) return print.out(JSON.stringify(rules, null, 2));
  if (rules.length === 0) return print.out('no rules');
  print.out(table(rules, ['id', 'status', 'category', 'rule_type', 'natural_language']));
}

const MIME: Record<string, string> = {
  '.pdf': 'application/pdf',
  '.md': 'text/markdown',
  '.txt': 'text/plain',
  '.html': 'text/html',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
};

export async function uploadPolicy(
  api: WardenApi,
  print: Printer,
  file: string,
  options: { policy?: string; name?: string; category?: string },
): Promise<void> {
  let data: Buffer;
  try {
    data = readFileSync(file);
  } catch (error) {
    throw new CliError(`cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  let policyId = options.policy;
  if (!policyId) {
    const created = await api.post<{ id: string }>('/v1/policies/', {
      name: options.name ?? path.basename(file),
      category: options.category ?? 'security',
    });
    policyId = created.id;
    print.err(`created policy ${policyId}`);
  }
  const type = MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
  const answer = await api.upload(`/v1/policies/${policyId}/upload`, 'file', { name: path.basename(file), data, type });
  if (print.json) return print.out(JSON.stringify(answer, null, 2));
  print.out(`uploaded ${path.basename(file)} to policy ${policyId}`);
}

async function readPassword(prompt: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLine(process.stdin);
  const secret = await readHidden(process.stdin, process.stderr, prompt);
  if (secret === null) throw new CliError('login cancelled', 130);
  return secret;
}

/** Logs in with an e-mail and a password (read from the terminal without echo, or from standard input) and stores the token. */
export async function login(api: WardenApi, print: Printer, url: string, email: string | undefined): Promise<void> {
  let who = email;
  if (!who) {
    if (!process.stdin.isTTY) throw new CliError('--email is needed when standard input is not a terminal (the password is read from it)');
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    who = (await rl.question('e-mail: ')).trim();
    rl.close();
  }
  const password = await readPassword('password: ');
  if (!password) throw new CliError('no password given');
  const answer = await api.post<{ access_token: string }>('/v1/auth/jwt/login', { email: who, password });
  const file = storeToken(url, answer.access_token, who);
  print.out(
    print.json
      ? JSON.stringify({ url, email: who, credentials_file: file })
      : `logged in to ${url} as ${who}; token saved in ${file} (mode 0600, valid 24 hours)`,
  );
}
