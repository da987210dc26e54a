#!/usr/bin/env node
/**
 * `warden`: Warden from a terminal, a CI pipeline or an AI assistant (docs/cli.md). The client
 * commands talk to a running Warden over its public API (WARDEN_URL, WARDEN_API_KEY or the
 * token `warden login` saved); `migrate` and `create-admin` are the service's own tasks and
 * open its database. Exit codes: 0 success or bound met, 1 bound not met or scan flagged,
 * 2 usage, connection or service error.
 *
 * Only what a command needs is imported, when it runs: a client command never loads the
 * service, so every command answers in well under a second before its own work.
 */
import { Command, CommanderError, Option } from 'commander';
import { CliError, WardenApi, httpTransport } from './cli/api.js';
import { forgetToken, storedToken } from './cli/credentials.js';
import { consolePrinter, type Printer } from './cli/output.js';

const DEFAULT_URL = 'http://127.0.0.1:8000';

interface Globals {
  url?: string;
  json?: boolean;
}

const split = (value: string): string[] =>
  value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
const number = (name: string) => (value: string) => {
  const n = Number(value);
  if (!Number.isFinite(n)) throw new CliError(`${name} takes a number, not "${value}"`);
  return n;
};
const integer = (name: string) => (value: string) => {
  const n = number(name)(value);
  if (!Number.isInteger(n) || n < 0) throw new CliError(`${name} takes a whole number, not "${value}"`);
  return n;
};

function context(command: Command): { api: WardenApi; print: Printer; url: string } {
  const globals = command.optsWithGlobals<Globals>();
  const url = (globals.url ?? process.env.WARDEN_URL ?? DEFAULT_URL).replace(/\/+$/, '');
  const token = process.env.WARDEN_API_KEY || storedToken(url);
  return { api: new WardenApi(httpTransport(url), token, url), print: consolePrinter(Boolean(globals.json)), url };
}

let exitCode = 0;
/** Runs a command's work and keeps its exit code (a void answer is 0). */
const act =
  <A extends unknown[]>(work: (...args: A) => Promise<number | void>) =>
  async (...args: A): Promise<void> => {
    exitCode = (await work(...args)) ?? 0;
  };

