import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { openTestDatabase, startTestProcess, TestClock } from './helpers/app.js';
import { waitFor } from './helpers/jobs.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';

/**
 * An evaluation interrupted by a restart (issue 19): the next process resumes it, no prompt
 * stored before the restart is lost or sent again, and no job is left running.
 */

let database: Database;
let world: World;
let agent: TestAgent;
const connector = quickConnector();
const clock = new TestClock();
const apps: FastifyInstance[] = [];

/** A Warden process on the shared database, its job runner started. */
async function start(): Promise<FastifyInstance> {
  const app = await startTestProcess(database, clock, { connector, jobs: { pollMs: 10, flushMs: 10, leaseMs: 600, stopTimeoutMs: 2_000 } });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  const first = await start();
  world = await createWorld(first);
  agent = await startTestAgent('slow', { brain: 'refusing', delayMs: 40 });
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});
afterAll(async () => {
  connector.close();
  await agent.close();
  await database.close();
});

const token = () => world.teamA.member.token;

async function storedRows(evaluationId: string) {
  return database.db
    .selectFrom('evaluation_results')
    .select(['prompt_id', 'prompt', 'response', 'passed', 'created_at'])
    .where('evaluation_id', '=', evaluationId)
    .execute();
}

/** The user message of each chat completion request the agent received from `from` on. */
const sentPrompts = (from: number) =>
  agent.requests.slice(from).map((request) => {
    const messages = (request.body as { messages: Array<{ role: string; content: string }> }).messages;
    return messages.filter((m) => m.role === 'user').at(-1)?.content;
  });

async function restartAndFinish(evaluationId: string, stoppedApp: FastifyInstance, afterStop?: () => Promise<void>) {
  await waitForEvaluation(stoppedApp, token(), evaluationId, (s) => s.progress.done >= 40);
  await stoppedApp.close();
  apps.splice(apps.indexOf(stoppedApp), 1);
  await afterStop?.();
  // What the first process had stored, and what the agent had been sent, when it stopped.
  const before = new Map((await storedRows(evaluationId)).map((row) => [row.prompt_id, row]));
  const sentBefore = agent.requests.length;
  expect(before.size).toBeGreaterThanOrEqual(40);

  const next = await start();
  const done = await waitForEvaluation(next, token(), evaluationId, undefined, 60_000);
  expect(done.status).toBe('completed');
  const after = await storedRows(evaluationId);
  expect(after).toHaveLength(done.progress.total);
  expect(new Set(after.map((r) => r.prompt_id)).size).toBe(after.length);
  for (const row of after.filter((r) => before.has(r.prompt_id))) expect(row).toEqual(before.get(row.prompt_id));
  // No prompt stored before the restart was sent again; every other one was sent after it (the
  // harnesses used here send one turn per prompt). A call cut short by the stop may have reached
  // the agent on either side of it, so prompts are compared, not counts.
  const storedBefore = new Set([...before.values()].map((row) => row.prompt));
  const sentAfter = new Set(sentPrompts(sentBefore));
  expect([...sentAfter].filter((prompt) => prompt !== undefined && storedBefore.has(prompt))).toEqual([]);
  for (const row of after.filter((r) => !before.has(r.prompt_id))) expect(sentAfter.has(row.prompt)).toBe(true);
  // The job ends just after the evaluation (the handler completes the evaluation, then the runner records the job's end).
  const jobs = () => database.db.selectFrom('jobs').select('status').where('subject_id', '=', evaluationId).execute();
  await waitFor(async () => (await jobs()).every((j) => j.status !== 'running'), 'the job to end');
  return done;
}

describe('a restart in the middle of an evaluation', () => {
  it('after a graceful stop: the job goes back to the queue and the next process finishes it', async () => {
    const app = apps[0] ?? (await start());
    const target = await registerAgent(app, token(), agent);
    const id = await startEvaluation(app, token(), { agent_id: target.id, harness_names: ['toxicity'] });
    await restartAndFinish(id, app);
  });

  it('after a crash: the job its process left running is resumed as a new attempt', async () => {
    const app = await start();
    const target = await registerAgent(app, token(), agent);
    const id = await startEvaluation(app, token(), { agent_id: target.id, harness_names: ['ethics'] });
    await restartAndFinish(id, app, async () => {
      // What a process that died leaves behind: its job still running, under its name, its lease run out.
      await database.db
        .updateTable('jobs')
        .set({ status: 'running', locked_by: 'a-process-that-died', lease_expires_at: Date.now() })
        .where('subject_id', '=', id)
        .execute();
    });
    const [job] = await database.db.selectFrom('jobs').select(['attempt', 'status']).where('subject_id', '=', id).execute();
    expect(job).toEqual({ attempt: 2, status: 'completed' });
  });
});
