import { writeFileSync } from 'node:fs';
import { resolveAgent } from './agents.js';
import { CliError, type WardenApi } from './api.js';
import { gateEvaluation, type PillarDetails } from './gate.js';
import { junitXml, type JunitCase } from './junit.js';
import { Progress, type Printer } from './output.js';
import { cancelOnInterrupt, sleep } from './wait.js';

export interface EvaluateOptions {
  harness: string[];
  sampleSize?: number;
  seed?: number;
  team?: string;
  wait?: boolean;
  failUnder?: number;
  report?: string;
  junit?: string;
  pollMs?: number;
}

interface EvaluationStatus {
  evaluation_id: string;
  status: string;
  status_message?: string | null;
  error_message?: string | null;
  progress?: { done?: number; total?: number; errors?: number; completed?: number };
  seed?: number | null;
  completed_at?: number | null;
}

interface ResultRow {
  prompt_id?: string;
  harness?: string;
  probe?: string;
  prompt?: string;
  response?: string | null;
  reason?: string | null;
  passed?: boolean | null;
}

const ENDED = new Set(['completed', 'failed', 'cancelled']);

/** Every failed prompt of an evaluation, following the pages (and their byte bound) to the end. */
async function failedPrompts(api: WardenApi, id: string): Promise<ResultRow[]> {
  const out: ResultRow[] = [];
  for (let offset: number | null = 0; offset !== null && out.length < 10_000;) {
    const page: { results: ResultRow[]; next_offset?: number | null } = await api.get(`/v1/evaluation-results/${id}/results`, {
      passed: false,
      limit: 1000,
      offset,
    });
    out.push(...page.results);
    offset = page.next_offset ?? (page.results.length === 1000 ? offset + 1000 : null);
  }
  return out;
}

/** The report's format, from the file's extension (.pdf, .html or .htm); checked before the run starts. */
export function reportFormat(path: string): 'pdf' | 'html' {
  const lower = path.toLowerCase();
  if (lower.endsWith('.pdf')) return 'pdf';
  if (lower.endsWith('.html') || lower.endsWith('.htm')) return 'html';
  throw new CliError(`--report ${path}: name a .pdf or .html file`);
}

/** Saves the report as the file's extension says (.pdf or .html). */
export async function saveReport(api: WardenApi, path: string, base: string): Promise<void> {
  const format = reportFormat(path);
  const response = await api.call('GET', `${base}/${format}`, { accept: format === 'pdf' ? 'application/pdf' : 'text/html' });
  writeFileSync(path, response.body);
}