export function program(): Command {
  const root = new Command('warden')
    .description("Warden, the control plane for AI agents: a client of a running Warden, and the service's own tasks")
    .option('--url <url>', `the Warden to talk to (default: WARDEN_URL, else ${DEFAULT_URL})`)
    .option('--json', 'print machine-readable JSON')
    .showSuggestionAfterError()
    // Set before the subcommands are added, so that they inherit them: a usage error exits 2, not 1.
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text.replace(/^error: /, 'warden: ')) })
    .configureHelp({ sortSubcommands: false })
    .addHelpText(
      'after',
      '\nCredentials: WARDEN_API_KEY (an API key or a token), else the token `warden login` saved.\nExit codes: 0 success or bound met, 1 bound not met or scan flagged, 2 usage, connection or service error.',
    );

  root
    .command('login')
    .description('log in with your e-mail and password and save the token (mode 0600) for this Warden')
    .option('--email <email>', 'your e-mail (asked when absent)')
    .action(
      act(async (options: { email?: string }, command: Command) => {
        const { api, print, url } = context(command);
        const { login } = await import('./cli/misc.js');
        await login(api, print, url, options.email);
      }),
    );
  root
    .command('logout')
    .description('forget the token saved for this Warden')
    .action(
      act(async (_options: unknown, command: Command) => {
        const { print, url } = context(command);
        const forgot = forgetToken(url);
        print.out(print.json ? JSON.stringify({ url, forgot }) : forgot ? `forgot the token for ${url}` : `no token was saved for ${url}`);
      }),
    );

  const agents = root.command('agents').description('list, read, register, import agents and move their trust stage');
  agents
    .command('list')
    .description('the agents of your teams, with their stage and latest score')
    .option('--status <statuses>', 'only these statuses (comma-separated: active, draft, archived, …)')
    .option('--stage <stage>', 'only this trust stage')
    .option('--search <text>', 'only agents whose name or id holds this text (any case)')
    .action(
      act(async (options: { status?: string; stage?: string; search?: string }, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/agents.js')).listAgents(api, print, options);
      }),
    );
  agents
    .command('get <agent>')
    .description('one agent, by id or exact name')
    .action(
      act(async (agent: string, _options: unknown, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/agents.js')).getAgent(api, print, agent);
      }),
    );
  agents
    .command('register')
    .description('register an agent from flags or a JSON/YAML file of its fields')
    .option('-f, --file <file>', "a JSON or YAML file with the agent's fields (as POST /v1/agent-configurations/ takes them)")
    .option('--name <name>', 'agent_name')
    .option('--agent-url <url>', 'agent_url: its OpenAI-compatible base URL or A2A endpoint')
    .option('--model <model>', 'model_name (required by the API; any label for an A2A agent)')
    .option('--protocol <protocol>', 'chat_completions or a2a')
    .option('--purpose <text>', 'what the agent is for')
    .option('--system-prompt <text>', 'agent_system_prompt')
    .option('--api-key-env <VAR>', "the environment variable holding the agent's key (a flag would stay in shell history)")
    .option('--rate-limit <n>', 'rate_limit_requests_per_minute', integer('--rate-limit'))
    .action(
      act(async (options: Record<string, unknown>, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/agents.js')).registerAgent(api, print, { ...options, url: options.agentUrl as string | undefined });
      }),
    );
  agents
    .command('import <source>')
    .description('import an agent from its URL (its A2A card is looked for) or an AgentCard JSON/YAML file')
    .option('--api-key-env <VAR>', "the environment variable holding the agent's key")
    .action(
      act(async (source: string, options: { apiKeyEnv?: string }, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/agents.js')).importAgent(api, print, source, options);
      }),
    );
  agents
    .command('lifecycle <agent> <stage>')
    .description('move an agent to a trust stage (registered, tested, hardened, trusted, optimized, adapted)')
    .action(
      act(async (agent: string, stage: string, _options: unknown, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/agents.js')).moveLifecycle(api, print, agent, stage);
      }),
    );

  root
    .command('evaluate <agent>')
    .description('evaluate an agent with harnesses; with --fail-under, exit 1 when a harness scores below the bound')
    .requiredOption(
      '--harness <names>',
      'harnesses, comma-separated (security, privacy, safety, toxicity, ethics, reliability, or a custom harness id)',
      split,
    )
    .option('--sample-size <n>', 'prompts drawn per harness (all when absent)', integer('--sample-size'))
    .option('--seed <seed>', 'the sampling seed, to repeat a run exactly', integer('--seed'))
    .option('--team <team_id>', 'the team to run it in (default: your primary team)')
    .option('--wait', 'wait for the end, with progress, and print the scores')
    .option('--fail-under <score>', 'exit 1 when a harness asked for scores below this (0..1); implies --wait', number('--fail-under'))
    .option('--report <file>', 'save the report (.pdf or .html); implies --wait')
    .option('--junit <file>', 'write JUnit XML (a case per harness and per failed prompt); implies --wait')
    .action(
      act(async (agent: string, options: Record<string, unknown>, command: Command) => {
        const { api, print } = context(command);
        return (await import('./cli/evaluate.js')).evaluate(api, print, agent, options as never);
      }),
    );

  root
    .command('redteam <agent>')
    .description('attack an agent with a red-team campaign; with --fail-over, exit 1 when the attack success rate is above the bound')
    .requiredOption('--categories <names>', 'attack categories, comma-separated (GET /v1/tools lists them)', split)
    .option('--strategies <names>', 'delivery strategies, comma-separated (default basic)', split)
    .option('--num-tests <n>', 'attacks per category', integer('--num-tests'))
    .option('--purpose <text>', "what the agent is for (default: the agent's purpose)")
    .option('--team <team_id>', 'the team to run it in')
    .option('--wait', 'wait for the end and print the attack success rates')
    .option('--fail-over <rate>', 'exit 1 when the attack success rate is above this (0..1); implies --wait', number('--fail-over'))
    .option('--download <file>', 'save the findings (.csv, .json or .jsonl); implies --wait')
    .option('--junit <file>', 'write JUnit XML (a case per category and per successful attack); implies --wait')
    .action(
      act(async (agent: string, options: Record<string, unknown>, command: Command) => {
        const { api, print } = context(command);
        return (await import('./cli/redteam.js')).redteam(api, print, agent, options as never);
      }),
    );

  root
    .command('scan <text>')
    .description('scan a text with a Dome configuration; exit 1 when it is flagged')
    .option('--config <id>', 'the Dome configuration (default: the default configuration)')
    .option('--agent <agent>', 'the configuration applied to this agent')
    .option('--output', "run the output guards (an agent's answer) instead of the input guards")
    .action(
      act(async (text: string, options: { config?: string; agent?: string; output?: boolean }, command: Command) => {
        const { api, print } = context(command);
        return (await import('./cli/misc.js')).scan(api, print, text, options);
      }),
    );

  root
    .command('rules')
    .description('policy rules')
    .command('list')
    .description('list policy rules with their review status and text')
    .option('--status <status>', 'only rules with this review status: draft (waiting for review), approved, rejected or modified')
    .option('--category <category>', 'only rules of this category (security, privacy, …)')
    .option('--policy <policy_id>', "only this policy's rules")
    .action(
      act(async (options: { status?: string; category?: string; policy?: string }, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/misc.js')).listRules(api, print, options);
      }),
    );

  root
    .command('policies')
    .description('policies')
    .command('upload <file>')
    .description('upload a policy document (PDF, Markdown, text, Word) to a new or existing policy')
    .option('--policy <policy_id>', 'upload to this policy (a new one is created when absent)')
    .option('--name <name>', "the new policy's name (default: the file's name)")
    .option('--category <category>', "the new policy's category (default security)")
    .action(
      act(async (file: string, options: { policy?: string; name?: string; category?: string }, command: Command) => {
        const { api, print } = context(command);
        await (await import('./cli/misc.js')).uploadPolicy(api, print, file, options);
      }),
    );

  root
    .command('run <file>')
    .description('configuration as code: register or update the agents of a YAML/JSON file, run its evaluations and campaigns, gate on their bounds')
    .action(
      act(async (file: string, _options: unknown, command: Command) => {
        const { api, print } = context(command);
        return (await import('./cli/config-file.js')).runFile(api, print, file);
      }),
    );
  root
    .command('init [file]')
    .description('write a commented example warden.yaml')
    .option('--force', 'replace an existing file')
    .action(
      act(async (file: string | undefined, options: { force?: boolean }, command: Command) => {
        const { print } = context(command);
        (await import('./cli/config-file.js')).init(print, file ?? 'warden.yaml', Boolean(options.force));
      }),
    );

  root
    .command('mcp')
    .description("serve Warden's tools to an AI assistant over MCP on standard input and output (WARDEN_URL, WARDEN_API_KEY)")
    .action(
      act(async (_options: unknown, command: Command) => {
        const { api } = context(command);
        await (await import('./mcp/stdio.js')).serveStdio(api);
        return new Promise<number>(() => {});
      }),
    );

  root
    .command('migrate')
    .description("service task: bring the database schema up to date (reads the service's WARDEN_* settings)")
    .action(act(async () => (await import('./cli/service-tasks.js')).migrate()));
  root
    .command('create-admin')
    .description('service task: create a super admin from WARDEN_ADMIN_EMAIL and WARDEN_ADMIN_PASSWORD (or --email, --password)')
    .addOption(new Option('--email <email>'))
    .addOption(new Option('--password <password>', 'leaves the password in shell history: prefer WARDEN_ADMIN_PASSWORD'))
    .action(
      act(async (options: { email?: string; password?: string }) => {
        const args = [...(options.email ? ['--email', options.email] : []), ...(options.password ? ['--password', options.password] : [])];
        return (await import('./cli/service-tasks.js')).createAdmin(args);
      }),
    );

  return root;
}

async function main(argv: string[]): Promise<number> {
  const root = program();
  try {
    await root.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with code 0; a usage error was already printed.
      return error.exitCode === 0 ? 0 : 2;
    }
    throw error;
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (error: unknown) => {
    const { ConfigError } = await import('./config.js');
    const message = error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.message : String(error);
    process.stderr.write(`warden: ${message}\n`);
    process.exit(error instanceof CliError ? error.exitCode : 2);
  },
);
