import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgentConnector } from '../src/connector/index.js';
import { findJobsBySubject } from '../src/jobs/index.js';
import { createResultBatches } from '../src/modules/evaluations/run/result-batches.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { waitFor } from './helpers/jobs.js';

/**
 * A run is fenced by its own job, not by a record id a client chose (docs/jobs.md, "Fencing";
 * SECURITY.md): an evaluation deleted while it runs stops at once, and an evaluation re-created
 * under its id by another team holds nothing of the deleted run.
 */

let t: TestApp;
let world: World;
const connector = quickConnector();
let slow: TestAgent;
let other: TestAgent;

beforeAll(async () => {
  // A poll a minute away: what stops a deleted run at once is the runner's own signal, not a poll.
  t = await buildTestApp({ startJobs: true, app: { connector, jobs: { pollMs: 60_000, leaseMs: 180_000 } } });
  world = await createWorld(t.app);
  slow = await startTestAgent('slow', { brain: 'compliant', delayMs: 250 });
  // B's run lasts a few rounds of calls, so that a run of A not stopped would write into it.
  other = await startTestAgent('slow', { brain: 'refusing', delayMs: 150 });
});
afterAll(async () => {
  await t.close();
  connector.close();
  await Promise.all([slow.close(), other.close()]);
});

const results = async (token: string, id: string) =>
  (await t.app.inject({ method: 'GET', url: `/v1/evaluation-results/${id}/results?limit=2000`, headers: bearer(token) })).json();

