import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the Red Team routes (tools, campaigns, their results, logs,
 * cancel, delete), for test/helpers/route-table.ts. Team A's member owns every campaign
 * `prepare` makes. The matrix starts no job runner: campaigns stay pending, against an address
 * that is never called.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;
const CAMPAIGN = { tool: 'diamond_security', agent_url: 'http://127.0.0.1:9/v1', purpose: 'A support assistant', categories: ['injection'], num_tests: 1 };

async function campaign(ctx: Ctx): Promise<string> {
  const res = await ctx.app.inject({ method: 'POST', url: '/v1/campaigns', headers: auth(A(ctx).member.token), payload: { ...CAMPAIGN, team_id: A(ctx).id } });
  if (res.statusCode !== 202) throw new Error(`campaign → ${res.statusCode}: ${res.body}`);
  return res.json().campaign_id as string;
}

const campaignRoute = (method: string, suffix: string, needs: string, query = '', member = 200): RouteCase => ({
  method,
  url: `/v1/campaigns/:campaign_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/campaigns/${await campaign(ctx)}${suffix}?team_id=${A(ctx).id}${query}` }),
});

export const REDTEAM_ROUTE_CASES: RouteCase[] = [
  { method: 'GET', url: '/v1/tools', needs: 'redteam:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/tools' }) },
  {
    method: 'POST',
    url: '/v1/campaigns',
    needs: 'redteam:write',
    // Without team_id, a campaign of the caller's own (primary) team.
    expect: { member: 202, otherTeam: 202 },
    prepare: async () => ({ url: '/v1/campaigns', body: CAMPAIGN }),
  },
  { method: 'GET', url: '/v1/campaigns', needs: 'redteam:read', expect: { member: 200, otherTeam: 200 }, prepare: async () => ({ url: '/v1/campaigns' }) },
  campaignRoute('GET', '', 'redteam:read'),
  campaignRoute('DELETE', '', 'redteam:write'),
  campaignRoute('GET', '/results', 'redteam:read'),
  campaignRoute('GET', '/results/download', 'redteam:read', '&format=csv'),
  campaignRoute('GET', '/logs', 'redteam:read'),
  // A pending campaign has no report yet: 409 for its team, 404 for any other.
  campaignRoute('GET', '/report', 'redteam:read', '&format=pdf', 409),
  campaignRoute('POST', '/cancel', 'redteam:write'),
];
