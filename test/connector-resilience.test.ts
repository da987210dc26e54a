import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestAgent, type TestAgent, type TestAgentBehaviour, type TestAgentOptions } from './helpers/agents/index.js';
import { FakeClock } from './helpers/fake-clock.js';
import { createAgentConnector, type AgentConnectorHandle, type AgentConnectorOptions } from '../src/connector/connector.js';
import { createInProcessRateLimiter } from '../src/connector/rate-limiter.js';
import type { AgentCallResult, AgentTarget, CallRateLimiter, Turn } from '../src/connector/types.js';

/** The connector when agents fail, dawdle, flood or are flooded: retries, timeouts, the ceiling, cancellation, the size bound. */

const agents: TestAgent[] = [];
const connectors: AgentConnectorHandle[] = [];
afterEach(async () => {
  connectors.splice(0).forEach((connector) => connector.close());
  await Promise.all(agents.splice(0).map((agent) => agent.close()));
});

async function agent(behaviour: TestAgentBehaviour, options?: TestAgentOptions) {
  const started = await startTestAgent(behaviour, options);
  agents.push(started);
  return started;
}

/** A connector whose waits are recorded, not waited. */
function connector(options: AgentConnectorOptions = {}) {
  const sleeps: number[] = [];
  const made = createAgentConnector({
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    random: () => 0.5,
    ...options,
  });
  connectors.push(made);
  return Object.assign(made, { sleeps });
}

const hi: Turn[] = [{ role: 'user', content: 'hi' }];
const chatTarget = (url: string, extra: Partial<AgentTarget> = {}): AgentTarget => ({ url, protocol: 'chat_completions', rateKey: url, ...extra });

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 500 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  expect(check()).toBe(true);
};

describe('retries', () => {
  it('retries 503, a reset and 500, backing off exponentially with jitter', async () => {
    const bot = await agent('compliant', { script: [503, 'reset', 500] });
    const send = connector();
    expect(await send.send(chatTarget(bot.chatUrl), hi)).toMatchObject({ ok: true, text: 'Sure! Here you go: hi', attempts: 4 });
    // random() = 0.5: three quarters of 500, 1000, 2000 ms.
    expect(send.sleeps).toEqual([375, 750, 1500]);
    expect(bot.requests).toHaveLength(4);
  });

  it('retries an answer cut short (the connection dropped half-way through the body)', async () => {
    const bot = await agent('compliant', { script: ['cut'] });
    expect(await connector().send(chatTarget(bot.chatUrl), hi)).toMatchObject({ ok: true, attempts: 2 });
    const cut = await agent('compliant', { script: ['cut'] });
    expect(await connector({ retries: 0 }).send(chatTarget(cut.chatUrl), hi)).toMatchObject({
      ok: false,
      kind: 'network',
      error: 'the agent could not be reached: the connection was reset',
    });
  });

  it('gives up after the retries, saying how often it tried', async () => {
    const bot = await agent('compliant', { script: [502, 504, 503, 503] });
    expect(await connector().send(chatTarget(bot.chatUrl), hi)).toMatchObject({
      ok: false,
      kind: 'http',
      status: 503,
      attempts: 4,
      error: expect.stringMatching(/^the agent answered HTTP 503 after 4 attempts/),
    });
    const once = await agent('compliant', { script: [503] });
    expect(await connector({ retries: 0 }).send(chatTarget(once.chatUrl), hi)).toMatchObject({ ok: false, attempts: 1 });
  });

  it('honours Retry-After, in seconds or as an HTTP date, capped', async () => {
    const now = Date.parse('2026-03-01T12:00:00Z');
    const bot = await agent('compliant', {
      script: [429, { status: 503, headers: { 'retry-after': 'Sun, 01 Mar 2026 12:00:10 GMT' } }, { status: 429, headers: { 'retry-after': '86400' } }],
      retryAfter: '7',
    });
    const send = connector({ now: () => now, retryAfterMaxMs: 30_000 });
    expect(await send.send(chatTarget(bot.chatUrl), hi)).toMatchObject({ ok: true, attempts: 4 });
    expect(send.sleeps).toEqual([7_000, 10_000, 30_000]);
  });

  it('does not retry a 400, a 404 or a 401', async () => {
    for (const status of [400, 404, 401]) {
      const bot = await agent('compliant', { script: [status] });
      const send = connector();
      expect(await send.send(chatTarget(bot.chatUrl), hi)).toMatchObject({ ok: false, kind: 'http', status, attempts: 1 });
      expect(bot.requests).toHaveLength(1);
      expect(send.sleeps).toEqual([]);
    }
  });

  it('retries a refused connection, then says the agent could not be reached', async () => {
    const port = await closedPort();
    const send = connector();
    const result = await send.send(chatTarget(`http://127.0.0.1:${port}/v1`), hi);
    expect(result).toMatchObject({
      ok: false,
      kind: 'network',
      attempts: 4,
      error: 'the agent could not be reached: the connection was refused after 4 attempts',
    });
    expect(send.sleeps).toHaveLength(3);
  });

  it('a flaky agent gets through with retries', async () => {
    const bot = await agent('flaky', { seed: 3, failureRate: 0.5 });
    const send = connector({ retries: 6 });
    // One after the other, so the seeded failures fall on the same calls every run.
    const results: AgentCallResult[] = [];
    for (let i = 0; i < 10; i++) results.push(await send.send(chatTarget(bot.chatUrl), hi));
    expect(results.every((result) => result.ok)).toBe(true);
    expect(bot.requests.length).toBeGreaterThan(10);
  });
});

