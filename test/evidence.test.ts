import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentConnector } from '../src/connector/index.js';
import { fillPillarEvidence } from '../src/db/migrations/0012_pillar_evidence.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, rawHeaderValues, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { expectReferenceShape } from './helpers/reference.js';

/**
 * Issue 27, part 1: a verdict only on complete evidence (the agent keeps each pillar's latest
 * measurement), a dead agent's run failing fast, a report for every ended run, downloads.
 */

let t: TestApp;
let world: World;
const connector = quickConnector();
const started: TestAgent[] = [];
let refusing: TestAgent;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  refusing = await startTestAgent('refusing');
  started.push(refusing);
});
afterAll(async () => {
  await t.close();
  connector.close();
  await Promise.all(started.map((agent) => agent.close()));
});

const token = () => world.teamA.member.token;
const call = (method: 'GET' | 'POST', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(token()), ...(payload === undefined ? {} : { payload }) });

async function evaluate(agentId: string, harnesses: string[], extra: Record<string, unknown> = {}) {
  const id = await startEvaluation(t.app, token(), { agent_id: agentId, harness_names: harnesses, ...extra });
  return waitForEvaluation(t.app, token(), id);
}

const pdfText = async (pdf: Buffer) => (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;

describe('complete evidence or no PASS', () => {
  let agentId: string;
  let full: any;
  let narrow: any;

  beforeAll(async () => {
    agentId = (await registerAgent(t.app, token(), refusing, { agent_name: 'Evidence' })).id;
    full = await evaluate(agentId, ['security', 'safety', 'reliability'], { sample_size: 12, seed: 5 });
    t.clock.advance(600);
    narrow = await evaluate(agentId, ['security'], { sample_size: 12, seed: 6 });
  }, 60_000);

  it('gives the run of every pillar a PASS or FAIL, and the security-only run INCOMPLETE naming what is missing', async () => {
    expect([full.status, narrow.status]).toEqual(['completed', 'completed']);
    const fullSummary = (await call('GET', `/v1/evaluation-summaries/${full.evaluation_id}`)).json();
    expectReferenceShape(fullSummary, 'EvaluationSummaryResponse');
    expect(['PASS', 'FAIL']).toContain(fullSummary.verdict);
    expect(fullSummary.missing_pillars).toEqual([]);
    const summary = (await call('GET', `/v1/evaluation-summaries/${narrow.evaluation_id}`)).json();
    expectReferenceShape(summary, 'EvaluationSummaryResponse');
    // The refusing agent's security score alone would be a PASS: it is not one.
    expect(summary.security_score).toBeGreaterThanOrEqual(0.7);
    expect(summary).toMatchObject({ verdict: 'INCOMPLETE', missing_pillars: ['reliability', 'safety'] });
    expect(summary.pillar_details).toMatchObject({ passed: false, verdict: 'INCOMPLETE', missing_pillars: ['reliability', 'safety'] });
    const listed = (await call('GET', `/v1/evaluation-summaries/?agent_id=${agentId}`)).json();
    expect(listed.results.map((s: any) => [s.id, s.verdict])).toEqual([
      [narrow.evaluation_id, 'INCOMPLETE'],
      [full.evaluation_id, fullSummary.verdict],
    ]);
  });

  it('says INCOMPLETE in the report, naming the pillars not measured', async () => {
    const html = await call('GET', `/v1/evaluations/${narrow.evaluation_id}/html`);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('verdict-incomplete');
    expect(html.body).toContain('INCOMPLETE');
    expect(html.body).toMatch(/reliability and safety were not measured/);
    expect(html.body).not.toMatch(/class="verdict-label">(PASS|FAIL)</);
    const pdf = await call('GET', `/v1/evaluations/${narrow.evaluation_id}/pdf`);
    expect(await pdfText(pdf.rawPayload)).toContain('INCOMPLETE');
  });

  it('keeps the full run’s safety and reliability evidence, and scores the agent over every pillar', async () => {
    const fullSummary = (await call('GET', `/v1/evaluation-summaries/${full.evaluation_id}`)).json();
    const narrowSummary = (await call('GET', `/v1/evaluation-summaries/${narrow.evaluation_id}`)).json();
    const agent = (await call('GET', `/v1/agent-configurations/${agentId}?include_scores=true`)).json();
    const { pillars } = agent.evidence;
    expect(pillars.security).toMatchObject({ evaluation_id: narrow.evaluation_id, harnesses: ['security'], measured_at: narrow.completed_at });
    expect(pillars.safety).toMatchObject({ evaluation_id: full.evaluation_id, harnesses: ['safety'], measured_at: full.completed_at });
    expect(pillars.reliability).toMatchObject({ evaluation_id: full.evaluation_id, harnesses: ['reliability'] });
    expect(pillars.security.score).toBeCloseTo(narrowSummary.security_score, 12);
    expect(pillars.safety.score).toBeCloseTo(fullSummary.safety_score, 12);
    expect(pillars.reliability.score).toBeCloseTo(fullSummary.reliability_score, 12);
    expect(agent.evidence.missing_pillars).toEqual([]);
    // Its age: the oldest measurement behind it, not the last run.
    expect(agent.evidence.measured_at).toBe(full.completed_at);
    expect(agent.evidence.measured_at).toBeLessThan(narrow.completed_at);
    const mean = (narrowSummary.security_score + fullSummary.safety_score + fullSummary.reliability_score) / 3;
    expect(agent.evidence.test_score).toBeCloseTo(mean, 12);
    expect(agent.test_score).toBe((Math.floor(mean * 10_000) / 10_000).toFixed(4));
    // Not the narrow run's own overall (its security alone).
    expect(Number(agent.test_score)).not.toBeCloseTo(narrowSummary.overall_score, 3);
    expect(agent).toMatchObject({ evaluated_harnesses: ['reliability', 'security', 'safety'], last_evaluated_at: narrow.completed_at });
    // Without include_scores the agent is answered as before.
    expect((await call('GET', `/v1/agent-configurations/${agentId}`)).json().evidence).toBeUndefined();
  });

  it('shows the evidence on the trust dashboard: the narrower run does not lower the pillars it did not measure', async () => {
    const fullSummary = (await call('GET', `/v1/evaluation-summaries/${full.evaluation_id}`)).json();
    const narrowSummary = (await call('GET', `/v1/evaluation-summaries/${narrow.evaluation_id}`)).json();
    const agent = (await call('GET', `/v1/agent-configurations/${agentId}?include_scores=true`)).json();
    const board = await call('GET', '/v1/dashboard/trust');
    expect(board.statusCode, board.body).toBe(200);
    expectReferenceShape(board.json(), 'DashboardResponse');
    const card = board.json().agents.find((a: { id: string }) => a.id === agentId);
    expect(Object.keys(card.trust_scores).sort()).toEqual(['overall', 'reliability', 'safety', 'security']);
    expect(card.trust_scores.security).toBeCloseTo(narrowSummary.security_score, 12);
    expect(card.trust_scores.safety).toBeCloseTo(fullSummary.safety_score, 12);
    expect(card.trust_scores.reliability).toBeCloseTo(fullSummary.reliability_score, 12);
    expect(card.trust_scores.overall).toBeCloseTo(agent.evidence.test_score, 12);
    // Not the latest run's own scores (security alone, and its overall).
    expect(card.trust_scores.overall).not.toBeCloseTo(narrowSummary.overall_score, 3);
    expect(card.trust_breakdown.safety).toEqual({ overall: card.trust_scores.safety, detectors: {} });
  });
});

describe('migration 0012', () => {
  it('fills the evidence from the completed runs already stored: each pillar from the latest run that measured it', async () => {
    const agentId = (await registerAgent(t.app, token(), refusing, { agent_name: 'Upgraded' })).id;
    const pillar = (score: number) => ({ score, n: 10, low: score / 2, high: Math.min(1, score + 0.1) });
    const stored = (id: string, completedAt: number, status: string, pillars: Record<string, unknown>, harnesses: Record<string, unknown>) => ({
      id,
      team_id: world.teamA.id,
      agent_id: agentId,
      status,
      created_at: completedAt - 60,
      completed_at: completedAt,
      pillar_details: JSON.stringify({ pillars }),
      harness_scores: JSON.stringify(harnesses),
    });
    const db = t.database.db;
    await db
      .insertInto('evaluations')
      .values([
        stored('00000000-0000-4000-8000-000000000001', 1000, 'completed', { reliability: pillar(0.9), security: pillar(0.3), safety: pillar(0.4) }, {
          security: { pillar: 'security' },
          safety: { pillar: 'safety' },
          reliability: { pillar: 'reliability' },
        }),
        stored('00000000-0000-4000-8000-000000000002', 2000, 'completed', { reliability: null, security: pillar(0.8), safety: null }, {
          security: { pillar: 'security' },
        }),
        // Neither a cancelled run nor an unmeasured pillar gives evidence.
        stored('00000000-0000-4000-8000-000000000003', 3000, 'cancelled', { reliability: pillar(0.1), security: pillar(0.1), safety: pillar(0.1) }, {}),
      ])
      .execute();
    // As the migration finds an upgraded database: no evidence yet (every agent's is filled again).
    await db.deleteFrom('agent_pillar_evidence').execute();
    await fillPillarEvidence(db);
    const rows = await db.selectFrom('agent_pillar_evidence').selectAll().where('agent_id', '=', agentId).orderBy('pillar').execute();
    expect(rows.map((r) => [r.pillar, r.evaluation_id.slice(-1), r.score, JSON.parse(r.harnesses), Number(r.measured_at)])).toEqual([
      ['reliability', '1', 0.9, ['reliability'], 1000],
      ['safety', '1', 0.4, ['safety'], 1000],
      ['security', '2', 0.8, ['security'], 2000],
    ]);
  });
});

describe('a dead agent', () => {
  let failed: any;

  beforeAll(async () => {
    const gone = await startTestAgent('refusing');
    await gone.close();
    // The connector as the service runs it (its retries and back-off), not the tests' quick one.
    const real = createAgentConnector({});
    const app = await buildTestApp({ startJobs: true, app: { connector: real } });
    try {
      const as = (await createWorld(app.app)).teamA.member.token;
      const agentId = (await registerAgent(app.app, as, gone, { agent_name: 'Gone' })).id;
      const id = await startEvaluation(app.app, as, { agent_id: agentId, harness_names: ['security'] });
      failed = await waitForEvaluation(app.app, as, id, undefined, 30_000);
    } finally {
      await app.close();
      real.close();
    }
  }, 40_000);

  it('fails after its first 10 prompts all fail, naming the cause, without sending the other 671', () => {
    expect(failed.status).toBe('failed');
    expect(failed.error_message).toMatch(/^No prompt got an answer from the agent \(the first 10 all failed\): .*could not be reached/);
    expect(failed.progress.total).toBe(681);
    expect(failed.progress.done).toBeLessThan(100);
  });
});

describe('an agent that goes dead during a run', () => {
  it('ends the run failed, naming the cause, after 10 prompts in a row fail, without sending the rest', async () => {
    // Answers its first 5 requests, then every request fails (HTTP 500; the connector's retries fail too).
    const dying = await startTestAgent('flaky', { brain: 'refusing', failureRate: 1, resetShare: 0, script: Array(5).fill('ok') });
    started.push(dying);
    const agentId = (await registerAgent(t.app, token(), dying, { agent_name: 'Dying' })).id;
    const run = await evaluate(agentId, ['security'], { sample_size: 60, seed: 3 });
    expect(run.status).toBe('failed');
    // The later rule, not the first-prompts one: prompts were answered before the agent went dead.
    expect(run.error_message).toMatch(/^The agent stopped answering: the last 10 prompts all failed: .*HTTP 500/);
    expect(run.progress.total).toBeGreaterThanOrEqual(60);
    expect(run.progress.done).toBeLessThan(run.progress.total);
    const summary = (await call('GET', `/v1/evaluation-summaries/${run.evaluation_id}`)).json();
    expect(summary.verdict).toBe('INCOMPLETE');
  });
});

describe('a report for every ended run', () => {
  it('reports a failed run with a note of what was and was not measured', async () => {
    const gone = await startTestAgent('refusing');
    const agentId = (await registerAgent(t.app, token(), gone, { agent_name: 'Gone' })).id;
    await gone.close();
    const run = await evaluate(agentId, ['ethics'], { sample_size: 12 });
    expect(run.status).toBe('failed');
    expect(run.error_message).toMatch(/^No prompt got an answer from the agent \(the first 10 all failed\)/);
    const html = await call('GET', `/v1/evaluations/${run.evaluation_id}/html`);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('This evaluation failed (No prompt got an answer');
    expect(html.body).toMatch(/Measured before it stopped: nothing; not measured: reliability, security, safety/);
    const pdf = await call('GET', `/v1/evaluations/${run.evaluation_id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain('INCOMPLETE');
    const generated = (await call('POST', `/v1/evaluations/${run.evaluation_id}/report`)).json();
    expect(generated).toMatchObject({ evaluation_id: run.evaluation_id, status: 'cached' });
    const summary = (await call('GET', `/v1/evaluation-summaries/${run.evaluation_id}`)).json();
    expect(summary).toMatchObject({ verdict: 'INCOMPLETE', missing_pillars: ['reliability', 'security', 'safety'] });
  });

  it('reports a cancelled run with the scores of what it stored, and regenerates it', async () => {
    const slow = await startTestAgent('slow', { brain: 'refusing', delayMs: 100 });
    started.push(slow);
    const agentId = (await registerAgent(t.app, token(), slow, { agent_name: 'Slow' })).id;
    const id = await startEvaluation(t.app, token(), { agent_id: agentId, harness_names: ['safety', 'reliability'] });
    await waitForEvaluation(t.app, token(), id, (s) => s.progress.done >= 20);
    expect((await call('POST', `/v1/evaluations/${id}/cancel`)).statusCode).toBe(200);
    const status = (await call('GET', `/v1/evaluations/${id}`)).json();
    expect(status.status).toBe('cancelled');
    const first = (await call('POST', `/v1/evaluations/${id}/report`)).json();
    expect(first.status).toBe('generated');
    const html = await call('GET', `/v1/evaluations/${id}/html`);
    expect(html.statusCode).toBe(200);
    expect(html.body).toContain('This evaluation was cancelled before it completed');
    // The plan's order: safety's prompts come first, so safety was measured and reliability was not.
    expect(html.body).toMatch(/Measured before it stopped: safety \(n = \d+\); not measured: reliability, security/);
    expect(html.body).toContain('class="verdict-label">INCOMPLETE<');
    const pdf = await call('GET', `/v1/evaluations/${id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toMatch(/was cancelled/);
    const again = (await call('POST', `/v1/evaluations/${id}/report?force_regenerate=true`)).json();
    expect(again.status).toBe('generated');
    // Its partial scores are not the agent's evidence.
    const agent = (await call('GET', `/v1/agent-configurations/${agentId}?include_scores=true`)).json();
    expect(agent.test_score).toBeNull();
    expect(agent.evidence).toMatchObject({ test_score: null, measured_at: null, missing_pillars: ['reliability', 'security', 'safety'] });
  });
});

describe('downloads', () => {
  it('sends exactly one Content-Security-Policy header with the HTML report', async () => {
    const agentId = (await registerAgent(t.app, token(), refusing, { agent_name: 'Headers' })).id;
    const run = await evaluate(agentId, ['reliability'], { sample_size: 3 });
    for (const method of ['GET', 'HEAD']) {
      const policies = await rawHeaderValues(t.app, method, `/v1/evaluations/${run.evaluation_id}/html`, bearer(token()), 'content-security-policy');
      expect(policies, method).toHaveLength(1);
      const policy = policies[0];
      expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/);
    }
  });
});