describe('an evaluation id re-used by another team after a delete', () => {
  it("holds only the new team's run: none of the deleted run's prompts, answers, progress or score", async () => {
    const [a, b] = [world.teamA.member.token, world.teamB.member.token];
    const agentOfA = await registerAgent(t.app, a, slow, { agent_name: 'Slow of A' });
    const agentOfB = await registerAgent(t.app, b, other, { agent_name: 'Agent of B' });
    const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
    await startEvaluation(t.app, a, { agent_id: agentOfA.id, harness_names: ['security'], sample_size: 300, seed: 3, evaluation_id: id });
    // A's run has stored some results and is still sending.
    await waitForEvaluation(t.app, a, id, (s) => s.progress.done >= 16);

    const deleted = await t.app.inject({ method: 'DELETE', url: `/v1/evaluations/${id}`, headers: bearer(a) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await startEvaluation(t.app, b, { agent_id: agentOfB.id, harness_names: ['ethics'], sample_size: 60, seed: 3, evaluation_id: id });

    // The deleted run stops at once: no call to A's agent starts after the delete (those in flight are aborted).
    const calls = slow.requests.length;
    await waitFor(() => slow.inFlight === 0, "the deleted run's calls to end", 2_000);
    const status = await waitForEvaluation(t.app, b, id);
    expect(slow.requests.length).toBe(calls);

    expect(status).toMatchObject({ status: 'completed', agent_id: agentOfB.id });
    const page = await results(b, id);
    expect(page.total).toBe(status.progress.total);
    expect(status.progress.done).toBe(status.progress.total);
    expect(page.results.map((r: any) => r.harness)).toEqual(page.results.map(() => 'ethics'));
    // The compliant agent of A answers "Sure…"; B's agent refuses or declines: none of A's answers.
    expect(page.results.filter((r: any) => /^Sure/.test(r.response ?? ''))).toEqual([]);
    expect(Object.keys(status.scores)).toEqual(['ethics']);
  });
});

describe('a result batch of a deleted run', () => {
  it('is refused by an evaluation re-created under its id (the fence is the run, not the id)', async () => {
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const [a, b] = [people.teamA.member.token, people.teamB.member.token];
      const id = '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a6c';
      const agentOfA = await registerAgent(quiet.app, a, slow);
      const agentOfB = await registerAgent(quiet.app, b, other);
      await startEvaluation(quiet.app, a, { agent_id: agentOfA.id, harness_names: ['ethics'], sample_size: 2, evaluation_id: id });
      const jobOf = async () => (await quiet.database.db.selectFrom('evaluations').select('job_id').where('id', '=', id).executeTakeFirstOrThrow()).job_id!;
      const jobOfA = await jobOf();
      // The run's job still holds (no runner here): only the evaluation and its job decide.
      const fenced = (write: (trx: typeof quiet.database.db) => Promise<boolean>) => quiet.database.db.transaction().execute(write);
      const counts = { total: 2, done: 0, errors: 0 };
      const batches = createResultBatches({ fenced, evaluationId: id, jobId: jobOfA, ...counts, size: 10, intervalMs: 10_000, onWritten: () => {} });
      expect((await quiet.app.inject({ method: 'DELETE', url: `/v1/evaluations/${id}`, headers: bearer(a) })).statusCode).toBe(200);
      await startEvaluation(quiet.app, b, { agent_id: agentOfB.id, harness_names: ['ethics'], sample_size: 2, evaluation_id: id });
      expect(await jobOf()).not.toBe(jobOfA);
      // A unit of A's run answered while the delete was on its way.
      const row = { evaluation_id: id, prompt_id: 'ethics.1', ordinal: 0, harness: 'ethics', scenario: 's', probe: 'p', base: 'b', variation: 'plain' };
      const answer = { prompt: "A's prompt", response: "A's agent's answer", passed: 1, scores: '{}', reason: 'ok', error: null, latency_ms: 5, lineage: null };
      await batches.add([{ ...row, ...answer, created_at: quiet.clock.now() }]);
      await batches.flush();
      expect(batches.stopped).toBe(true);
      expect(await quiet.database.db.selectFrom('evaluation_results').select('prompt').where('evaluation_id', '=', id).execute()).toEqual([]);
      const status = (await quiet.app.inject({ method: 'GET', url: `/v1/evaluations/${id}`, headers: bearer(b) })).json();
      expect(status.progress.done).toBe(0);
    } finally {
      await quiet.close();
    }
  });
});

describe('fairness between teams and agents', () => {
  it("a team's evaluations against an agent answering 429 Retry-After: 3600 give their slots back: another team's evaluation completes promptly", async () => {
    // Two slots; the connector honours Retry-After as in production (up to 60 s), so a job that kept its slot would sleep in it.
    const patient = createAgentConnector({ backoffBaseMs: 2, backoffMaxMs: 10, timeoutMs: 10_000 });
    const app = await buildTestApp({ startJobs: true, app: { connector: patient, jobs: { concurrency: 2 } } });
    const limited = await startTestAgent('rate-limited', { limit: 0, retryAfter: '3600' });
    const quick = await startTestAgent('refusing');
    try {
      const people = await createWorld(app.app);
      const [a, b] = [people.teamA.member.token, people.teamB.member.token];
      const agentOfA = await registerAgent(app.app, a, limited, { agent_name: 'Busy of A' });
      const agentOfB = await registerAgent(app.app, b, quick, { agent_name: 'Quick of B' });
      const first = await startEvaluation(app.app, a, { agent_id: agentOfA.id, harness_names: ['ethics'], sample_size: 4 });
      const second = await startEvaluation(app.app, a, { agent_id: agentOfA.id, harness_names: ['ethics'], sample_size: 4 });
      // Both of A's jobs have called the agent (each held a slot) before B's is created.
      await waitFor(() => limited.requests.length >= 2, "A's jobs to call their agent", 10_000);
      const started = Date.now();
      const mine = await startEvaluation(app.app, b, { agent_id: agentOfB.id, harness_names: ['ethics'], sample_size: 4 });
      const status = await waitForEvaluation(app.app, b, mine, undefined, 20_000);
      expect(status.status).toBe('completed');
      expect(Date.now() - started).toBeLessThan(15_000);
      // A's evaluations wait, queued with a time, their slots free; nothing of them was lost.
      for (const id of [first, second]) {
        const waiting = await waitForEvaluation(app.app, a, id, (s) => /^Waiting at 0 prompts/.test(s.status_message ?? ''), 5_000);
        expect(waiting.status).toBe('running');
        const [job] = await findJobsBySubject(app.database.db, id);
        expect(job).toMatchObject({ status: 'queued', attempt: 1, lockedBy: null });
      }
    } finally {
      await app.close();
      patient.close();
      await Promise.all([limited.close(), quick.close()]);
    }
  });
});
