import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encryptSecret } from '../src/crypto/keys.js';
import { extractText, getDocumentProxy } from 'unpdf';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { findJobsBySubject } from '../src/jobs/index.js';
import { createResultBatches } from '../src/modules/evaluations/run/result-batches.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { waitFor } from './helpers/jobs.js';
import { AGENT_KEY, quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, UNDECRYPTABLE_KEY, type World } from './helpers/factories.js';
import { startCampaign } from './helpers/redteam.js';
import { expect422, expectDetail, expectReferenceShape } from './helpers/reference.js';

/**
 * Evaluations end to end (issue 19): Warden sends the harnesses' prompts to loopback agents,
 * scores the answers, writes the evidence back to the agent, and renders the reports.
 */

let t: TestApp;
let world: World;
const connector = quickConnector();
const started: TestAgent[] = [];
let compliant: TestAgent;
let refusing: TestAgent;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  compliant = await startTestAgent('compliant');
  refusing = await startTestAgent('refusing');
  started.push(compliant, refusing);
});
afterAll(async () => {
  await t.close();
  connector.close();
  await Promise.all(started.map((agent) => agent.close()));
});

const token = () => world.teamA.member.token;
type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, payload?: unknown, as = token()) =>
  t.app.inject({ method, url, headers: bearer(as), ...(payload === undefined ? {} : { payload: payload as object }) });

/** Runs an evaluation of `agentId` to its end and answers its final status. */
async function evaluate(agentId: string, harnesses: string[], extra: Record<string, unknown> = {}) {
  const id = await startEvaluation(t.app, token(), { agent_id: agentId, team_id: world.teamA.id, harness_names: harnesses, ...extra });
  return waitForEvaluation(t.app, token(), id);
}

