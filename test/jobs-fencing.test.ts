import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
