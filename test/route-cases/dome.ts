import { randomUUID } from 'node:crypto';
import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the Dome routes (configurations, their application, scans,
 * Dome's registration webhook, detections), for test/helpers/route-table.ts. Team A's member
 * owns every resource `prepare` makes.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;

async function config(ctx: Ctx, bound = false): Promise<string> {
  const payload: Record<string, unknown> = {};
  if (bound) payload.agent_id = (await ctx.createAgent()).id;
  const res = await ctx.app.inject({ method: 'POST', url: `/v1/dome-configs?team_id=${A(ctx).id}`, headers: auth(A(ctx).member.token), payload });
  if (res.statusCode !== 201) throw new Error(`dome config → ${res.statusCode}: ${res.body}`);
  return res.json().id as string;
}

const configRoute = (method: string, suffix: string, needs: string, member: number, body?: unknown, bound = false): RouteCase => ({
  method,
  url: `/v1/dome-configs/:config_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/dome-configs/${await config(ctx, bound)}${suffix}?team_id=${A(ctx).id}`, body }),
});

export const DOME_ROUTE_CASES: RouteCase[] = [
  {
    method: 'POST',
    url: '/v1/dome-configs',
    needs: 'guardrail:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/dome-configs?team_id=${A(ctx).id}`, body: {} }),
  },
  {
    method: 'GET',
    url: '/v1/dome-configs',
    needs: 'guardrail:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/dome-configs?team_id=${A(ctx).id}` }),
  },
  configRoute('GET', '', 'guardrail:read', 200),
  configRoute('PUT', '', 'guardrail:write', 200, { config_body: { 'input-guards': [], 'output-guards': [] } }),
  configRoute('PATCH', '', 'guardrail:write', 200, { dome_instance_url: 'https://dome.example.com' }),
  configRoute('DELETE', '', 'guardrail:write', 204),
  configRoute('POST', '/apply', 'guardrail:write', 200, undefined, true),
  configRoute('POST', '/scan', 'guardrail:read', 200, { direction: 'input', text: 'What are your opening hours?' }),
  {
    method: 'GET',
    url: '/v1/default-dome-config',
    needs: null,
    public: true,
    expect: {
      member: 200,
      anonymous: 200,
      malformed: 200,
      expired: 200,
      revokedSession: 200,
      revokedKey: 200,
      keyWithoutPermission: 200,
      otherTeam: 200,
      superAdmin: 200,
    },
    prepare: async () => ({ url: '/v1/default-dome-config' }),
  },
  {
    method: 'POST',
    url: '/v1/webhooks/register-dome',
    needs: 'guardrail:write',
    expect: { member: 200 },
    prepare: async (ctx) => ({
      url: '/v1/webhooks/register-dome',
      body: { agent_id: (await ctx.createAgent()).id, team_id: A(ctx).id, dome_url: 'https://dome.example.com' },
    }),
  },
  {
    method: 'POST',
    url: '/v1/detections',
    needs: 'guardrail:write',
    // Another team's member detects in their own (primary) team.
    expect: { member: 201, otherTeam: 201 },
    prepare: async () => ({
      url: '/v1/detections',
      body: { id: randomUUID(), detector_id: 'prompt-injection-warden', detector_inputs: [{ prompt: 'hello' }] },
    }),
  },
  {
    method: 'GET',
    url: '/v1/detections/:detection_id',
    needs: 'guardrail:read',
    expect: { member: 200 },
    prepare: async (ctx) => {
      const id = randomUUID();
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/v1/detections?team_id=${A(ctx).id}`,
        headers: auth(A(ctx).member.token),
        payload: { id, detector_id: 'prompt-injection-warden', detector_inputs: [{ prompt: 'hello' }] },
      });
      if (res.statusCode !== 201) throw new Error(`detection → ${res.statusCode}: ${res.body}`);
      return { url: `/v1/detections/${id}` };
    },
  },
  // the agent views built from the applied configuration
  {
    method: 'GET',
    url: '/v1/agent-configurations/:agent_id/dome-configs',
    needs: 'guardrail:read',
    expect: { member: 200 },
    prepare: async (ctx) => {
      const agent = await ctx.createAgent({ dome_config_id: '01890000-0000-7000-8000-00000000d0e0' });
      return { url: `/v1/agent-configurations/${agent.id}/dome-configs?team_id=${A(ctx).id}` };
    },
  },
  {
    method: 'GET',
    url: '/v1/agents/:agent_id/constraints',
    needs: 'agent:read',
    expect: { member: 200 },
    prepare: async (ctx) => ({ url: `/v1/agents/${(await ctx.createAgent()).id}/constraints` }),
  },
];
