import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { npmStart, ROOT, type NpmStarted } from './helpers/npm-start.js';

/**
 * The docs' examples, run (issue 17: they had gone stale). Every ```` ```sh runnable ```` block of
 * a page is run, in order, as one bash script against a service started with `npm start` on a
 * free port, in a temporary folder that plays Warden's folder (its `data/` is the service's).
 * Each curl call must answer 2xx, or the status a `# answers NNN` comment line right before it
 * names; every curl line of the page must have run. What the test changes in the text, and why:
 *   - http://127.0.0.1:8000 → the service's address (a free port);
 *   - `npm run warden --` → `node dist/cli.js` (the same program, without the build `npm test` ran);
 *   - http://localhost:10000 (an A2A agent in the import examples) → a fake agent serving its card;
 *   - http://127.0.0.1:10000 (the demo agent of the evaluation walkthrough) → scripts/demo-agent.mjs, on a free port;
 *   - http://127.0.0.1:10001 (the agent the red-team examples attack) → scripts/demo-agent.mjs --obedient, on a free port;
 *   - `until curl …` (a wait that asks every second) → its calls marked, so that they count as one.
 * Pages after getting-started begin with its first block (the login), as they tell the reader.
 */
const GETTING_STARTED = 'docs/getting-started.md';
const PAGES = [GETTING_STARTED, 'docs/policies.md', 'docs/personas-and-import.md', 'docs/guardrails.md', 'docs/evaluations.md', 'docs/redteam.md'];
const SCRIPT_TIMEOUT_MS = 60_000;

/** Outcomes a page's prose states, as its commands print them: each must appear, in this order. */
const PRINTS: Record<string, string[]> = {
  'docs/guardrails.md': [
    'unprotected\n',
    '{"protection_status":"configured"',
    '{"flagged":true,"enforced":true,"response_string":"I\'m sorry, but I can\'t help with that request."',
    '{"flagged":false,"enforced":false,"response_string":"What are your opening hours on Saturday?"}',
    '{"flagged":true,"enforced":false,"response_string":"Your card [REDACTED - Credit Card] is blocked."}',
    '\ndomed\n',
    '\nconfigured\n',
  ],
  // Security and safety without reliability: no PASS or FAIL (docs/evaluations.md, "The PASS rule").
  'docs/evaluations.md': ['"verdict": "INCOMPLETE"'],
  'docs/redteam.md': ['Completed: 12 of 12 attacks succeeded', '{"before":12}', '{"after":0,'],
};

/** The part of `expected` that `output` does not print in order (none: []). */
function missingInOrder(output: string, expected: readonly string[]): string[] {
  let from = 0;
  const missing: string[] = [];
  for (const text of expected) {
    const at = output.indexOf(text, from);
    if (at < 0) missing.push(text);
    else from = at + text.length;
  }
  return missing;
}

const read = (page: string) => readFileSync(path.join(ROOT, page), 'utf8');
const runnableBlocks = (markdown: string) => [...markdown.matchAll(/^```sh runnable\n([\s\S]*?)^```/gm)].map((m) => m[1] ?? '');

/** A curl that records its status and fails the script on one not expected (see above). */
const PRELUDE = String.raw`set -euo pipefail
curl() {
  local expected=2xx headers status
  if [[ -f $WARDEN_DOC_EXPECT ]]; then expected=$(<"$WARDEN_DOC_EXPECT"); rm -f "$WARDEN_DOC_EXPECT"; fi
  headers=$(mktemp)
  command curl --show-error -D "$headers" "$@" || { echo "curl could not complete: curl $*" >&2; rm -f "$headers"; return 1; }
  status=$(grep -E '^HTTP/' "$headers" | tail -n 1 | cut -d ' ' -f 2)
  rm -f "$headers"
  local call
  call=$(printf 'curl %s' "$*" | tr '\n' ' ') # one line per call in the log
  echo "${'$'}{WARDEN_DOC_POLL:+poll }$status (expected $expected) $call" >> "$WARDEN_DOC_LOG"
  if [[ $expected == 2xx && $status == 2* ]] || [[ $status == "$expected" ]]; then return 0; fi
  echo "expected HTTP $expected, got $status: $call" >&2
  return 1
}
`;

