import { describe, expect, it } from 'vitest';
import { runDetection } from '../guard/engine.js';
import { analyseSource, splitSource } from './static-analysis.js';

const detectSecrets = (text: string) => runDetection('detect-secrets', text, { censor: false }, {});
const KEY = 'sk-proj-Q3v8ZrT1mN6pW2xY9aB4cD7eF0gH5jK8';

const AGENT = [
  'import os, subprocess',
  'from langchain.tools import tool',
  `OPENAI_API_KEY = "${KEY}"`,
  '',
  'def build_prompt(user_input):',
  '    system_prompt = f"You are a banking assistant. The customer says: {user_input}"',
  '    return system_prompt',
  '',
  '@tool',
  'def run_command(command: str) -> str:',
  '    """Runs a maintenance command."""',
  '    return subprocess.run(command, shell=True, capture_output=True).stdout',
].join('\n');

const SAFE = [
  'import os',
  'API_KEY = os.environ["OPENAI_API_KEY"]',
  'ALLOWED_COMMANDS = {"uptime", "df"}',
  'SYSTEM_PROMPT = "You are a banking assistant."',
  'def build_messages(user_input):',
  '    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user_input}]',
  '@tool',
  'def run_command(command: str) -> str:',
  '    if command not in ALLOWED_COMMANDS: raise ValueError("not allowed")',
  '    return subprocess.run([command], capture_output=True).stdout',
].join('\n');

describe('analyseSource (white box)', () => {
  it('reports a hard-coded secret without quoting it, a prompt built from user input, and a tool with no allow-list', async () => {
    const report = await analyseSource(AGENT, 'main.py', detectSecrets);
    expect(report.notChecked).toEqual([]);
    const byRule = Object.fromEntries(report.findings.map((f) => [f.rule, f]));
    expect(byRule['hardcoded-secret']).toMatchObject({ file: 'main.py', line: 3, severity: 'critical' });
    expect(byRule['hardcoded-secret']?.excerpt).toContain('[secret]');
    expect(JSON.stringify(report)).not.toContain(KEY.slice(8));
    expect(byRule['prompt-concatenation']).toMatchObject({ line: 6 });
    expect(byRule['unrestricted-tool']).toMatchObject({ line: 9, detail: expect.stringMatching(/run_command runs shell commands/) });
  });

  it('quotes no secret in any excerpt: two on one line, one on a prompt line or a tool line', async () => {
    const aws = 'AKIAQ3V7ZRT2MN6PW2XY';
    const github = 'ghp_Q3v8ZrT1mN6pW2xY9aB4cD7eF0gH5jK8L1mN';
    const source = [
      `KEYS = {"aws": "${aws}", "github": "${github}"}`,
      `def build_prompt(user_input): prompt = f"key ${aws}: {user_input}"`,
      `@tool(name="shell", token="${github}")`,
      'def run_shell(command): return subprocess.run(command, shell=True)',
    ].join('\n');
    const report = await analyseSource(source, 'main.py', detectSecrets);
    expect(report.findings.map((f) => f.rule)).toEqual(expect.arrayContaining(['hardcoded-secret', 'prompt-concatenation', 'unrestricted-tool']));
    for (const finding of report.findings) {
      for (const secret of [github, aws]) expect(finding.excerpt, `${finding.rule} line ${finding.line}`).not.toContain(secret.slice(4, -4));
    }
    expect(report.findings.find((f) => f.rule === 'hardcoded-secret' && f.line === 1)?.excerpt).toBe('KEYS = {"aws": "[secret]", "github": "[secret]"}');
    // The secrets check could not run: no line is quoted at all.
    const blind = await analyseSource(source, 'main.py', async () => ({ hit: false, score: 0, label: 'error', details: { error: 'down' } }));
    expect(blind.findings.length).toBeGreaterThan(0);
    expect(JSON.stringify(blind.findings)).not.toContain(github.slice(4, -4));
  });

  it('finds nothing in code that reads its key from the environment, keeps the user in their own message and checks an allow-list', async () => {
    expect((await analyseSource(SAFE, 'main.py', detectSecrets)).findings).toEqual([]);
  });

  it('reads JavaScript spellings too', async () => {
    const js = [
      'const prompt = `You are a helper. User: ${req.body.message}`;',
      'const tools = [tool({ name: "fetch_url", execute: async ({ url }) => fetch(url) })];',
    ].join('\n');
    expect((await analyseSource(js, 'agent.ts', detectSecrets)).findings.map((f) => f.rule).sort()).toEqual(['prompt-concatenation', 'unrestricted-tool']);
  });

  it('names files as agent import stored them, and says when the secrets detector could not run', async () => {
    const source = '# ==== file: main.py ====\nprint(1)\n# ==== file: tools/db.py ====\nx = 1\n';
    expect(splitSource(source, 'main.py').map((f) => f.name)).toEqual(['main.py', 'tools/db.py']);
    const report = await analyseSource(source, 'main.py', async () => ({ hit: false, score: 0, label: 'error', details: { error: 'down' } }));
    expect(report.notChecked).toEqual([{ rule: 'hardcoded-secret', reason: 'down' }]);
    expect(report.files).toBe(2);
  });
});
