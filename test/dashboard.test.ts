import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeEvidence } from '../src/evaluation/evidence.js';
import { PILLARS, type Pillar } from '../src/evaluation/types.js';
import { newId } from '../src/ids.js';
import { findEvidence, saveEvidence } from '../src/modules/evaluations/evaluations.repo.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createAgent, createApiKey, createTeam, createWorld, type TeamFixture, type World } from './helpers/factories.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const HOUR = 3600;
const DAY = 86_400;
const get = (url: string, token: string | null) => t.app.inject({ method: 'GET', url, headers: token === null ? {} : bearer(token) });
const put = async (url: string, token: string, payload: unknown) => {
  const res = await t.app.inject({ method: 'PUT', url, headers: bearer(token), payload: payload as object });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
};
const moveTo = (id: string, token: string, stage: string) => put(`/v1/agent-configurations/${id}/lifecycle`, token, { trust_stage: stage });

async function addEvaluation(
  teamId: string,
  agentId: string,
  status: string,
  scores: Partial<Record<'overall' | 'reliability' | 'security' | 'safety', number>>,
  completedAt: number | null,
  id = newId(),
) {
  await t.database.db
    .insertInto('evaluations')
    .values({
      id,
      team_id: teamId,
      agent_id: agentId,
      status,
      overall_score: scores.overall ?? null,
      reliability_score: scores.reliability ?? null,
      security_score: scores.security ?? null,
      safety_score: scores.safety ?? null,
      created_at: t.clock.current,
      completed_at: completedAt,
    })
    .execute();
}

/**
 * A completed run as the service records it: the evaluation, and the agent's evidence merged
 * with what the run measured (src/evaluation/evidence.ts), written by the evaluations' repo.
 */
async function completeRun(teamId: string, agentId: string, scores: Partial<Record<Pillar, number>>, completedAt: number) {
  const id = newId();
  const measured = Object.values(scores);
  const overall = measured.reduce((a, b) => a + b, 0) / measured.length;
  await addEvaluation(teamId, agentId, 'completed', { ...scores, overall }, completedAt, id);
  const score = (value: number | undefined) => (value === undefined ? null : { score: value, n: 10, low: value - 0.1, high: value + 0.05 });
  const run = {
    evaluationId: id,
    at: completedAt,
    pillars: { reliability: score(scores.reliability), security: score(scores.security), safety: score(scores.safety) },
    harnesses: PILLARS.filter((p) => scores[p] !== undefined).map((p) => ({ name: p, pillar: p })),
  };
  await saveEvidence(t.database.db, agentId, mergeEvidence(await findEvidence(t.database.db, agentId), run));
}

