import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createWorld, type World } from './helpers/factories.js';
import { waitFor } from './helpers/jobs.js';
import { startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * A job that fails on its database (here: its results table is gone) says so in words for a
 * person — an evaluation's status_message and error_message, a campaign's error_message, a
 * generation's creation_error — never with the driver's or SQL text.
 */

const PERSON_MESSAGE = "The run's data could not be read or stored in Warden's database (the server's log has the detail)";
/** What SQLite's and PostgreSQL's messages for a missing table say, and the table names. */
const DRIVER_TEXT = /no such table|relation|does not exist|evaluation_results|redteam_findings|custom_harness_prompts|select|insert/i;

let t: TestApp;
let world: World;
let agent: TestAgent;
const connector = quickConnector();
const token = () => world.teamA.member.token;

beforeAll(async () => {
  t = await buildTestApp({ referenceCheck: true, startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  agent = await startTestAgent('refusing');
  for (const table of ['evaluation_results', 'redteam_findings', 'custom_harness_prompts']) {
    await t.database.db.schema.dropTable(table).execute();
  }
});
afterAll(async () => {
  await t.close();
  connector.close();
  await agent.close();
});

describe('a job that fails on its database', () => {
  it('an evaluation', async () => {
    const registered = await registerAgent(t.app, token(), agent);
    const id = await startEvaluation(t.app, token(), { agent_id: registered.id, team_id: world.teamA.id, harness_names: ['ethics'], sample_size: 2 });
    const run = await waitForEvaluation(t.app, token(), id);
    expect(run).toMatchObject({ status: 'failed', error_message: PERSON_MESSAGE });
    expect(run.status_message).toContain(PERSON_MESSAGE);
    expect(run.status_message).not.toMatch(DRIVER_TEXT);
  });

  it('a campaign', async () => {
    const id = await startCampaign(t.app, token(), { agent_url: agent.chatUrl, categories: ['injection'], num_tests: 1 });
    const status = await waitForCampaign(t.app, token(), id);
    expect(status).toMatchObject({ status: 'failed', error_message: PERSON_MESSAGE });
    expect(JSON.stringify(status)).not.toMatch(DRIVER_TEXT);
  });

  it('a custom-harness generation', async () => {
    const registered = await registerAgent(t.app, token(), agent);
    const persona = await t.app.inject({
      method: 'POST',
      url: '/v1/personas/',
      headers: bearer(token()),
      payload: { team_id: world.teamA.id, name: 'Mallory', role: 'contractor', intent: 'malicious' },
    });
    expect(persona.statusCode, persona.body).toBe(201);
    const created = await t.app.inject({
      method: 'POST',
      url: '/v1/custom-harnesses/',
      headers: bearer(token()),
      payload: { name: 'Personas only', agent_id: registered.id, persona_ids: [persona.json().id] },
    });
    expect(created.statusCode, created.body).toBe(201);
    let body: any;
    await waitFor(async () => {
      body = (await t.app.inject({ method: 'GET', url: `/v1/custom-harnesses/${created.json().id}`, headers: bearer(token()) })).json();
      return body.harness.status !== 'draft';
    }, 'the generation to end');
    expect(body.harness).toMatchObject({ status: 'failed', creation_error: PERSON_MESSAGE });
  });
});
