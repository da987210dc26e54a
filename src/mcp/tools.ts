/**
 * Warden's tools for AI assistants (MCP): one list, served over stdio (`warden mcp`, calling the
 * public API with WARDEN_URL and WARDEN_API_KEY) and over Streamable HTTP at /mcp in the
 * service (calling the same API in process with the caller's own credential). Either way a tool
 * acts with its caller's permissions and teams, because every tool is a call of the public API.
 * Long operations (an evaluation, a campaign) return their id at once; a status tool reads them.
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { resolveAgent } from '../cli/agents.js';
import { CliError, type WardenApi } from '../cli/api.js';
import { scanConfigId } from '../cli/misc.js';
import type { Printer } from '../cli/output.js';

export const MCP_SERVER_NAME = 'warden';

type ToolResult = { content: { type: 'text'; text: string }[]; isError?: boolean };

const ok = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value, null, 2) }] });

/** Runs a tool's work; an API error (a missing permission, another team's id, bad input) is a tool error carrying the API's message. */
async function run(work: () => Promise<unknown>): Promise<ToolResult> {
  try {
    return ok(await work());
  } catch (error) {
    const message = error instanceof CliError ? error.message : `internal error: ${(error as Error).message}`;
    return { content: [{ type: 'text', text: message }], isError: true };
  }
}

const quiet: Printer = { json: true, out: () => {}, err: () => {} };

const agentRef = z.string().min(1).describe("The agent's id (UUID) or its exact name");
/** The rules' review statuses (src/modules/rules/rules.schemas.ts; test/mcp.test.ts checks they agree). */
export const RULE_STATUSES = ['draft', 'approved', 'rejected', 'modified'] as const;

const trustStage = z.enum(['registered', 'tested', 'hardened', 'trusted', 'optimized', 'adapted']);

export interface ToolDefinition {
  name: string;
  description: string;
}

