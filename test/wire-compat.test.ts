import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createAgent, createWorld, type World } from './helpers/factories.js';
import { expect422 } from './helpers/reference.js';

/**
 * Wire details of the Diamond, Dome and Red Team operations that a client written against the
 * reference service relies on and that the reference check of each answer cannot see. The app
 * runs no jobs: evaluations, generations and campaigns stay queued, so each can be cancelled.
 */

let t: TestApp;
let world: World;
beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const token = () => world.teamA.member.token;
const asJson = () => ({ ...bearer(token()), 'content-type': 'application/json' });

async function created(url: string, payload: object, key: string): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url, headers: bearer(token()), payload });
  expect(res.statusCode, res.body).toBeLessThan(300);
  return res.json()[key] as string;
}

describe('an empty body sent as application/json (a client that sets the header on every call)', () => {
  it('is no body on the operations that take none, as in the reference: they answer as without the header', async () => {
    const agent = await createAgent(t.app, token(), { agent_url: 'http://127.0.0.1:9/v1' });
    const evaluation = await created('/v1/evaluations/', { agent_id: agent.id, harness_names: ['safety'], sample_size: 1 }, 'evaluation_id');
    const campaign = await created('/v1/campaigns', { tool: 'diamond_security', agent_id: agent.id, purpose: 'Support', categories: ['pii'] }, 'campaign_id');
    const harness = await created('/v1/custom-harnesses/', { name: 'Empty body', agent_id: agent.id }, 'id');
    const config = await created('/v1/dome-configs', { agent_id: agent.id }, 'id');
    for (const [url, answer] of [
      [`/v1/evaluations/${evaluation}/cancel`, { status: 'cancelled' }],
      [`/v1/campaigns/${campaign}/cancel`, { status: 'cancelled' }],
      [`/v1/custom-harnesses/${harness}/cancel`, { status: 'cancelled' }],
      [`/v1/dome-configs/${config}/apply`, { id: config, status: 'applied' }],
    ] as const) {
      const res = await t.app.inject({ method: 'POST', url, headers: asJson(), payload: '' });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      expect(res.json()).toMatchObject(answer);
    }
  });

  it('is still a 422 `missing` at ["body"] where the operation requires one', async () => {
    const config = await created('/v1/dome-configs', {}, 'id');
    for (const [method, url] of [
      ['POST', '/v1/evaluations/'],
      ['POST', '/v1/campaigns'],
      ['POST', '/v1/dome-configs'],
      ['PUT', `/v1/dome-configs/${config}`],
    ] as const) {
      expect422(await t.app.inject({ method, url, headers: asJson(), payload: '' }), ['body'], 'missing');
    }
  });
});
