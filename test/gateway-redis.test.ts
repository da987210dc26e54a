import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, json, startTestProcess, type TestApp } from './helpers/app.js';
import { createWorld, type World } from './helpers/factories.js';
import { startChatAgent, type ChatAgent } from './helpers/gateway-agents.js';

/**
 * An agent's limit holds across Warden processes that share Redis (WARDEN_REDIS_URL; the test
 * reads WARDEN_TEST_REDIS_URL, which CI sets: vitest.config.ts leaves this file out, and says so,
 * when it is unset).
 */
const REDIS_URL = process.env.WARDEN_TEST_REDIS_URL!;

let t: TestApp;
let second: FastifyInstance;
let world: World;
let agent: ChatAgent;

beforeAll(async () => {
  agent = await startChatAgent();
  t = await buildTestApp({ app: { gateway: { redisUrl: REDIS_URL, timeoutMs: 5_000 } } });
  second = await startTestProcess(t.database, t.clock, { gateway: { redisUrl: REDIS_URL, timeoutMs: 5_000 } });
  world = await createWorld(t.app);
});

afterAll(async () => {
  await second?.close();
  await t?.close();
  await agent?.close();
});

describe('per-agent limits in Redis', () => {
  it('the 4th call in a minute with a limit of 3 gets 429 whichever process it reaches', async () => {
    const token = world.teamA.member.token;
    const created = await t.app.inject({
      method: 'POST',
      url: `/v1/agent-configurations/?team_id=${world.teamA.id}`,
      headers: bearer(token),
      payload: { agent_name: 'limited', agent_url: agent.url, protocol: 'chat_completions', model_name: 'm', rate_limit_requests_per_minute: 3 },
    });
    const id = json(created).id as string;
    const send = (app: FastifyInstance, n: number) =>
      app.inject({
        method: 'POST',
        url: `/v1/gateway/${id}/chat/completions`,
        headers: bearer(token),
        payload: { messages: [{ role: 'user', content: `call ${n}` }] },
      });
    const statuses = [(await send(t.app, 1)).statusCode, (await send(second, 2)).statusCode, (await send(t.app, 3)).statusCode];
    expect(statuses).toEqual([200, 200, 200]);
    const fourth = await send(second, 4);
    expect(fourth.statusCode).toBe(429);
    expect(Number(fourth.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(json(fourth).error.code).toBe('rate_limit_exceeded');
    expect((await send(t.app, 5)).statusCode).toBe(429);
    expect(agent.received.filter((r) => JSON.stringify(r.body).includes('call ')).length).toBe(3);
  });
});
