import { writeFileSync } from 'node:fs';
import { resolveAgent } from './agents.js';
import { CliError, type WardenApi } from './api.js';
import type { SuccessRate } from '../redteam/summary.js';
import { gateCampaign } from './gate.js';
import { junitXml, type JunitCase } from './junit.js';
import { Progress, type Printer } from './output.js';
import { cancelOnInterrupt, sleep } from './wait.js';

export interface RedteamOptions {
  categories: string[];
  strategies?: string[];
  numTests?: number;
  purpose?: string;
  team?: string;
  wait?: boolean;
  failOver?: number;
  download?: string;
  junit?: string;
  pollMs?: number;
}

interface CampaignStatus {
  campaign_id: string;
  status: string;
  status_message?: string | null;
  error_message?: string | null;
  progress?: { done: number; total: number };
}

interface Finding {
  category?: string;
  attack_type?: string;
  passed?: boolean | null;
  severity?: string;
  attack_prompt?: string;
  agent_response?: string;
  metadata?: { strategy?: string; reason?: string };
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** The findings' format, from the file's extension; checked before the campaign starts. */
export function downloadFormat(file: string): 'csv' | 'json' | 'jsonl' {
  const lower = file.toLowerCase();
  if (lower.endsWith('.csv')) return 'csv';
  if (lower.endsWith('.jsonl')) return 'jsonl';
  if (lower.endsWith('.json')) return 'json';
  throw new CliError(`--download ${file}: name a .csv, .json or .jsonl file`);
}

export async function redteam(api: WardenApi, print: Printer, agentRef: string, options: RedteamOptions): Promise<number> {
  if (options.categories.length === 0) throw new CliError('--categories names at least one attack category (GET /v1/tools lists them)');
  if (options.failOver !== undefined && !(options.failOver >= 0 && options.failOver <= 1))
    throw new CliError('--fail-over is a rate between 0 and 1 (e.g. 0.1)');
  const format = options.download === undefined ? null : downloadFormat(options.download);
  const agent = await resolveAgent(api, agentRef);
  const purpose = options.purpose ?? agent.purpose ?? undefined;
  if (!purpose) throw new CliError(`agent ${agent.agent_name} has no purpose: give --purpose "what the agent is for" (attacks are written for it)`);
  const created = await api.post<{ campaign_id: string; status: string }>('/v1/campaigns', {
    tool: 'diamond_security',
    agent_id: agent.id,
    purpose,
    categories: options.categories,
    ...(options.strategies?.length ? { strategies: options.strategies } : {}),
    ...(options.numTests !== undefined ? { num_tests: options.numTests } : {}),
    ...(options.team ? { team_id: options.team } : {}),
  });
  const id = created.campaign_id;
  const wait = options.wait || options.failOver !== undefined || options.download !== undefined || options.junit !== undefined;
  if (!wait) {
    if (print.json) print.out(JSON.stringify(created, null, 2));
    else
      print.out(
        `started campaign ${id} against ${agent.agent_name}; it runs on the server: ` +
          `GET /v1/campaigns/${id} or the console follows it (with --wait, this command waits for the end and prints the rates)`,
      );
    return 0;
  }
  print.err(`campaign ${id} against ${agent.agent_name}: ${options.categories.join(', ')}`);
  const progress = new Progress(process.stderr, 'attacks');
  const stopListening = cancelOnInterrupt(api, `campaign ${id}`, `/v1/campaigns/${id}/cancel`, print.err, () => progress.pause());
  let status: CampaignStatus;
  try {
    for (;;) {
      status = await api.get<CampaignStatus>(`/v1/campaigns/${id}`);
      if (status.progress && status.progress.total > 0) progress.update(status.progress.done, status.progress.total);
      if (ENDED.has(status.status)) break;
      await sleep(options.pollMs ?? 1000);
    }
  } finally {
    progress.end();
    stopListening();
  }
  if (status.status === 'cancelled') throw new CliError(`campaign ${id} was cancelled`);
  if (status.status === 'failed') {
    print.err(`campaign ${id} failed: ${status.error_message ?? status.status_message ?? 'no message'}`);
    if (print.json) print.out(JSON.stringify({ campaign_id: id, status: status.status, error_message: status.error_message ?? null, exit_code: 1 }, null, 2));
    return 1;
  }
  const findings: Finding[] = [];
  let rates: { overall?: SuccessRate; by_category?: Record<string, SuccessRate> } = {};
  for (let offset: number | null = 0; offset !== null;) {
    const page: { findings: Finding[]; next_offset?: number | null; raw_output?: { attack_success_rate?: typeof rates } } = await api.get(
      `/v1/campaigns/${id}/results`,
      { offset },
    );
    if (offset === 0) rates = page.raw_output?.attack_success_rate ?? {};
    findings.push(...page.findings);
    offset = page.next_offset ?? null;
  }
  const gate = gateCampaign(rates.overall, options.failOver);
  if (options.download && format) {
    writeFileSync(options.download, (await api.call('GET', `/v1/campaigns/${id}/results/download`, { query: { format }, accept: '*/*' })).body);
  }
  const succeeded = findings.filter((f) => f.passed === false);
  if (options.junit) {
    const cases: JunitCase[] = Object.entries(rates.by_category ?? {}).map(([category, rate]) => ({
      classname: 'warden.redteam.category',
      name: category,
      ...(rate.successful > 0 ? { failure: { message: `${rate.successful} of ${rate.n} attacks succeeded` } } : {}),
    }));
    for (const f of succeeded) {
      cases.push({
        classname: `warden.redteam.${f.category ?? 'attack'}`,
        name: `${f.attack_type ?? 'attack'} (${f.metadata?.strategy ?? 'basic'})`,
        failure: {
          message: f.metadata?.reason ?? 'the attack succeeded',
          body: `attack: ${f.attack_prompt ?? ''}\nanswer: ${f.agent_response ?? ''}`,
        },
      });
    }
    writeFileSync(
      options.junit,
      junitXml({ name: `warden redteam ${agent.agent_name}`, properties: { campaign_id: id, agent_id: agent.id } }, cases),
    );
  }
  if (print.json) {
    print.out(
      JSON.stringify(
        {
          campaign_id: id,
          status: status.status,
          attack_success_rate: rates,
          fail_over: options.failOver ?? null,
          successful_attacks: succeeded.length,
          exit_code: gate.exitCode,
        },
        null,
        2,
      ),
    );
  } else {
    print.out(`campaign ${id} completed`);
    for (const [category, rate] of Object.entries(rates.by_category ?? {}))
      print.out(`  ${category.padEnd(16)} ${rate.successful}/${rate.n} succeeded`);
    print.out(gate.line);
    for (const f of succeeded.slice(0, 5))
      print.out(`  ${f.severity ?? ''} ${f.attack_type ?? ''} (${f.metadata?.strategy ?? ''}): ${f.metadata?.reason ?? ''}`);
    if (options.download) print.out(`findings: ${options.download}`);
  }
  return gate.exitCode;
}
