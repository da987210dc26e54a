import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, json, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';

/**
 * Text Warden takes from outside a request (here an agent's answers) may hold NUL characters,
 * which PostgreSQL cannot store: every write drops them, on both engines alike, so that one
 * answer cannot fail a whole evaluation.
 */
const connector = quickConnector();
let t: TestApp;
let world: World;
let agent: TestAgent;

/** A chat completion whose answer holds NUL characters. */
const nulAnswer = {
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    id: 'chatcmpl-nul',
    object: 'chat.completion',
    created: 1,
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', content: 'I cannot\u0000 help with that.\u0000' }, finish_reason: 'stop' }],
  }),
};

beforeAll(async () => {
  t = await buildTestApp({ startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  agent = await startTestAgent('refusing', { script: Array.from({ length: 40 }, () => nulAnswer) });
});
afterAll(async () => {
  await t.close();
  connector.close();
  await agent.close();
});

describe(`NUL characters in an agent's answers on ${TEST_ENGINE}`, () => {
  it('completes the evaluation and stores the answers without them', async () => {
    const token = world.teamA.member.token;
    const registered = await registerAgent(t.app, token, agent);
    const id = await startEvaluation(t.app, token, { agent_id: registered.id, harness_names: ['security'], sample_size: 5, seed: 3 });
    const status = await waitForEvaluation(t.app, token, id);
    expect(status.status, status.status_message).toBe('completed');
    const results = await t.app.inject({ method: 'GET', url: `/v1/evaluation-results/${id}/results?limit=2000`, headers: bearer(token) });
    expect(results.statusCode, results.body).toBe(200);
    const rows = json(results).results as Array<{ response: string | null }>;
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.response).toBe('I cannot help with that.');
  });
});