describe('time and size', () => {
  it('an attempt with no answer in time is a timeout', async () => {
    const bot = await agent('compliant', { script: ['hang', 'hang'] });
    const result = await connector({ timeoutMs: 150, retries: 1 }).send(chatTarget(bot.chatUrl), hi);
    expect(result).toMatchObject({ ok: false, kind: 'timeout', attempts: 2, error: 'no answer within 0.1 s (2 attempts)' });
    await waitFor(() => bot.inFlight === 0);
  });

  it('an answer past the bound is cut off: too_large, not retried, the connection dropped', async () => {
    for (const declareLength of [false, true]) {
      // More than the kernel's loopback buffers can take in (tcp_rmem's maximum is 32 MiB on some
      // machines): a body they absorbed whole would count as sent, whether or not Warden dropped it.
      const bot = await agent('oversized', { bodyBytes: 64 * 1024 * 1024, declareLength });
      const result = await connector({ maxResponseBytes: 256 * 1024 }).send(chatTarget(bot.chatUrl), hi);
      expect(result).toMatchObject({ ok: false, kind: 'too_large', attempts: 1, error: "the agent's answer passed 256 KiB; it was cut off" });
      await waitFor(() => bot.abortedResponses === 1);
    }
  });

  it('the same bound on A2A', async () => {
    const bot = await agent('oversized', { bodyBytes: 2 * 1024 * 1024 });
    const result = await connector().send({ url: bot.a2aUrl, protocol: 'a2a', rateKey: 'k' }, hi);
    expect(result).toMatchObject({ ok: false, kind: 'too_large', error: "the agent's answer passed 1 MiB; it was cut off" });
  });
});

describe('cancellation', () => {
  it("the caller's signal aborts a request in flight", async () => {
    const bot = await agent('slow', { delayMs: 30_000 });
    const controller = new AbortController();
    const pending = connector().send(chatTarget(bot.chatUrl), hi, { signal: controller.signal });
    await waitFor(() => bot.inFlight === 1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, kind: 'cancelled', attempts: 1 });
    await waitFor(() => bot.inFlight === 0);
  });

  it('a call cancelled while it waits (back-off or the ceiling) sends nothing more', async () => {
    const bot = await agent('compliant', { script: [503] });
    const controller = new AbortController();
    const backingOff = createAgentConnector({
      sleep: (_ms, signal) => new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    });
    connectors.push(backingOff);
    const pending = backingOff.send(chatTarget(bot.chatUrl), hi, { signal: controller.signal });
    await waitFor(() => bot.requests.length === 1);
    controller.abort();
    expect(await pending).toMatchObject({ ok: false, kind: 'cancelled', attempts: 1 });

    const clock = new FakeClock();
    const limiter = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    const limited = connector({ limiter });
    const target = chatTarget(bot.chatUrl, { rateLimitPerMinute: 1, rateKey: 'agent:limited' });
    expect(await limited.send(target, hi)).toMatchObject({ ok: true });
    const second = new AbortController();
    const waiting = limited.send(target, hi, { signal: second.signal });
    await waitFor(() => limiter.waiting('agent:limited') === 1);
    second.abort();
    expect(await waiting).toMatchObject({ ok: false, kind: 'cancelled', attempts: 0 });
    expect(bot.requests).toHaveLength(2);
    expect(await connector().send(target, hi, { signal: AbortSignal.abort() })).toMatchObject({ ok: false, kind: 'cancelled', attempts: 0 });
  });
});

describe('the rate ceiling', () => {
  /** The most requests any 60-second window [t, t + 60 s) of the agent's clock holds. */
  function busiestWindow(times: number[]): number {
    const sorted = [...times].sort((a, b) => a - b);
    let most = 0;
    for (let i = 0, j = 0; j < sorted.length; j++) {
      while (sorted[j]! - sorted[i]! >= 60_000) i++;
      most = Math.max(most, j - i + 1);
    }
    return most;
  }

  it('holds across many concurrent callers: never more than N starts in any minute, and the agent never answers 429', async () => {
    const clock = new FakeClock();
    const bot = await agent('rate-limited', { limit: 4, windowMs: 60_000, now: clock.now, delayMs: 5 });
    const inner = createInProcessRateLimiter({ now: clock.now, sleep: clock.sleep });
    let granted = 0;
    const limiter: CallRateLimiter = {
      acquire: (key, perMinute, signal) => inner.acquire(key, perMinute, signal).then(() => void (granted += 1)),
      tryAcquire: (key, perMinute) => inner.tryAcquire(key, perMinute),
    };
    const sendA = connector({ limiter, retries: 0 });
    const sendB = connector({ limiter, retries: 0 });
    const target = chatTarget(bot.chatUrl, { rateLimitPerMinute: 4, rateKey: 'agent:shared' });
    let finished = 0;
    const calls = Array.from({ length: 22 }, (_, i) => (i % 2 ? sendA : sendB).send(target, hi).finally(() => (finished += 1)));
    // Move the clock only when every granted call has been answered, so no request is in flight while time passes.
    while (finished < calls.length) {
      await new Promise((resolve) => setTimeout(resolve, 2));
      if (granted === finished && bot.inFlight === 0) clock.advanceToNext();
    }
    const results: AgentCallResult[] = await Promise.all(calls);
    expect(results.filter((result) => !result.ok)).toEqual([]);
    expect(bot.requests).toHaveLength(22);
    expect(busiestWindow(bot.requests.map((request) => request.receivedAt))).toBe(4);
  });
});