/** Registers every tool on a server bound to one caller's API access. */
export function registerTools(server: McpServer, api: WardenApi): void {
  server.registerTool(
    'list_agents',
    {
      description: 'List the AI agents registered in Warden for your teams, with status, trust stage, protocol and latest test score.',
      inputSchema: {
        search: z.string().max(255).optional().describe('Only agents whose name or id contains this text (any case)'),
        stage: trustStage.optional().describe('Only agents at this trust stage'),
      },
    },
    ({ search, stage }) =>
      run(async () => {
        const page = await api.get<{ results: Record<string, unknown>[] }>('/v1/agent-configurations/', {
          include_scores: true,
          limit: 1000,
          search,
          trust_stage: stage,
        });
        return page.results.map((a) => ({
            id: a.id,
            agent_name: a.agent_name,
            status: a.status,
            trust_stage: a.trust_stage,
            protocol: a.protocol,
            protection_status: a.protection_status,
            test_score: a.test_score,
          }));
      }),
  );
  server.registerTool(
    'get_agent',
    {
      description: "Read one agent's full configuration (its key is never shown), trust stage, protection and evaluation evidence.",
      inputSchema: { agent: agentRef },
    },
    ({ agent }) => run(() => resolveAgent(api, agent)),
  );
  server.registerTool(
    'register_agent',
    {
      description: 'Register a new agent in Warden (stage "registered"). protocol is chat_completions (an OpenAI-compatible base URL) or a2a.',
      inputSchema: {
        agent_name: z.string().min(1),
        agent_url: z.string().url().describe('OpenAI-compatible base URL (…/v1) or A2A endpoint'),
        protocol: z.enum(['chat_completions', 'a2a']).default('chat_completions'),
        model_name: z.string().min(1).describe('The model the agent is called with (any label for an A2A agent)'),
        purpose: z.string().optional().describe('What the agent is for (red-team attacks are written for it)'),
        agent_system_prompt: z.string().optional(),
        rate_limit_requests_per_minute: z.number().int().positive().optional(),
      },
    },
    (input) => run(() => api.post('/v1/agent-configurations/', Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)))),
  );
  server.registerTool(
    'move_agent_lifecycle',
    {
      description: 'Move an agent to another trust stage: registered → tested → hardened → trusted → optimized → adapted.',
      inputSchema: { agent: agentRef, trust_stage: trustStage },
    },
    ({ agent, trust_stage }) =>
      run(async () => {
        const found = await resolveAgent(api, agent);
        return api.put(`/v1/agent-configurations/${found.id}/lifecycle`, { trust_stage });
      }),
  );
  server.registerTool(
    'start_evaluation',
    {
      description:
        'Start an evaluation of an agent with harnesses (security, privacy, safety, toxicity, ethics, reliability). Returns the evaluation id at once; ' +
        'poll get_evaluation for progress and scores. Evaluate all three pillars (security, safety, reliability) for a complete verdict.',
      inputSchema: {
        agent: agentRef,
        harnesses: z.array(z.string().min(1)).min(1),
        sample_size: z.number().int().min(1).max(1000).optional().describe('Prompts per harness (small numbers are quick)'),
        seed: z.number().int().min(0).optional(),
      },
    },
    ({ agent, harnesses, sample_size, seed }) =>
      run(async () => {
        const found = await resolveAgent(api, agent);
        return api.post('/v1/evaluations/', {
          agent_id: found.id,
          harness_names: harnesses,
          ...(sample_size ? { sample_size } : {}),
          ...(seed !== undefined ? { seed } : {}),
        });
      }),
  );
  server.registerTool(
    'get_evaluation',
    {
      description: "Read an evaluation's status and progress; once completed, its scores per harness and pillar with 95 % intervals and the verdict.",
      inputSchema: { evaluation_id: z.string().uuid() },
    },
    ({ evaluation_id }) =>
      run(async () => {
        const status = await api.get<{ status: string }>(`/v1/evaluations/${evaluation_id}`);
        if (status.status !== 'completed') return status;
        const summary = await api.get<Record<string, unknown>>(`/v1/evaluation-summaries/${evaluation_id}`);
        return { ...status, overall_score: summary.overall_score, pillar_details: summary.pillar_details };
      }),
  );
  server.registerTool(
    'get_trust_dashboard',
    { description: 'The trust dashboard: agents per trust stage, protection, time to trust and latest scores across your teams.', inputSchema: {} },
    () => run(() => api.get('/v1/dashboard/trust')),
  );
  server.registerTool(
    'scan_text',
    {
      description:
        'Scan a text with a Dome guard configuration (prompt injection, jailbreak, PII, toxicity …). Answers flagged, the score and which methods hit.',
      inputSchema: {
        text: z.string(),
        direction: z.enum(['input', 'output']).default('input').describe("input: a prompt to an agent; output: an agent's answer"),
        config_id: z.string().uuid().optional().describe('A Dome configuration (default: the default configuration)'),
        agent: agentRef.optional().describe('Use the configuration applied to this agent'),
      },
    },
    ({ text, direction, config_id, agent }) =>
      run(async () => {
        const id = await scanConfigId(api, { ...(config_id ? { config: config_id } : {}), ...(agent ? { agent } : {}) }, quiet);
        const result = await api.post<Record<string, unknown>>(`/v1/dome-configs/${id}/scan`, { direction, text });
        return {
          config_id: id,
          flagged: result.flagged,
          enforced: result.enforced,
          detection_score: result.detection_score,
          triggered_methods: result.triggered_methods,
          response_string: result.response_string,
        };
      }),
  );
  server.registerTool(
    'list_rules',
    {
      description: 'List policy rules with their review status and text (draft rules wait for a person to approve or reject them).',
      inputSchema: {
        status: z.enum(RULE_STATUSES).optional().describe('Only rules with this review status (draft: waiting for review)'),
        category: z.string().optional(),
        policy_id: z.string().uuid().optional(),
        limit: z.number().int().min(1).max(100).default(50),
        offset: z.number().int().min(0).default(0),
      },
    },
    (query) => run(() => api.get('/v1/rules/', query)),
  );
  server.registerTool(
    'review_rule',
    {
      description: 'Approve or reject a policy rule. A rejection needs a reason.',
      inputSchema: {
        rule_id: z.string().uuid(),
        decision: z.enum(['approve', 'reject']),
        reason: z.string().optional().describe('Why (required to reject; kept as notes on approval)'),
      },
    },
    ({ rule_id, decision, reason }) =>
      run(async () => {
        if (decision === 'reject') {
          if (!reason) throw new CliError('a rejection needs a reason');
          return api.post(`/v1/rules/${rule_id}/reject`, undefined, { reason });
        }
        return api.post(`/v1/rules/${rule_id}/approve`, undefined, reason ? { notes: reason } : undefined);
      }),
  );
  server.registerTool(
    'start_campaign',
    {
      description:
        'Start a red-team campaign against an agent (categories such as injection, pii, toxicity, jailbreak). Returns the campaign id at once; poll get_campaign.',
      inputSchema: {
        agent: agentRef,
        categories: z.array(z.string().min(1)).min(1),
        strategies: z.array(z.string().min(1)).optional().describe('Delivery strategies (default basic)'),
        num_tests: z.number().int().min(1).max(100).default(2),
        purpose: z.string().optional().describe("What the agent is for (default: the agent's purpose)"),
      },
    },
    ({ agent, categories, strategies, num_tests, purpose }) =>
      run(async () => {
        const found = await resolveAgent(api, agent);
        const why = purpose ?? found.purpose;
        if (!why) throw new CliError(`agent ${found.agent_name} has no purpose: give one`);
        return api.post('/v1/campaigns', {
          tool: 'diamond_security',
          agent_id: found.id,
          purpose: why,
          categories,
          num_tests,
          ...(strategies?.length ? { strategies } : {}),
        });
      }),
  );
  server.registerTool(
    'get_campaign',
    {
      description:
        "Read a red-team campaign's status; once completed, its attack success rates and the successful attacks (findings), a page at a time.",
      inputSchema: { campaign_id: z.string().uuid(), offset: z.number().int().min(0).default(0), limit: z.number().int().min(1).max(50).default(20) },
    },
    ({ campaign_id, offset, limit }) =>
      run(async () => {
        const status = await api.get<{ status: string }>(`/v1/campaigns/${campaign_id}`);
        if (status.status !== 'completed') return status;
        const results = await api.get<{ summary: unknown; findings: Record<string, unknown>[]; raw_output?: Record<string, unknown> }>(
          `/v1/campaigns/${campaign_id}/results`,
          { offset },
        );
        const successful = results.findings.filter((f) => f.passed === false).slice(0, limit);
        return {
          ...status,
          summary: results.summary,
          attack_success_rate: results.raw_output?.attack_success_rate,
          successful_attacks: successful,
          next_offset: (results as { next_offset?: unknown }).next_offset ?? null,
        };
      }),
  );
}

export function buildMcpServer(api: WardenApi, version: string): McpServer {
  const server = new McpServer({ name: MCP_SERVER_NAME, version }, { capabilities: { tools: {} } });
  registerTools(server, api);
  return server;
}
