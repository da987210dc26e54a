import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent } from './helpers/agents/index.js';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { AGENT_KEY, quickConnector, registerAgent, startEvaluation, waitForEvaluation } from './helpers/evaluations.js';
import { createUser, createWorld, type Actor, type World } from './helpers/factories.js';
import { CAMPAIGN_KEY, startCampaign, waitForCampaign } from './helpers/redteam.js';

/**
 * A stored key is sent only to the origin (scheme, host, port) it was given for (SECURITY.md,
 * "Keys follow their origin"): a team member who moves an agent, or the agent a campaign
 * attacks, to an address of their own must not receive the owner's key there.
 */

let t: TestApp;
let world: World;
/** The member of team A who registered the agent and its key; `world.teamA.member` is the other member. */
let keeper: Actor;
const connector = quickConnector();
/** The owner's agent, and the member's listener on another port (another origin). */
let owners: TestAgent;
let listener: TestAgent;

beforeAll(async () => {
  t = await buildTestApp({ startJobs: true, app: { connector } });
  world = await createWorld(t.app);
  keeper = await createUser(t.app, world.teamA.owner.token, world.teamA.id, 'keeper');
});
afterAll(async () => {
  await t.close();
  connector.close();
});
afterEach(async () => {
  await Promise.all([owners?.close(), listener?.close()]);
});

async function agents() {
  owners = await startTestAgent('compliant');
  listener = await startTestAgent('compliant');
}

const update = (id: string, payload: Record<string, unknown>, token = world.teamA.member.token) =>
  t.app.inject({ method: 'PUT', url: `/v1/agent-configurations/${id}`, headers: bearer(token), payload });

/** One prompt sent to the agent by an evaluation the member starts; answers the finished evaluation. */
async function evaluateOnce(agentId: string) {
  const id = await startEvaluation(t.app, world.teamA.member.token, { agent_id: agentId, harness_names: ['ethics'], sample_size: 1 });
  return waitForEvaluation(t.app, world.teamA.member.token, id);
}

const authorizations = (agent: TestAgent) => agent.requests.map((request) => request.headers.authorization ?? null);

describe("PUT /v1/agent-configurations/{id}: the key follows the agent's origin", () => {
  it("another origin without api_key drops the key: the member's address never receives it", async () => {
    await agents();
    const agent = await registerAgent(t.app, keeper.token, owners);
    const moved = await update(agent.id, { agent_url: listener.chatUrl });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json()).toMatchObject({ agent_url: listener.chatUrl, api_key: null });
    const run = await evaluateOnce(agent.id);
    expect(run.status).toBe('completed');
    expect(listener.requests.length).toBeGreaterThan(0);
    expect(authorizations(listener)).toEqual(listener.requests.map(() => null));
    expect(owners.requests).toEqual([]);
  });

  it('the masked key sent back with the new address is not a key: dropped too', async () => {
    await agents();
    const agent = await registerAgent(t.app, keeper.token, owners);
    const masked = `********${AGENT_KEY.slice(-4)}`;
    const moved = await update(agent.id, { agent_url: listener.chatUrl, api_key: masked, agent_name: 'Tessa' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().api_key).toBeNull();
    await evaluateOnce(agent.id);
    expect(authorizations(listener).every((value) => value === null)).toBe(true);
  });

  it('the same host on another port, another scheme or spelled as another name is another origin', async () => {
    await agents();
    const port = new URL(owners.url).port;
    for (const elsewhere of [listener.chatUrl, `https://127.0.0.1:${port}/v1`, `http://localhost:${port}/v1`]) {
      const agent = await registerAgent(t.app, keeper.token, owners);
      expect((await update(agent.id, { agent_url: elsewhere })).json().api_key, elsewhere).toBeNull();
    }
    const agent = await registerAgent(t.app, keeper.token, owners);
    expect((await update(agent.id, { agent_url: null })).json().api_key).toBeNull();
  });

  it('a path change on the same origin keeps the key, and it is sent there', async () => {
    await agents();
    const agent = await registerAgent(t.app, keeper.token, owners);
    const samePlace = `${owners.url}/other/v1`;
    const moved = await update(agent.id, { agent_url: samePlace, agent_name: 'Tessa II' });
    expect(moved.json()).toMatchObject({ agent_url: samePlace, api_key: `********${AGENT_KEY.slice(-4)}` });
    await evaluateOnce(agent.id);
    expect(owners.requests.length).toBeGreaterThan(0);
    expect(owners.requests.every((request) => request.path === '/other/v1/chat/completions')).toBe(true);
    expect(authorizations(owners).every((value) => value === `Bearer ${AGENT_KEY}`)).toBe(true);
  });

  it('a new key given with the new address is stored and sent there', async () => {
    await agents();
    const agent = await registerAgent(t.app, keeper.token, owners);
    const theirs = 'sk-listener-own-key-0123456789';
    const moved = await update(agent.id, { agent_url: listener.chatUrl, api_key: theirs });
    expect(moved.json().api_key).toBe('********6789');
    await evaluateOnce(agent.id);
    expect(authorizations(listener).every((value) => value === `Bearer ${theirs}`)).toBe(true);
  });
});

describe("a campaign's key follows the origin it was given for", () => {
  it('is not sent when the agent moved to another origin after the campaign was created: the campaign fails and says why', async () => {
    await agents();
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const owner = await createUser(quiet.app, people.teamA.owner.token, people.teamA.id, 'keeper');
      const agent = await registerAgent(quiet.app, owner.token, owners, { api_key: null });
      const id = await startCampaign(quiet.app, owner.token, { agent_id: agent.id, agent_api_key: CAMPAIGN_KEY, categories: ['injection'], num_tests: 1 });
      const moved = await quiet.app.inject({
        method: 'PUT', url: `/v1/agent-configurations/${agent.id}`, headers: bearer(people.teamA.member.token), payload: { agent_url: listener.chatUrl },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await quiet.app.jobs.start();
      const status = await waitForCampaign(quiet.app, owner.token, id);
      expect(status.status).toBe('failed');
      expect(status.error_message).toMatch(/another origin/);
      expect(listener.requests).toEqual([]);
      expect(owners.requests).toEqual([]);
    } finally {
      await quiet.close();
    }
  });

  it('is sent to the agent when its URL changed only in its path', async () => {
    await agents();
    const quiet = await buildTestApp({ app: { connector } });
    try {
      const people = await createWorld(quiet.app);
      const { token } = await createUser(quiet.app, people.teamA.owner.token, people.teamA.id, 'keeper');
      const agent = await registerAgent(quiet.app, token, owners, { api_key: null });
      const id = await startCampaign(quiet.app, token, { agent_id: agent.id, agent_api_key: CAMPAIGN_KEY, categories: ['injection'], num_tests: 1 });
      const moved = await quiet.app.inject({
        method: 'PUT', url: `/v1/agent-configurations/${agent.id}`, headers: bearer(token), payload: { agent_url: `${owners.url}/other/v1` },
      });
      expect(moved.statusCode, moved.body).toBe(200);
      await quiet.app.jobs.start();
      const status = await waitForCampaign(quiet.app, token, id);
      expect(status.status, status.error_message ?? '').toBe('completed');
      expect(owners.requests.length).toBeGreaterThan(0);
      expect(owners.requests.every((request) => request.path === '/other/v1/chat/completions')).toBe(true);
      expect(authorizations(owners).every((value) => value === `Bearer ${CAMPAIGN_KEY}`)).toBe(true);
    } finally {
      await quiet.close();
    }
  });
});
