import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAgentConnector } from '../src/connector/index.js';
import { findJobsBySubject } from '../src/jobs/index.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { buildTestApp, type TestApp } from './helpers/app.js';
import { registerAgent as registerEvaluationAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { waitFor } from './helpers/jobs.js';
import { campaignResults, quickConnector, registerAgent, startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * A campaign treats the agent's rate limiting as an evaluation does (docs/jobs.md, "Fairness"
 * and "Deferral"): an agent answering 429 past its limit slows the campaign down rather than
 * filling it with errors, and an agent that asks to wait long makes the campaign give its slot
 * back, then resume where it stopped.
 */

const CAMPAIGN = { categories: ['injection', 'pii', 'toxicity'], num_tests: 3, strategies: ['basic', 'base64'], seed: 11 };

/** Each finding's attack and verdict, in the plan's order. */
const verdicts = (results: { findings: Array<{ attack_type: string; passed: boolean; metadata: { strategy: string } }> }) =>
  results.findings.map((f) => `${f.attack_type}/${f.metadata.strategy}: ${f.passed ? 'passed' : 'failed'}`).sort();

describe('an agent that answers 429 past its limit', () => {
  let t: TestApp;
  let world: World;
  const connector = quickConnector();
  const agents: TestAgent[] = [];

  beforeAll(async () => {
    t = await buildTestApp({ startJobs: true, app: { connector } });
    world = await createWorld(t.app);
  });
  afterAll(async () => {
    await t.close();
    connector.close();
    await Promise.all(agents.map((agent) => agent.close()));
  });

  it('slows the campaign down: it completes with no error, and the same verdicts as against an unlimited agent', async () => {
    const token = world.teamA.member.token;
    const unlimited = await startTestAgent('compliant');
    // Three answers per 400 ms; past that 429 with a short Retry-After (the quick connector caps it at 20 ms, so the retries run out).
    const limited = await startTestAgent('rate-limited', { limit: 3, windowMs: 400, retryAfter: '1' });
    agents.push(unlimited, limited);

    const free = await registerAgent(t.app, token, unlimited, { agent_name: 'Unlimited' });
    const reference = await startCampaign(t.app, token, { agent_id: free.id, ...CAMPAIGN });
    expect((await waitForCampaign(t.app, token, reference)).status).toBe('completed');
    const expected = await campaignResults(t.app, token, reference);
    expect(expected.summary).toMatchObject({ total_tests: 18, errors: 0 });

    const busy = await registerAgent(t.app, token, limited, { agent_name: 'Limited' });
    const id = await startCampaign(t.app, token, { agent_id: busy.id, ...CAMPAIGN });
    const status = await waitForCampaign(t.app, token, id);
    expect(status.status, status.error_message ?? '').toBe('completed');
    // The agent did answer 429 (the campaign ran past its limit).
    expect(limited.requests.length).toBeGreaterThan(18);
    const results = await campaignResults(t.app, token, id);
    expect(results.summary).toMatchObject({ total_tests: 18, errors: 0 });
    expect(results.raw_output.errors).toEqual([]);
    expect(verdicts(results)).toEqual(verdicts(expected));
  });
});

describe('fairness between teams: campaigns', () => {
  let app: TestApp;
  let people: World;
  // Two slots; the connector honours Retry-After as in production (up to 60 s), so a job that kept its slot would sleep in it.
  const patient = createAgentConnector({ backoffBaseMs: 2, backoffMaxMs: 10, timeoutMs: 10_000 });
  const agents: TestAgent[] = [];

  beforeAll(async () => {
    app = await buildTestApp({ startJobs: true, app: { connector: patient, jobs: { concurrency: 2 } } });
    people = await createWorld(app.app);
  });
  afterEach(async () => {
    await Promise.all(agents.splice(0).map((agent) => agent.close()));
  });
  afterAll(async () => {
    await app.close();
    patient.close();
  });

  /** Two campaigns of team A against an agent answering 429 Retry-After: 3600, both holding a slot. */
  async function twoWaitingCampaigns(limit: number) {
    const limited = await startTestAgent('rate-limited', { limit, retryAfter: '3600' });
    agents.push(limited);
    const a = people.teamA.member.token;
    const agentOfA = await registerAgent(app.app, a, limited, { agent_name: `Busy of A ${limit}` });
    const first = await startCampaign(app.app, a, { agent_id: agentOfA.id, ...CAMPAIGN });
    const second = await startCampaign(app.app, a, { agent_id: agentOfA.id, ...CAMPAIGN });
    // Both of A's jobs have called the agent (each held a slot) before B's is created.
    await waitFor(() => limited.requests.length >= limit + 2, "A's jobs to call their agent", 10_000);
    return { limited, first, second, a };
  }

  /** A's campaigns wait, queued with a time, their slots free; the findings stored stay, none twice. */
  async function expectWaiting(ids: string[], a: string) {
    for (const id of ids) {
      const waiting = await waitForCampaign(app.app, a, id, (s) => /^Waiting at \d+ of \d+ attacks/.test(s.status_message ?? ''), 5_000);
      expect(waiting.status).toBe('running');
      await waitFor(async () => (await findJobsBySubject(app.database.db, id))[0]?.status === 'queued', 'the job to give its slot back', 5_000);
      const [job] = await findJobsBySubject(app.database.db, id);
      expect(job).toMatchObject({ status: 'queued', attempt: 1, lockedBy: null });
      const { not_before } = await app.database.db.selectFrom('jobs').select('not_before').where('subject_id', '=', id).executeTakeFirstOrThrow();
      // Until the agent's Retry-After (capped by the connector at 60 s): not the next poll.
      expect(Number(not_before)).toBeGreaterThan(Date.now() + 30_000);
      const stored = await app.database.db.selectFrom('redteam_findings').select('attack_id').where('campaign_id', '=', id).execute();
      expect(new Set(stored.map((row) => row.attack_id)).size).toBe(stored.length);
      // Nothing the agent refused was stored as an error.
      const errors = await app.database.db
        .selectFrom('redteam_findings')
        .select('attack_id')
        .where('campaign_id', '=', id)
        .where('error', 'is not', null)
        .execute();
      expect(errors).toEqual([]);
    }
  }

  it("a team's campaigns give their slots back: another team's campaign completes promptly", async () => {
    const { first, second, a } = await twoWaitingCampaigns(0);
    const quick = await startTestAgent('refusing');
    agents.push(quick);
    const b = people.teamB.member.token;
    const agentOfB = await registerAgent(app.app, b, quick, { agent_name: 'Quick of B' });
    const started = Date.now();
    const mine = await startCampaign(app.app, b, { agent_id: agentOfB.id, ...CAMPAIGN });
    const status = await waitForCampaign(app.app, b, mine, undefined, 20_000);
    expect(status.status, status.error_message ?? '').toBe('completed');
    expect(Date.now() - started).toBeLessThan(15_000);
    await expectWaiting([first, second], a);
  });

  it("a team's campaigns give their slots back: another team's evaluation completes promptly", async () => {
    const { first, second, a } = await twoWaitingCampaigns(0);
    const quick = await startTestAgent('refusing');
    agents.push(quick);
    const b = people.teamB.member.token;
    const agentOfB = await registerEvaluationAgent(app.app, b, quick, { agent_name: 'Quick evaluated of B' });
    const started = Date.now();
    const mine = await startEvaluation(app.app, b, { agent_id: agentOfB.id, harness_names: ['ethics'], sample_size: 4 });
    const status = await waitForEvaluation(app.app, b, mine, undefined, 20_000);
    expect(status.status).toBe('completed');
    expect(Date.now() - started).toBeLessThan(15_000);
    await expectWaiting([first, second], a);
  });
});

describe('a campaign that gave its slot back', () => {
  let t: TestApp;
  let world: World;
  const patient = createAgentConnector({ backoffBaseMs: 2, backoffMaxMs: 10, timeoutMs: 10_000 });
  let agent: TestAgent;

  beforeAll(async () => {
    t = await buildTestApp({ startJobs: true, app: { connector: patient, redteamConcurrency: 1 } });
    world = await createWorld(t.app);
  });
  afterAll(async () => {
    await t.close();
    patient.close();
    await agent.close();
  });

  it('resumes where it stopped: no attack stored is sent again, no finding twice, no error', async () => {
    const token = world.teamA.member.token;
    // Five answers, then 429 Retry-After: 30 for the rest of the (long) window.
    let recovered = false;
    let hours = 0;
    // Once recovered, each request falls in a window of its own.
    const clock = () => Date.now() + (recovered ? ++hours : 0) * 3_600_000;
    agent = await startTestAgent('rate-limited', { limit: 5, windowMs: 3_600_000, retryAfter: '30', now: clock });
    const target = await registerAgent(t.app, token, agent);
    const id = await startCampaign(t.app, token, { agent_id: target.id, ...CAMPAIGN });
    await waitForCampaign(t.app, token, id, (s) => /^Waiting at 5 of 18 attacks/.test(s.status_message ?? ''), 20_000);
    // The message is written before the run returns; the job is given back just after.
    await waitFor(async () => (await findJobsBySubject(t.database.db, id))[0]?.status === 'queued', 'the job to give its slot back', 5_000);
    const [job] = await findJobsBySubject(t.database.db, id);
    expect(job).toMatchObject({ status: 'queued', lockedBy: null });
    const before = await t.database.db.selectFrom('redteam_findings').select(['attack_id', 'attack_prompt']).where('campaign_id', '=', id).execute();
    expect(before).toHaveLength(5);
    const sentBefore = agent.requests.length;

    // The agent recovers (its window has passed); the job is due now rather than in 30 s.
    recovered = true;
    await t.database.db.updateTable('jobs').set({ not_before: Date.now() }).where('subject_id', '=', id).execute();
    const done = await waitForCampaign(t.app, token, id);
    expect(done.status, done.error_message ?? '').toBe('completed');
    const after = await t.database.db.selectFrom('redteam_findings').select(['attack_id', 'attack_prompt', 'error']).where('campaign_id', '=', id).execute();
    expect(after).toHaveLength(18);
    expect(new Set(after.map((row) => row.attack_id)).size).toBe(18);
    expect(after.filter((row) => row.error !== null)).toEqual([]);
    const storedPrompts = new Set(before.map((row) => row.attack_prompt));
    const sentAfter = agent.requests.slice(sentBefore).map((r) => (r.body as { messages: Array<{ role: string; content: string }> }).messages.at(-1)?.content);
    expect(sentAfter.filter((prompt) => prompt !== undefined && storedPrompts.has(prompt))).toEqual([]);
    expect(sentAfter).toHaveLength(13);
    const results = await campaignResults(t.app, token, id);
    expect(results.summary).toMatchObject({ total_tests: 18, errors: 0 });
  });
});