export async function evaluate(api: WardenApi, print: Printer, agentRef: string, options: EvaluateOptions): Promise<number> {
  if (options.harness.length === 0)
    throw new CliError('--harness names at least one harness (security, privacy, safety, toxicity, ethics, reliability or a custom harness id)');
  if (options.failUnder !== undefined && !(options.failUnder >= 0 && options.failUnder <= 1))
    throw new CliError('--fail-under is a score between 0 and 1 (e.g. 0.8)');
  if (options.report !== undefined) reportFormat(options.report);
  const agent = await resolveAgent(api, agentRef);
  const created = await api.post<EvaluationStatus>('/v1/evaluations/', {
    agent_id: agent.id,
    ...(options.team ? { team_id: options.team } : {}),
    harness_names: options.harness,
    ...(options.sampleSize !== undefined ? { sample_size: options.sampleSize } : {}),
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
  });
  const id = created.evaluation_id;
  const wait = options.wait || options.failUnder !== undefined || options.report !== undefined || options.junit !== undefined;
  if (!wait) {
    if (print.json) print.out(JSON.stringify(created, null, 2));
    else
      print.out(
        `started evaluation ${id} of ${agent.agent_name} (${options.harness.join(', ')}); it runs on the server: ` +
          `GET /v1/evaluations/${id} or the console follows it (with --wait, this command waits for the end and prints the scores)`,
      );
    return 0;
  }
  print.err(`evaluation ${id} of ${agent.agent_name}: ${options.harness.join(', ')}`);
  const progress = new Progress(process.stderr, 'prompts');
  const stopListening = cancelOnInterrupt(api, `evaluation ${id}`, `/v1/evaluations/${id}/cancel`, print.err, () => progress.pause());
  let status: EvaluationStatus;
  try {
    for (;;) {
      status = await api.get<EvaluationStatus>(`/v1/evaluations/${id}`);
      const done = status.progress?.done ?? status.progress?.completed ?? 0;
      const total = status.progress?.total ?? 0;
      if (total > 0) progress.update(done, total, status.progress?.errors ? `${status.progress.errors} errors` : '');
      else if (!print.json) progress.update(0, 0, status.status_message ?? '');
      if (ENDED.has(status.status)) break;
      await sleep(options.pollMs ?? 1000);
    }
  } finally {
    progress.end();
    stopListening();
  }
  if (status.status === 'cancelled') throw new CliError(`evaluation ${id} was cancelled`);
  if (status.status === 'failed') {
    print.err(`evaluation ${id} failed: ${status.error_message ?? status.status_message ?? 'no message'}`);
    if (print.json) print.out(JSON.stringify({ evaluation_id: id, status: status.status, error_message: status.error_message ?? null, exit_code: 1 }, null, 2));
    if (options.junit) {
      writeFileSync(
        options.junit,
        junitXml({ name: `warden evaluate ${agent.agent_name}` }, [
          { classname: 'warden.evaluation', name: id, failure: { message: `failed: ${status.error_message ?? ''}` } },
        ]),
      );
    }
    return 1;
  }
  const summary = await api.get<{ pillar_details: PillarDetails }>(`/v1/evaluation-summaries/${id}`);
  const gate = gateEvaluation(summary.pillar_details, options.harness, options.failUnder);
  if (options.report) await saveReport(api, options.report, `/v1/evaluations/${id}`);
  const failures = options.junit || print.json ? await failedPrompts(api, id) : [];
  if (options.junit)
    writeFileSync(
      options.junit,
      junitXml(
        { name: `warden evaluate ${agent.agent_name}`, properties: { evaluation_id: id, agent_id: agent.id, seed: String(status.seed ?? '') } },
        evaluationCases(summary.pillar_details, options, gate.below.concat(gate.unmeasured), failures),
      ),
    );
  if (print.json) {
    print.out(
      JSON.stringify(
        {
          evaluation_id: id,
          status: status.status,
          seed: status.seed ?? null,
          fail_under: options.failUnder ?? null,
          below: gate.below,
          unmeasured: gate.unmeasured,
          incomplete: gate.missingPillars.length > 0,
          missing_pillars: gate.missingPillars,
          pillar_details: summary.pillar_details,
          failed_prompts: failures.length,
          exit_code: gate.exitCode,
        },
        null,
        2,
      ),
    );
  } else {
    print.out(`evaluation ${id} completed (seed ${status.seed ?? '?'})`);
    for (const line of gate.lines) print.out(line);
    if (options.failUnder !== undefined)
      print.out(
        gate.exitCode === 0
          ? `gate: every harness ≥ ${options.failUnder}`
          : `gate: FAILED (${[...gate.below, ...gate.unmeasured].join(', ')} below ${options.failUnder})`,
      );
    if (options.report) print.out(`report: ${options.report}`);
    if (options.junit) print.out(`junit: ${options.junit}`);
  }
  return gate.exitCode;
}

function evaluationCases(details: PillarDetails, options: EvaluateOptions, failing: string[], failures: ResultRow[]): JunitCase[] {
  const cases: JunitCase[] = [];
  for (const name of options.harness) {
    const harness = details.harnesses.find((h) => h.id === name);
    const score = harness?.score;
    const text = score
      ? `score ${score.score.toFixed(4)}${score.low !== undefined ? ` [${score.low.toFixed(4)}, ${score.high?.toFixed(4)}]` : ''}`
      : 'not measured';
    cases.push({ classname: 'warden.harness', name, ...(failing.includes(name) ? { failure: { message: `${text} < ${options.failUnder}` } } : {}) });
  }
  for (const row of failures) {
    const body = [`prompt: ${row.prompt ?? ''}`, `answer: ${row.response ?? ''}`, `reason: ${row.reason ?? ''}`].join('\n');
    cases.push({
      classname: `warden.${row.harness ?? row.prompt_id?.split('.')[0] ?? 'prompt'}`,
      name: row.prompt_id ?? 'prompt',
      failure: { message: row.reason ?? 'failed', body },
    });
  }
  return cases;
}