/** `# answers 422: …` before a command makes its curl expect 422 (one call: the mark is a file the call removes). */
const markExpectations = (script: string) =>
  script.replace(
    /^(\s*)# answers (\d{3})\b(.*)$/gm,
    (_line, indent: string, status: string, rest: string) => `${indent}echo ${status} > "$WARDEN_DOC_EXPECT" # answers ${status}${rest}`,
  );

const curlCalls = (script: string) =>
  script
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .reduce((n, line) => n + (line.match(/(^|[\s(|])curl\s/g)?.length ?? 0), 0);

let dir: string;
let service: NpmStarted;
let agent: Server;
let agentUrl: string;
/** Stops each demo agent started. */
const demoAgents: Array<() => Promise<void>> = [];

/** The demo agent the docs tell a person to start (`node scripts/demo-agent.mjs [--obedient]`), on a free port. */
async function startDemoAgent(...args: string[]): Promise<string> {
  const child = spawn(process.execPath, [path.join(ROOT, 'scripts/demo-agent.mjs'), ...args], {
    env: { PATH: process.env.PATH ?? '', PORT: '0' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  demoAgents.push(() => (child.kill('SIGTERM'), exited));
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const url = /(http:\/\/127\.0\.0\.1:\d+)\/v1/.exec(seen)?.[1];
      if (url) resolve(url);
    });
    void exited.then(() => reject(new Error(`the demo agent exited: ${seen}`)));
  });
}

let demoUrl: string;
let obedientUrl: string;

/** An A2A agent whose card the agent_url import finds. */
const CARD = {
  name: 'Travel helper',
  description: 'Plans trips and books nothing without asking',
  version: '1.2.0',
  protocolVersion: '0.3.0',
  url: 'http://localhost:10000/',
  capabilities: { streaming: true },
  defaultInputModes: ['text'],
  defaultOutputModes: ['text'],
  skills: [{ id: 'plan_trip', name: 'Plan a trip', description: 'Suggests an itinerary', tags: ['travel'] }],
};

beforeAll(async () => {
  if (spawnSync('jq', ['--version']).status !== 0) throw new Error('the docs examples use jq and curl: install jq (apt-get install jq)');
  dir = mkdtempSync(path.join(os.tmpdir(), 'warden-docs-'));
  agent = createServer((request, response) => {
    const found = request.url === '/.well-known/agent-card.json';
    response.writeHead(found ? 200 : 404, { 'content-type': 'application/json' });
    response.end(JSON.stringify(found ? CARD : { detail: 'not found' }));
  });
  await new Promise<void>((resolve) => agent.listen(0, '127.0.0.1', resolve));
  agentUrl = `http://127.0.0.1:${(agent.address() as { port: number }).port}`;
  demoUrl = await startDemoAgent();
  obedientUrl = await startDemoAgent('--obedient');
  service = await npmStart({
    WARDEN_DATA_DIR: path.join(dir, 'data'),
    WARDEN_DATABASE_URL: `sqlite://${path.join(dir, 'data', 'warden.db')}`,
    WARDEN_PASSWORD_HASH_COST: '14',
  });
});

afterAll(async () => {
  service?.npm.kill('SIGTERM');
  await service?.exited;
  await new Promise((resolve) => agent?.close(resolve));
  await Promise.all(demoAgents.map((stop) => stop()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function runScript(script: string): Promise<{ code: number | null; stdout: string; stderr: string; log: string[] }> {
  const logFile = path.join(dir, `log-${Date.now()}.txt`);
  writeFileSync(logFile, '');
  const child = spawn('bash', ['-c', script], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, WARDEN_DOC_LOG: logFile, WARDEN_DOC_EXPECT: path.join(dir, 'expect') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), SCRIPT_TIMEOUT_MS);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, log: readFileSync(logFile, 'utf8').split('\n').filter((l) => l !== '') });
    }),
  );
}

function pageScript(page: string): string {
  const own = runnableBlocks(read(page)).join('\n');
  const login = page === GETTING_STARTED ? '' : `${runnableBlocks(read(GETTING_STARTED))[0] ?? ''}\n`;
  return (login + own)
    .replaceAll('http://127.0.0.1:8000', service.url)
    .replaceAll('http://localhost:10000', agentUrl)
    .replaceAll('http://127.0.0.1:10000', demoUrl)
    .replaceAll('http://127.0.0.1:10001', obedientUrl)
    .replaceAll('npm run warden --', `node ${path.join(ROOT, 'dist/cli.js')}`)
    .replaceAll('until curl ', 'until WARDEN_DOC_POLL=1 curl ');
}

