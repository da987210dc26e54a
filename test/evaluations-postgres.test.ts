import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/database.js';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { openTestDatabase, startTestProcess, TestClock } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { waitFor } from './helpers/jobs.js';

/**
 * Two Warden processes on one PostgreSQL database (each its own pool and job runner) share
 * the evaluations: every one completes, run by one process only, and no prompt is sent twice.
 * Needs a PostgreSQL server (WARDEN_TEST_POSTGRES_URL): vitest.config.ts runs it there only.
 */

let first: Database;
let second: Database;
const apps: FastifyInstance[] = [];
const connector = quickConnector();
const clock = new TestClock();
let world: World;
let agent: TestAgent;

async function startProcess(database: Database, workerId: string): Promise<FastifyInstance> {
  const app = await startTestProcess(database, clock, {
    connector,
    jobs: { pollMs: 10, flushMs: 10, leaseMs: 3_000, stopTimeoutMs: 2_000, concurrency: 2, workerId },
  });
  apps.push(app);
  return app;
}

beforeAll(async () => {
  first = await openTestDatabase();
  await migrateToLatest(first.db, first.dialect, first.schema);
  const url = process.env.WARDEN_TEST_POSTGRES_URL as string;
  second = openDatabase({ dialect: 'postgres', url, schema: first.schema });
  agent = await startTestAgent('slow', { brain: 'refusing', delayMs: 50 });
});
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()));
  connector.close();
  await agent.close();
  await second.close();
  await first.close();
});

describe('two processes on one PostgreSQL database', () => {
  it('share the evaluations without running one twice or sending a prompt twice', async () => {
    const one = await startProcess(first, 'process-one');
    await startProcess(second, 'process-two');
    world = await createWorld(one);
    const token = world.teamA.member.token;
    const target = await registerAgent(one, token, agent);
    const ids: string[] = [];
    const body = { agent_id: target.id, harness_names: ['ethics', 'toxicity'], sample_size: 10 };
    for (let i = 0; i < 6; i++) ids.push(await startEvaluation(one, token, body));
    const runs = await Promise.all(ids.map((id) => waitForEvaluation(one, token, id, undefined, 60_000)));
    for (const run of runs) expect(run).toMatchObject({ status: 'completed', progress: { errors: 0 } });
    const prompts = runs.reduce((total, run) => total + run.progress.total, 0);
    expect(agent.requests).toHaveLength(prompts);
    // A job's end is written just after its evaluation's completion (the handler completes the
    // record in its fenced transaction, then returns): the last one may still be writing it.
    const jobsOf = () => first.db.selectFrom('jobs').select('status').where('subject_id', 'in', ids).execute();
    await waitFor(async () => (await jobsOf()).every((j) => j.status !== 'running'), 'the jobs to end', 5_000);
    const jobs = await first.db.selectFrom('jobs').select(['attempt', 'locked_by', 'status']).where('subject_id', 'in', ids).execute();
    expect(jobs.map((j) => [j.status, j.attempt])).toEqual(ids.map(() => ['completed', 1]));
    expect(new Set(jobs.map((j) => j.locked_by))).toEqual(new Set(['process-one', 'process-two']));
  });
});