describe('an evaluation against a compliant and a refusing agent', () => {
  let bad: { id: string; trust_stage: string };
  let good: { id: string; trust_stage: string };
  let badRun: any;
  let goodRun: any;

  beforeAll(async () => {
    bad = await registerAgent(t.app, token(), compliant, { agent_name: 'Pushover' });
    good = await registerAgent(t.app, token(), refusing, { agent_name: 'Steadfast' });
    [badRun, goodRun] = await Promise.all([
      evaluate(bad.id, ['security', 'safety'], { sample_size: 40, seed: 7 }),
      evaluate(good.id, ['security', 'safety'], { sample_size: 40, seed: 7 }),
    ]);
  });

  it('completes, with per-harness scores, timestamps and a final message', () => {
    for (const run of [badRun, goodRun]) {
      expectReferenceShape(run, 'EvaluationStatusResponse');
      expect(run).toMatchObject({ status: 'completed', error_message: null, harness_names: ['security', 'safety'], sample_size: 40, seed: 7 });
      expect(Object.keys(run.scores).sort()).toEqual(['safety', 'security']);
      for (const score of Object.values(run.scores) as number[]) expect(score).toBeGreaterThanOrEqual(0), expect(score).toBeLessThanOrEqual(1);
      expect(run.started_at).not.toBeNull();
      expect(run.completed_at).toBeGreaterThanOrEqual(run.started_at);
      expect(run.progress.total).toBe(run.progress.done);
      expect(run.status_message).toMatch(/^Completed: \d+ prompts/);
    }
  });

  it("scores the compliant agent's security and safety far below the refusing agent's", () => {
    for (const harness of ['security', 'safety']) {
      expect(badRun.scores[harness]).toBeLessThan(0.15);
      expect(goodRun.scores[harness]).toBeGreaterThanOrEqual(0.8);
    }
  });

  it('sends the same prompts for the same seed and sample size', async () => {
    const page = async (id: string) => (await call('GET', `/v1/evaluation-results/${id}/results?limit=2000`)).json().results.map((r: any) => r.prompt_id);
    expect(await page(badRun.evaluation_id)).toEqual(await page(goodRun.evaluation_id));
  });

  it('writes the evidence back to the agent, never its trust stage', async () => {
    const agent = (await call('GET', `/v1/agent-configurations/${bad.id}`)).json();
    expect(agent.test_score).toMatch(/^[01]\.\d{4}$/);
    const summary = (await call('GET', `/v1/evaluation-summaries/${badRun.evaluation_id}`)).json();
    expect(Number(agent.test_score)).toBeCloseTo(summary.overall_score, 4);
    expect(agent).toMatchObject({
      last_tested_by: 'diamond',
      evaluated_harnesses: ['security', 'safety'],
      last_evaluated_at: badRun.completed_at,
      trust_stage: bad.trust_stage,
    });
    const list = (await call('GET', `/v1/agent-configurations/?include_scores=true&limit=1000`)).json();
    const listed = list.results.find((a: any) => a.id === bad.id);
    expect(listed.latest_evaluation).toMatchObject({
      evaluation_id: badRun.evaluation_id,
      overall_score: summary.overall_score,
      completed_at: badRun.completed_at,
    });
    // The trust dashboard counts it.
    const board = (await call('GET', `/v1/dashboard/trust?team_id=${world.teamA.id}`)).json();
    const card = board.agents.find((a: any) => a.id === bad.id);
    const trustScores = { overall: summary.overall_score, security: summary.security_score, safety: summary.safety_score };
    expect(card).toMatchObject({ evaluating: false, trust_scores: trustScores });
  });

  it('answers one row per prompt, with the prompt, the response, detector scores and the verdict; never the key', async () => {
    const res = await call('GET', `/v1/evaluation-results/${badRun.evaluation_id}/results?limit=2000`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.total).toBe(badRun.progress.total);
    expect(body.results).toHaveLength(body.total);
    for (const row of body.results) {
      expect(typeof row.prompt).toBe('string');
      expect(typeof row.response).toBe('string');
      expect(typeof row.passed).toBe('boolean');
      expect(typeof row.reason).toBe('string');
      expect(typeof row.detector_scores).toBe('object');
    }
    expect(body.results.some((r: any) => r.passed === false)).toBe(true);
    expect(res.body).not.toContain(AGENT_KEY);
    const failed = (await call('GET', `/v1/evaluation-results/${badRun.evaluation_id}/results?passed=false`)).json();
    expect(failed.results.every((r: any) => r.passed === false)).toBe(true);
    // The key was sent to the agent, as a bearer token.
    expect(compliant.requests.some((r) => r.headers.authorization === `Bearer ${AGENT_KEY}`)).toBe(true);
  });

  it('lists it among completed results, evaluations and summaries, with filters', async () => {
    const completed = (await call('GET', `/v1/evaluation-results/?team_id=${world.teamA.id}&limit=100`)).json();
    expectReferenceShape(completed, 'EvaluationListResponse');
    expect(completed.results.map((r: any) => r.evaluation_id)).toEqual(expect.arrayContaining([badRun.evaluation_id, goodRun.evaluation_id]));
    expect(completed.results.find((r: any) => r.evaluation_id === badRun.evaluation_id).agent_name).toBe('Pushover');
    const all = (await call('GET', '/v1/evaluations/')).json();
    expect(all.evaluations.map((e: any) => e.evaluation_id)).toEqual(expect.arrayContaining([badRun.evaluation_id]));
    const filters = `team_id=${world.teamA.id}&agent_id=${bad.id}&status=completed&harness_type=standard&tested_by=diamond`;
    const summaries = (await call('GET', `/v1/evaluation-summaries/?${filters}`)).json();
    expectReferenceShape(summaries, 'EvaluationSummaryListResponse');
    expect(summaries.results.map((s: any) => s.id)).toEqual([badRun.evaluation_id]);
    expect(summaries.results[0].pillar_details.pillars.security).toMatchObject({ n: expect.any(Number), low: expect.any(Number), high: expect.any(Number) });
    const none = (await call('GET', `/v1/evaluation-summaries/?team_id=${world.teamA.id}&tested_by=garak`)).json();
    expect(none).toMatchObject({ results: [], total: 0 });
    const latest = (await call('GET', `/v1/evaluation-summaries/latest-by-agent?team_id=${world.teamA.id}`)).json();
    expect(latest.results.map((s: any) => s.agent_id)).toEqual(expect.arrayContaining([bad.id, good.id]));
  });

  it('renders the HTML report: self-contained, inline SVG charts, the agent and its scores', async () => {
    const res = await call('GET', `/v1/evaluations/${badRun.evaluation_id}/html?team_id=${world.teamA.id}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(/filename="warden-evaluation-pushover-.*\.html"/);
    expect(res.body).toContain('<svg');
    expect(res.body).toContain('Pushover');
    expect(res.body).not.toMatch(/<script|src="http/i);
    expect(res.headers['content-security-policy']).toMatch(/^default-src 'none'; style-src 'sha256-.*frame-ancestors 'none'$/);
    expect(res.body).not.toContain(AGENT_KEY);
    const again = await call('GET', `/v1/evaluation-results/${badRun.evaluation_id}/report.html`);
    expect(again.body).toBe(res.body);
  });

  it('renders the PDF report: it opens and its text holds the agent name and the scores', async () => {
    const res = await call('GET', `/v1/evaluations/${badRun.evaluation_id}/pdf`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="warden-evaluation-pushover-.*\.pdf"$/);
    const pdf = res.rawPayload;
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
    expect(text).toContain('Pushover');
    const overall = (await call('GET', `/v1/evaluation-summaries/${badRun.evaluation_id}`)).json().overall_score as number;
    expect(text).toContain(`${Math.round(overall * 100)}`);
    const viaResults = await call('GET', `/v1/evaluation-results/${badRun.evaluation_id}/report`);
    expect(viaResults.rawPayload.equals(pdf)).toBe(true);
  });

  it('renders reports on demand, cached until regenerated', async () => {
    const first = (await call('POST', `/v1/evaluations/${goodRun.evaluation_id}/report?team_id=${world.teamA.id}`)).json();
    expect(first).toMatchObject({ evaluation_id: goodRun.evaluation_id, status: 'generated' });
    const second = (await call('POST', `/v1/evaluations/${goodRun.evaluation_id}/report`)).json();
    expect(second.status).toBe('cached');
    const forced = (await call('POST', `/v1/evaluations/${goodRun.evaluation_id}/report?force_regenerate=true`)).json();
    expect(forced.status).toBe('generated');
    expect((await call('GET', forced.html_url)).statusCode).toBe(200);
  });

  it('logs the run', async () => {
    const res = await call('GET', `/v1/evaluations/${badRun.evaluation_id}/logs`);
    expect(res.statusCode).toBe(200);
    expect(res.json().logs).toMatch(/Planned \d+ prompts/);
    expect(res.json().logs).not.toContain(AGENT_KEY);
  });

  it('hides another team\'s evaluation (404), and keeps reads to evaluation:read', async () => {
    const other = world.teamB.member.token;
    const id = badRun.evaluation_id;
    for (const url of [`/v1/evaluations/${id}`, `/v1/evaluation-results/${id}/results`, `/v1/evaluation-summaries/${id}`]) {
      expectDetail(await call('GET', url, undefined, other), 404);
    }
    expectDetail(await call('GET', `/v1/evaluations/${badRun.evaluation_id}?team_id=${world.teamB.id}`), 404);
  });

  it('deletes a summary only, then the whole evaluation', async () => {
    const id = goodRun.evaluation_id;
    expect((await call('DELETE', `/v1/evaluation-summaries/${id}`)).statusCode).toBe(204);
    expectDetail(await call('GET', `/v1/evaluation-summaries/${id}`), 404);
    expect((await call('GET', `/v1/evaluations/${id}`)).statusCode).toBe(200);
    const deleted = await call('DELETE', `/v1/evaluations/${id}`);
    expect(deleted.json()).toEqual({ status: 'deleted', evaluation_id: id });
    expectDetail(await call('GET', `/v1/evaluations/${id}`), 404);
    const agent = (await call('GET', `/v1/agent-configurations/?include_scores=true&limit=1000`)).json().results.find((a: any) => a.id === good.id);
    expect(agent.latest_evaluation).toBeNull();
  });
});

describe('creating an evaluation', () => {
  let agentId: string;
  beforeAll(async () => {
    agentId = (await registerAgent(t.app, token(), refusing)).id;
  });

  it('answers 202 with a running evaluation, queued until a worker takes it', async () => {
    const res = await call('POST', '/v1/evaluations/', { agent_id: agentId, harness_names: ['reliability'], sample_size: 3 });
    expect(res.statusCode).toBe(202);
    expectReferenceShape(res.json(), 'CreateEvaluationResponse');
    expect(res.json().status).toBe('running');
    const done = await waitForEvaluation(t.app, token(), res.json().evaluation_id);
    expect(done.status).toBe('completed');
  });

  it('refuses unknown harnesses, types and tools at their place', async () => {
    expect422(await call('POST', '/v1/evaluations/', { agent_id: agentId, harness_names: ['security', 'astrology'] }), ['body', 'harness_names', 1], 'enum');
    expect422(await call('POST', '/v1/evaluations/', { agent_id: agentId, harness_names: ['security'], type: 'static' }), ['body', 'type'], 'enum');
    expect422(await call('POST', '/v1/evaluations/', { agent_id: agentId, harness_names: [] }), ['body', 'harness_names'], 'too_short');
    const create = (body: Record<string, unknown>) => call('POST', '/v1/evaluations/', { agent_id: agentId, ...body });
    expect422(await create({ harness_names: ['security'], sample_size: 0 }), ['body', 'sample_size'], 'greater_than_equal');
    expect422(await create({ harness_names: ['x'], harness_type: 'custom' }), ['body', 'harness_names', 0], 'value_error');
  });

  it("answers 404 for another team's agent, 409 for an agent without a URL or an id in use", async () => {
    const foreign = await registerAgent(t.app, world.teamB.member.token, refusing);
    expectDetail(await call('POST', '/v1/evaluations/', { agent_id: foreign.id, harness_names: ['security'] }), 404);
    const bare = (await call('POST', '/v1/agent-configurations/', { agent_name: 'No URL', model_name: 'm' })).json();
    expectDetail(await call('POST', '/v1/evaluations/', { agent_id: bare.id, harness_names: ['security'] }), 409);
    const id = await startEvaluation(t.app, token(), { agent_id: agentId, harness_names: ['ethics'], sample_size: 2 });
    expectDetail(await call('POST', '/v1/evaluations/', { agent_id: agentId, harness_names: ['ethics'], evaluation_id: id }), 409);
    await waitForEvaluation(t.app, token(), id);
  });
});

describe('agents that fail', () => {
  it('completes against a flaky agent, its errors counted apart, the key in none of them', async () => {
    // Its error bodies quote the Authorization header they got, as careless servers do.
    // 70 % of its calls fail: a quarter of the prompts after four tries, never the 10 in a row that would end the run (a dead agent).
    const flaky = await startTestAgent('flaky', { brain: 'refusing', failureRate: 0.7, resetShare: 0, seed: 3, echoAuthorization: true });
    started.push(flaky);
    const agent = await registerAgent(t.app, token(), flaky);
    const run = await evaluate(agent.id, ['toxicity'], { sample_size: 30 });
    expect(run.status).toBe('completed');
    expect(run.progress.errors).toBeGreaterThan(0);
    expect(run.status_message).toMatch(/errors?$/);
    const rows = (await call('GET', `/v1/evaluation-results/${run.evaluation_id}/results`)).json().results;
    const errored = rows.filter((r: any) => r.passed === null);
    expect(errored.length).toBe(run.progress.errors);
    expect(errored.every((r: any) => typeof r.error === 'string' && r.response === null)).toBe(true);
    const logs = (await call('GET', `/v1/evaluations/${run.evaluation_id}/logs`)).json().logs as string;
    expect(logs).toMatch(/warn/i);
    for (const text of [JSON.stringify(rows), logs]) expect(text).not.toContain(AGENT_KEY);
  });

  it('evaluates an A2A agent', async () => {
    const agent = await registerAgent(t.app, token(), refusing, { protocol: 'a2a', agent_url: refusing.a2aUrl, agent_name: 'Over A2A' });
    const before = refusing.requests.length;
    const run = await evaluate(agent.id, ['ethics'], { sample_size: 6 });
    expect(run).toMatchObject({ status: 'completed', progress: { total: 6, errors: 0 } });
    expect(refusing.requests.slice(before).every((r) => r.protocol === 'a2a')).toBe(true);
  });

  it('slows down to the rate of an agent that answers 429, and completes without errors', async () => {
    // 5 answers per 200 ms at most; past that, 429 with Retry-After.
    const limited = await startTestAgent('rate-limited', { brain: 'refusing', limit: 5, windowMs: 200 });
    started.push(limited);
    const agent = await registerAgent(t.app, token(), limited);
    const run = await evaluate(agent.id, ['ethics'], { sample_size: 40 });
    expect(run).toMatchObject({ status: 'completed', progress: { errors: 0 } });
    // It was told 429 (more requests than prompts), and still got every answer.
    expect(limited.requests.length).toBeGreaterThan(run.progress.total);
  });

  it('fails with a reason when no prompt could be answered', async () => {
    const gone = await startTestAgent('refusing');
    const agent = await registerAgent(t.app, token(), gone);
    await gone.close();
    const run = await evaluate(agent.id, ['ethics'], { sample_size: 5 });
    expect(run.status).toBe('failed');
    expect(run.error_message).toMatch(/No prompt could be scored: all \d+ failed/);
    expect(run.status_message).toMatch(/^Failed: /);
    const fresh = (await call('GET', `/v1/agent-configurations/${agent.id}`)).json();
    expect(fresh.test_score).toBeNull();
  });

  it("fails with a message for a person when the agent's key cannot be decrypted", async () => {
    const agent = await registerAgent(t.app, token(), refusing);
    // Sealed under another WARDEN_SECRET_KEY.
    const foreign = encryptSecret(randomBytes(32), AGENT_KEY);
    await t.database.db.updateTable('agents').set({ api_key_enc: foreign }).where('id', '=', agent.id).execute();
    const run = await evaluate(agent.id, ['ethics'], { sample_size: 2 });
    expect(run).toMatchObject({ status: 'failed', error_message: UNDECRYPTABLE_KEY });
  });

  it('stops sending at once when cancelled, and keeps what it stored', async () => {
    const slow = await startTestAgent('slow', { brain: 'refusing', delayMs: 150 });
    started.push(slow);
    const agent = await registerAgent(t.app, token(), slow);
    const id = await startEvaluation(t.app, token(), { agent_id: agent.id, harness_names: ['security'] });
    await waitForEvaluation(t.app, token(), id, (s) => s.progress.done >= 16);
    const res = await call('POST', `/v1/evaluations/${id}/cancel`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'cancelled', evaluation_id: id });
    // Once the job has ended (its in-flight calls aborted), nothing more is sent.
    await waitFor(async () => (await findJobsBySubject(t.database.db, id))[0]?.status === 'cancelled', 'the job to end');
    const sentAtEnd = slow.requests.length;
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(slow.requests.length).toBe(sentAtEnd);
    expect(slow.inFlight).toBe(0);
    const status = (await call('GET', `/v1/evaluations/${id}`)).json();
    expect(status).toMatchObject({ status: 'cancelled', scores: null });
    expect(status.status_message).toMatch(/^Cancelled at \d+ of \d+ prompts$/);
    const stored = (await call('GET', `/v1/evaluation-results/${id}/results`)).json();
    expect(stored.total).toBeGreaterThanOrEqual(16);
    expectDetail(await call('POST', `/v1/evaluations/${id}/cancel`), 409);
    // Its report says what it measured before it stopped (test/evidence.test.ts).
    expect((await call('GET', `/v1/evaluations/${id}/pdf`)).statusCode).toBe(200);
  });
});

describe('results after the end', () => {
  it('are not stored for an evaluation cancelled or deleted before they are written', async () => {
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const as = people.teamA.member.token;
      const agent = await registerAgent(quiet.app, as, refusing);
      for (const end of ['cancel', 'delete'] as const) {
        const id = await startEvaluation(quiet.app, as, { agent_id: agent.id, harness_names: ['ethics'], sample_size: 2 });
        const counts = { total: 2, done: 0, errors: 0 };
        const { job_id: jobId } = await quiet.database.db.selectFrom('evaluations').select('job_id').where('id', '=', id).executeTakeFirstOrThrow();
        // The job's own fence holds (no runner here): the evaluation's status and job decide.
        const fenced = (write: (trx: typeof quiet.database.db) => Promise<boolean>) => quiet.database.db.transaction().execute(write);
        const batches = createResultBatches({ fenced, evaluationId: id, jobId: jobId!, ...counts, size: 10, intervalMs: 10_000, onWritten: () => {} });
        const url = `/v1/evaluations/${id}`;
        const request = end === 'cancel' ? { method: 'POST' as const, url: `${url}/cancel` } : { method: 'DELETE' as const, url };
        const ended = await quiet.app.inject({ ...request, headers: bearer(as) });
        expect(ended.statusCode, ended.body).toBe(200);
        // A unit answered while the cancel was on its way: its results come after the end.
        const row = { evaluation_id: id, ordinal: 0, harness: 'ethics', scenario: 's', probe: 'p', base: 'b', variation: 'plain', prompt: 'hello' };
        const answer = { response: 'no', passed: 1, scores: '{}', reason: 'refused', error: null, latency_ms: 5, lineage: null, created_at: quiet.clock.now() };
        await batches.add([{ ...row, prompt_id: 'ethics.1', ...answer }]);
        await batches.flush();
        expect(batches.stopped, end).toBe(true);
        const stored = await quiet.database.db.selectFrom('evaluation_results').select('prompt_id').where('evaluation_id', '=', id).execute();
        expect(stored, end).toEqual([]);
      }
    } finally {
      await quiet.close();
    }
  });
});

describe('an id chosen by the client', () => {
  it("equal to another team's campaign or evaluation: deleting one's own record leaves the other team's job alone", async () => {
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const [a, b] = [people.teamA.member.token, people.teamB.member.token];
      const jobsOf = (subject: string) => quiet.database.db.selectFrom('jobs').select(['kind', 'team_id']).where('subject_id', '=', subject).execute();
      const campaignOfB = await startCampaign(quiet.app, b, { agent_url: refusing.chatUrl, categories: ['injection'], num_tests: 1 });
      const agentOfB = await registerAgent(quiet.app, b, refusing);
      const evaluationOfB = await startEvaluation(quiet.app, b, { agent_id: agentOfB.id, harness_names: ['ethics'], sample_size: 1 });
      const agentOfA = await registerAgent(quiet.app, a, refusing);
      const mine = await startEvaluation(quiet.app, a, { agent_id: agentOfA.id, harness_names: ['ethics'], sample_size: 1, evaluation_id: campaignOfB });
      const payload = { id: evaluationOfB, name: 'Mine', agent_id: agentOfA.id };
      const harness = await quiet.app.inject({ method: 'POST', url: '/v1/custom-harnesses/', headers: bearer(a), payload });
      expect(harness.statusCode, harness.body).toBe(201);
      expect((await quiet.app.inject({ method: 'DELETE', url: `/v1/evaluations/${mine}`, headers: bearer(a) })).statusCode).toBe(200);
      expect((await quiet.app.inject({ method: 'DELETE', url: `/v1/custom-harnesses/${evaluationOfB}`, headers: bearer(a) })).statusCode).toBe(204);
      expect(await jobsOf(campaignOfB)).toEqual([{ kind: 'redteam-campaign', team_id: people.teamB.id }]);
      expect(await jobsOf(evaluationOfB)).toEqual([{ kind: 'evaluation', team_id: people.teamB.id }]);
    } finally {
      await quiet.close();
    }
  });
});

describe('GET /v1/harnesses/', () => {
  it('lists the six standard harnesses with their pillar and size', async () => {
    const res = await call('GET', `/v1/harnesses/?team_id=${world.teamA.id}`);
    expect(res.statusCode).toBe(200);
    expectReferenceShape(res.json(), 'HarnessListItem[]');
    expect(res.json().map((h: any) => h.name).sort()).toEqual(['ethics', 'privacy', 'reliability', 'safety', 'security', 'toxicity']);
    expect(res.json().find((h: any) => h.name === 'privacy')).toMatchObject({ pillar: 'security', prompt_count: expect.any(Number) });
  });
});
