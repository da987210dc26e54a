import type { Ctx, RouteCase } from '../helpers/route-table.js';

/**
 * The isolation-matrix entries of the Diamond routes (evaluations, their results, summaries and
 * reports, harnesses, custom harnesses), for test/helpers/route-table.ts. Team A's member owns
 * every resource `prepare` makes. The matrix's app runs no jobs: evaluations stay queued
 * (`running`), so the report routes answer the member 409 (not completed yet), after the
 * permission and team checks the matrix is about.
 */
const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const A = (ctx: Ctx) => ctx.world.teamA;

async function evaluation(ctx: Ctx): Promise<string> {
  const agent = await ctx.createAgent({ agent_url: 'http://127.0.0.1:9/v1' });
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/v1/evaluations/',
    headers: auth(A(ctx).member.token),
    payload: { agent_id: agent.id, team_id: A(ctx).id, harness_names: ['security'], sample_size: 1 },
  });
  if (res.statusCode !== 202) throw new Error(`evaluation → ${res.statusCode}: ${res.body}`);
  return res.json().evaluation_id as string;
}

async function customHarness(ctx: Ctx): Promise<string> {
  const agent = await ctx.createAgent();
  const res = await ctx.app.inject({
    method: 'POST',
    url: `/v1/custom-harnesses/?team_id=${A(ctx).id}`,
    headers: auth(A(ctx).member.token),
    payload: { name: 'matrix harness', agent_id: agent.id },
  });
  if (res.statusCode !== 201) throw new Error(`custom harness → ${res.statusCode}: ${res.body}`);
  return res.json().id as string;
}

const onEvaluation = (method: string, base: string, suffix: string, needs: string, member: number): RouteCase => ({
  method,
  url: `${base}/:evaluation_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `${base}/${await evaluation(ctx)}${suffix}?team_id=${A(ctx).id}` }),
});

const onHarness = (method: string, suffix: string, needs: string, member: number): RouteCase => ({
  method,
  url: `/v1/custom-harnesses/:harness_id${suffix}`,
  needs,
  expect: { member },
  prepare: async (ctx) => ({ url: `/v1/custom-harnesses/${await customHarness(ctx)}${suffix}?team_id=${A(ctx).id}` }),
});

const teamList = (url: string, needs = 'evaluation:read'): RouteCase => ({
  method: 'GET',
  url,
  needs,
  expect: { member: 200 },
  prepare: async (ctx) => ({ url: `${url}?team_id=${A(ctx).id}` }),
});

export const EVALUATION_ROUTE_CASES: RouteCase[] = [
  {
    method: 'POST',
    url: '/v1/evaluations/',
    needs: 'evaluation:write',
    expect: { member: 202 },
    prepare: async (ctx) => {
      const agent = await ctx.createAgent({ agent_url: 'http://127.0.0.1:9/v1' });
      return { url: '/v1/evaluations/', body: { agent_id: agent.id, team_id: A(ctx).id, harness_names: ['safety'], sample_size: 1 } };
    },
  },
  teamList('/v1/evaluations/'),
  onEvaluation('GET', '/v1/evaluations', '', 'evaluation:read', 200),
  onEvaluation('DELETE', '/v1/evaluations', '', 'evaluation:write', 200),
  onEvaluation('POST', '/v1/evaluations', '/cancel', 'evaluation:write', 200),
  onEvaluation('GET', '/v1/evaluations', '/logs', 'evaluation:read', 200),
  onEvaluation('GET', '/v1/evaluations', '/html', 'evaluation:read', 409),
  onEvaluation('GET', '/v1/evaluations', '/pdf', 'evaluation:read', 409),
  onEvaluation('POST', '/v1/evaluations', '/report', 'evaluation:write', 409),
  teamList('/v1/evaluation-results/'),
  onEvaluation('GET', '/v1/evaluation-results', '/results', 'evaluation:read', 200),
  onEvaluation('GET', '/v1/evaluation-results', '/report', 'evaluation:read', 409),
  onEvaluation('GET', '/v1/evaluation-results', '/report.html', 'evaluation:read', 409),
  teamList('/v1/evaluation-summaries/'),
  teamList('/v1/evaluation-summaries/latest-by-agent'),
  onEvaluation('GET', '/v1/evaluation-summaries', '', 'evaluation:read', 200),
  onEvaluation('DELETE', '/v1/evaluation-summaries', '', 'evaluation:write', 204),
  teamList('/v1/harnesses/'),
  {
    method: 'POST',
    url: '/v1/custom-harnesses/',
    needs: 'evaluation:write',
    expect: { member: 201 },
    prepare: async (ctx) => ({ url: `/v1/custom-harnesses/?team_id=${A(ctx).id}`, body: { name: 'matrix', agent_id: (await ctx.createAgent()).id } }),
  },
  teamList('/v1/custom-harnesses/'),
  onHarness('GET', '', 'evaluation:read', 200),
  onHarness('DELETE', '', 'evaluation:write', 204),
  onHarness('POST', '/cancel', 'evaluation:write', 200),
  onHarness('GET', '/prompts', 'evaluation:read', 200),
];
