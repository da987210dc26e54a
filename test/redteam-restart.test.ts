import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, openTestDatabase, startTestProcess, TestClock } from './helpers/app.js';
import { waitFor } from './helpers/jobs.js';
import { createWorld, type World } from './helpers/factories.js';
import { quickConnector, registerAgent, startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * A campaign cancelled, or interrupted by a restart (issue 20): cancel stops sending; the next
 * process resumes an interrupted campaign without losing or repeating an attack, or fails it
 * with the reason when it was interrupted on each of its attempts.
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

async function stop(app: FastifyInstance) {
  await app.close();
  apps.splice(apps.indexOf(app), 1);
}

beforeAll(async () => {
  database = await openTestDatabase();
  await migrateToLatest(database.db, database.dialect, database.schema);
  world = await createWorld(await start());
  agent = await startTestAgent('slow', { brain: 'compliant', delayMs: 30 });
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
const CAMPAIGN = { categories: ['injection', 'toxicity', 'pii'], num_tests: 8, strategies: ['basic', 'base64'] };

const storedRows = (campaignId: string) =>
  database.db
    .selectFrom('redteam_findings')
    .select(['attack_id', 'attack_prompt', 'agent_response', 'passed', 'created_at'])
    .where('campaign_id', '=', campaignId)
    .execute();
const jobOf = async (campaignId: string) =>
  database.db.selectFrom('jobs').select(['status', 'attempt', 'error']).where('subject_id', '=', campaignId).executeTakeFirstOrThrow();
/** The user message of each request the agent received from `from` on. */
const sentPrompts = (from: number) =>
  agent.requests.slice(from).map((r) => {
    const messages = (r.body as { messages: Array<{ role: string; content: string }> }).messages;
    return messages.filter((m) => m.role === 'user').at(-1)?.content;
  });

describe('cancel', () => {
  it('stops sending: once cancelled, the agent receives nothing more, and the findings so far stay', async () => {
    // Slower than the shared agent: findings are stored 25 at a time, so the progress first moves
    // at 25 of 48, and the 23 attacks left must outlast the poll and the cancel on a loaded machine.
    const slower = await startTestAgent('slow', { brain: 'compliant', delayMs: 150 });
    try {
      const app = apps[0] ?? (await start());
      const target = await registerAgent(app, token(), slower);
      const id = await startCampaign(app, token(), { agent_id: target.id, ...CAMPAIGN });
      await waitForCampaign(app, token(), id, (s) => s.progress.done >= 4);
      const res = await app.inject({ method: 'POST', url: `/v1/campaigns/${id}/cancel`, headers: bearer(token()) });
      expect(res.json()).toEqual({ status: 'cancelled', campaign_id: id });
      await waitFor(async () => (await jobOf(id)).status === 'cancelled', 'the job to end cancelled');
      await waitFor(() => slower.inFlight === 0, 'calls in flight to end');
      const sent = slower.requests.length;
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(slower.requests.length).toBe(sent);
      const status = await waitForCampaign(app, token(), id);
      expect(status).toMatchObject({ status: 'cancelled', error_message: null });
      const stored = await storedRows(id);
      expect(stored.length).toBeGreaterThanOrEqual(4);
      expect(stored.length).toBeLessThan(48);
    } finally {
      await slower.close();
    }
  });
});

describe('a restart in the middle of a campaign', () => {
  async function interruptAndFinish(afterStop?: (id: string) => Promise<void>) {
    const app = apps[0] ?? (await start());
    const target = await registerAgent(app, token(), agent);
    const id = await startCampaign(app, token(), { agent_id: target.id, ...CAMPAIGN });
    await waitForCampaign(app, token(), id, (s) => s.progress.done >= 12);
    await stop(app);
    await afterStop?.(id);
    const before = new Map((await storedRows(id)).map((row) => [row.attack_id, row]));
    const sentBefore = agent.requests.length;
    expect(before.size).toBeGreaterThanOrEqual(12);

    const next = await start();
    const done = await waitForCampaign(next, token(), id);
    expect(done.status, done.error_message ?? '').toBe('completed');
    const after = await storedRows(id);
    expect(after).toHaveLength(48);
    for (const row of after.filter((r) => before.has(r.attack_id))) expect(row).toEqual(before.get(row.attack_id));
    // No attack stored before the restart was sent again; every other one was sent after it.
    const storedPrompts = new Set([...before.values()].map((row) => row.attack_prompt));
    const sentAfter = new Set(sentPrompts(sentBefore));
    expect([...sentAfter].filter((prompt) => prompt !== undefined && storedPrompts.has(prompt))).toEqual([]);
    for (const row of after.filter((r) => !before.has(r.attack_id))) expect(sentAfter.has(row.attack_prompt)).toBe(true);
    const results = (await next.inject({ method: 'GET', url: `/v1/campaigns/${id}/results`, headers: bearer(token()) })).json();
    expect(results.summary.total_tests).toBe(48);
    await waitFor(async () => (await jobOf(id)).status === 'completed', 'the job to end');
    return id;
  }

  it('after a graceful stop: the campaign goes back to the queue and the next process finishes it', async () => {
    await interruptAndFinish();
  });

  it('after a crash: the job its process left running is resumed as a new attempt', async () => {
    const id = await interruptAndFinish(async (campaign) => {
      // What a process that died leaves behind: its job still running, under its name, its lease run out.
      await database.db
        .updateTable('jobs')
        .set({ status: 'running', locked_by: 'a-process-that-died', lease_expires_at: Date.now() })
        .where('subject_id', '=', campaign)
        .execute();
    });
    expect(await jobOf(id)).toMatchObject({ attempt: 2, status: 'completed' });
  });

  it('interrupted on each of its attempts: the campaign fails, with the reason', async () => {
    const app = apps[0] ?? (await start());
    const target = await registerAgent(app, token(), agent);
    const id = await startCampaign(app, token(), { agent_id: target.id, ...CAMPAIGN });
    await waitForCampaign(app, token(), id, (s) => s.progress.done >= 4);
    await stop(app);
    await database.db
      .updateTable('jobs')
      // Two runs interrupted in a row without progress already: this third one spends the budget.
      .set({ status: 'running', locked_by: 'a-process-that-died', lease_expires_at: Date.now(), attempt: 3, strikes: 2 })
      .where('subject_id', '=', id)
      .execute();
    const next = await start();
    const status = await waitForCampaign(next, token(), id);
    expect(status).toMatchObject({ status: 'failed', error_message: expect.stringMatching(/interrupted by a restart on 3 attempts in a row, without progress/) });
  });
});