describe('GET /v1/dashboard/trust', () => {
  let team: TeamFixture;

  it('is empty for a team without agents', async () => {
    const empty = await createTeam(t.app, world.admin, world.adminTeamId, 'dash-empty');
    const res = await get('/v1/dashboard/trust', empty.member.token);
    expect(res.statusCode, res.body).toBe(200);
    expectReferenceShape(res.json(), 'DashboardResponse');
    expect(res.json()).toEqual({
      time_to_trust: { average_days: null, trend_pct: null, recovery_avg_days: null },
      fleet_health: { by_stage: { registered: 0, tested: 0, hardened: 0, trusted: 0, optimized: 0, adapted: 0 }, under_attack: 0 },
      adaptivity: { acceptance_rate: null, proposed: 0, merged: 0, trend_pct: null },
      agents: [],
    });
  });

  it('computes stages, time to trust, time in stage, protection and latest scores from the data', async () => {
    team = await createTeam(t.app, world.admin, world.adminTeamId, 'dash');
    const token = team.member.token;
    const start = t.clock.current;

    const fast = await createAgent(t.app, token, { agent_name: 'Fast' }); // hardened after 2 days
    const bouncy = await createAgent(t.app, token, { agent_name: 'Bouncy' }); // hardened after 4 days, falls, recovers
    const fresh = await createAgent(t.app, token, { agent_name: 'Fresh', protection_status: 'domed' });
    const gone = await createAgent(t.app, token, { agent_name: 'Gone' });
    await put(`/v1/agent-configurations/${gone.id}/archive`, token, {});

    t.clock.advance(1 * DAY);
    await moveTo(fast.id, token, 'tested');
    t.clock.advance(1 * DAY);
    await moveTo(fast.id, token, 'hardened'); // ttt 2 days
    t.clock.advance(2 * DAY);
    await moveTo(bouncy.id, token, 'hardened'); // ttt 4 days
    t.clock.advance(1 * DAY);
    await moveTo(bouncy.id, token, 'tested'); // falls below hardened
    t.clock.advance(2 * DAY);
    await moveTo(bouncy.id, token, 'trusted'); // recovered after 2 days
    t.clock.advance(5 * HOUR + 10);

    // A run of every pillar, then a narrower one of security alone, then a failed run (which gives no evidence).
    await completeRun(team.id, fast.id, { reliability: 0.4, security: 0.6, safety: 0.5 }, t.clock.current - 3 * HOUR);
    await completeRun(team.id, fast.id, { security: 0.95 }, t.clock.current - HOUR);
    await addEvaluation(team.id, fast.id, 'failed', { overall: 0.1 }, t.clock.current);
    await addEvaluation(team.id, fresh.id, 'running', {}, null);

    const res = await get('/v1/dashboard/trust', token);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expectReferenceShape(body, 'DashboardResponse');
    for (const card of body.agents) expectReferenceShape(card, 'AgentTrustCard');

    expect(body.fleet_health).toEqual({ by_stage: { registered: 1, tested: 0, hardened: 1, trusted: 1, optimized: 0, adapted: 0 }, under_attack: 0 });
    expect(body.time_to_trust.average_days).toBeCloseTo(3, 10); // (2 + 4) / 2
    expect(body.time_to_trust.recovery_avg_days).toBeCloseTo(2, 10);
    expect(body.time_to_trust.trend_pct).toBeNull(); // nothing trusted in the 30 days before the last 30

    expect(body.agents.map((a: { name: string }) => a.name)).toEqual(['Fast', 'Bouncy', 'Fresh']);
    const [fastCard, bouncyCard, freshCard] = body.agents;
    expect(fastCard).toEqual({
      id: fast.id,
      name: 'Fast',
      stage: 'hardened',
      // The narrower run did not lower the pillars it did not measure; overall is the mean of the three.
      trust_scores: { overall: (0.4 + 0.95 + 0.5) / 3, reliability: 0.4, security: 0.95, safety: 0.5 },
      trust_breakdown: {
        reliability: { overall: 0.4, detectors: {} },
        security: { overall: 0.95, detectors: {} },
        safety: { overall: 0.5, detectors: {} },
      },
      redteam_findings_by_category: {},
      under_attack: false,
      pending_prs: 0,
      evaluating: false,
      darwin_cycles: 0,
      time_in_stage_hours: Math.floor((t.clock.current - (start + 2 * DAY)) / HOUR),
      ttt_days: 2,
      dome_protected: false,
      owner_name: team.member.email,
    });
    expect(bouncyCard).toMatchObject({ stage: 'trusted', trust_scores: {}, time_in_stage_hours: 5, ttt_days: 4, evaluating: false });
    expect(freshCard).toMatchObject({
      stage: 'registered',
      ttt_days: null,
      dome_protected: true,
      evaluating: true,
      time_in_stage_hours: Math.floor((t.clock.current - start) / HOUR),
    });
  });

  it('shows the trend of time to trust once there are agents trusted in both windows', async () => {
    const token = team.member.token;
    t.clock.advance(40 * DAY); // Fast (2 days) and Bouncy (4 days) are now in the earlier window
    const late = await createAgent(t.app, token, { agent_name: 'Late' });
    t.clock.advance(6 * DAY);
    await moveTo(late.id, token, 'hardened'); // 6 days, in the last 30 days
    const body = (await get('/v1/dashboard/trust', token)).json();
    expectReferenceShape(body, 'DashboardResponse');
    // Fast was hardened on day 2, Bouncy on day 4: both are now 49–51 days back, so the earlier
    // window averages (2 + 4) / 2 = 3 against 6 now: +100 %.
    expect(body.time_to_trust.trend_pct).toBeCloseTo(100, 10);
    expect(body.time_to_trust.average_days).toBeCloseTo(4, 10);
  });

  it('time in stage ignores lifecycle updates that keep the stage (a second PUT of hardened)', async () => {
    const own = await createTeam(t.app, world.admin, world.adminTeamId, 'dash-same-stage');
    const token = own.member.token;
    const agent = await createAgent(t.app, token, { agent_name: 'Steady' });
    t.clock.advance(3 * HOUR);
    await moveTo(agent.id, token, 'hardened');
    const enteredAt = t.clock.current;
    t.clock.advance(10 * HOUR);
    await moveTo(agent.id, token, 'hardened'); // same stage: renews trusted_at, is recorded, is not a move
    t.clock.advance(4 * HOUR);
    await moveTo(agent.id, token, 'hardened');
    t.clock.advance(2 * HOUR + 5);

    const history = (await get(`/v1/agent-configurations/${agent.id}/lifecycle/history`, token)).json();
    expect(history.results.map((e: { from_stage: string | null; to_stage: string }) => `${e.from_stage}>${e.to_stage}`)).toEqual(
      expect.arrayContaining(['registered>hardened', 'hardened>hardened']),
    );
    expect(history.count).toBe(4);

    const card = (await get('/v1/dashboard/trust', token)).json().agents[0];
    expect(card).toMatchObject({ name: 'Steady', stage: 'hardened', time_in_stage_hours: 16 });
    expect(card.time_in_stage_hours).toBe(Math.floor((t.clock.current - enteredAt) / HOUR));
    expect(card.ttt_days).toBeCloseTo((17 * HOUR) / DAY, 10); // renewed by the last PUT, as the seed says
  });

  it("shows only the caller's team; another team's id answers 404", async () => {
    const betaAgent = await createAgent(t.app, world.teamB.member.token, { agent_name: 'Beta only' });
    const other = (await get('/v1/dashboard/trust', world.teamB.member.token)).json();
    expectReferenceShape(other, 'DashboardResponse');
    expect(other.agents.map((a: { id: string; name: string }) => [a.id, a.name])).toEqual([[betaAgent.id, 'Beta only']]);
    expect(other.fleet_health.by_stage).toEqual({ registered: 1, tested: 0, hardened: 0, trusted: 0, optimized: 0, adapted: 0 });
    expect(other.time_to_trust).toEqual({ average_days: null, trend_pct: null, recovery_avg_days: null });
    expectDetail(await get(`/v1/dashboard/trust?team_id=${team.id}`, world.teamB.member.token), 404);
    const asAdmin = (await get(`/v1/dashboard/trust?team_id=${team.id}`, world.admin.token)).json();
    expect(asAdmin.agents.map((a: { name: string }) => a.name)).toEqual(['Fast', 'Bouncy', 'Fresh', 'Late']);
    expect422(await get('/v1/dashboard/trust?team_id=nope', world.admin.token), ['query', 'team_id'], 'uuid_parsing');
  });

  it('answers 401 without a credential and 403 to a key without agent:read', async () => {
    expectDetail(await get('/v1/dashboard/trust', null), 401);
    const personaOnly = await createApiKey(t.app, team.member.token, ['persona:read']);
    expectDetail(await get('/v1/dashboard/trust', personaOnly), 403);
    const reader = await createApiKey(t.app, team.member.token, ['agent:read']);
    expect((await get('/v1/dashboard/trust', reader)).statusCode).toBe(200);
  });
});
