import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, TEST_ENGINE, type TestApp } from './helpers/app.js';
import { createAgent, createWorld, type World } from './helpers/factories.js';
import { expect422 } from './helpers/reference.js';

// Integer query parameters are read from text as pydantic reads them (src/http/validation.ts):
// what Number() alone would take (exponents, hexadecimal) is a 422 int_parsing, as for the reference.
let t: TestApp;
let world: World;
let agentId: string;
beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
  agentId = (await createAgent(t.app, world.teamA.member.token)).id;
});
afterAll(async () => t.close());

const get = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) });

describe(`integer query parameters (${TEST_ENGINE})`, () => {
  it('refuses exponents and hexadecimal with int_parsing, on every list', async () => {
    expect422(await get('/v1/rules/?limit=1e3'), ['query', 'limit'], 'int_parsing');
    expect422(await get('/v1/rules/?offset=0x10'), ['query', 'offset'], 'int_parsing');
    expect422(await get('/v1/agent-configurations/?limit=1e2'), ['query', 'limit'], 'int_parsing');
    expect422(await get(`/v1/agent-configurations/${agentId}/lifecycle/history?offset=0b1`), ['query', 'offset'], 'int_parsing');
    expect422(await get('/v1/policies/?limit=%20'), ['query', 'limit'], 'int_parsing');
  });

  it('takes what pydantic takes: surrounding spaces, a sign, leading zeros', async () => {
    for (const limit of ['%205', '%2B5', '05', '5%20', '5.0']) {
      const res = await get(`/v1/agent-configurations/?limit=${limit}`);
      expect(res.statusCode, `${limit}: ${res.body}`).toBe(200);
    }
    const page = await get('/v1/rules/?limit=%2B1&offset=00');
    expect(page.statusCode, page.body).toBe(200);
  });

  it('still bounds a well-written integer', async () => {
    expect422(await get('/v1/rules/?limit=0'), ['query', 'limit'], 'greater_than_equal');
    expect422(await get('/v1/rules/?limit=-5'), ['query', 'limit'], 'greater_than_equal');
  });
});