describe('the examples of the docs', () => {
  it('are all in the pages this test runs', () => {
    const withBlocks = readdirSync(path.join(ROOT, 'docs'))
      .map((file) => `docs/${file}`)
      .filter((page) => runnableBlocks(read(page)).length > 0);
    expect(withBlocks.sort()).toEqual([...PAGES].sort());
  });

  for (const page of PAGES) {
    it(`${page}: every call answers what the page says`, async () => {
      const script = pageScript(page);
      const { code, stdout, stderr, log } = await runScript(PRELUDE + markExpectations(script));
      // Test credentials only, but a failure report has no need of them.
      const redact = (text: string) => text.replace(/Bearer \S+/g, 'Bearer …').replace(/("(?:current_|new_)?password":")[^"]*/g, '$1…');
      const report = redact(`\n--- calls ---\n${log.join('\n')}\n--- stderr ---\n${stderr}\n--- stdout ---\n${stdout.slice(-4000)}`);
      expect(code, report).toBe(0);
      // A polling loop (`until curl …; do sleep 1; done`) repeats one call: its calls count once.
      const calls = log.filter((line, i) => !(line.startsWith('poll ') && log[i - 1]?.startsWith('poll ')));
      expect(calls.length, report).toBe(curlCalls(script));
      expect(readdirSync(dir), 'a "# answers" mark with no call after it').not.toContain('expect');
      expect(missingInOrder(stdout, PRINTS[page] ?? []), report).toEqual([]);
    });
  }
});

/** The operations and list shapes docs/api.md states, against the service's own /openapi.json. */
describe('docs/api.md', () => {
  type Schema = { $ref?: string; type?: string; properties?: Record<string, unknown> };
  type Operation = { parameters?: Array<{ name: string; in: string; schema: { default?: number; maximum?: number } }>; responses: Record<string, any> };
  let openapi: { paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, Schema> } };
  const api = () => read('docs/api.md');
  beforeAll(async () => {
    openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as typeof openapi;
  });
  const resolve = (schema: Schema): Schema => (schema.$ref ? (openapi.components.schemas[schema.$ref.split('/').pop() ?? ''] ?? {}) : schema);

  it('lists every operation of the service', () => {
    const documented = new Set([...api().matchAll(/^\| [^|]+ \| `(GET|POST|PUT|PATCH|DELETE) ([^`?]+)[^`]*` \|/gm)].map((m) => `${m[1]} ${m[2]}`));
    const served = Object.entries(openapi.paths)
      .filter(([path]) => path.startsWith('/v1/'))
      .flatMap(([path, item]) => Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`));
    expect(served.filter((op) => !documented.has(op))).toEqual([]);
    expect([...documented].filter((op) => !served.includes(op))).toEqual([]);
  });

  it('says what every list answers, with its limits', () => {
    const rows = [...api().matchAll(/^ {2}\| `GET ([^`]+)` \| (`\{results, (?:count|total)\}`|array) \| (\S+) \| (\S+) \|$/gm)].map((m) => ({
      path: m[1] ?? '',
      answer: (m[2] ?? '').replaceAll('`', ''),
      limit: m[3] === '—' ? undefined : Number(m[3]),
      maximum: m[4] === '—' ? undefined : Number(m[4]),
    }));
    const lists = Object.entries(openapi.paths).flatMap(([path, item]) => {
      const get = item.get;
      const schema = get?.responses['200']?.content?.['application/json']?.schema;
      if (get === undefined || schema === undefined) return [];
      const body = resolve(schema);
      const limit = get.parameters?.find((p) => p.name === 'limit' && p.in === 'query')?.schema;
      const shape = body.type === 'array' ? 'array' : body.properties?.results ? `{results, ${'total' in body.properties ? 'total' : 'count'}}` : undefined;
      return shape === undefined ? [] : [{ path, answer: shape, limit: limit?.default, maximum: limit?.maximum }];
    });
    expect(lists.length).toBeGreaterThan(10);
    expect(rows.sort((a, b) => a.path.localeCompare(b.path))).toEqual(lists.sort((a, b) => a.path.localeCompare(b.path)));
  });
});
