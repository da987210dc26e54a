import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, type TestApp } from './helpers/app.js';
import { createAgent, createUser, createWorld, type Actor, type World } from './helpers/factories.js';

let t: TestApp;
let world: World;

beforeAll(async () => {
  t = await buildTestApp();
  world = await createWorld(t.app);
});
afterAll(async () => t.close());

const STAGES = ['registered', 'tested', 'hardened', 'trusted', 'optimized', 'adapted'] as const;
/** Fields written by the update streams: each stream owns one. */
const FIELDS = ['agent_name', 'model_name', 'purpose', 'agent_url', 'last_tested_by', 'agent_system_prompt', 'hub', 'test_score'] as const;

async function put(url: string, payload: object) {
  const res = await t.app.inject({ method: 'PUT', url, headers: bearer(world.teamA.member.token), payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json();
}

describe('concurrent writers of one agent', () => {
  it('lose no acknowledged update and keep every lifecycle change, in order', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const writesPerStream = 30;
    const lifecycleStreams = 4;
    const lifecyclePerStream = 25;

    // Each update stream writes its own field sequentially; all streams run at once, so
    // every write races with the writes of the other streams and with the lifecycle moves.
    // If any write rewrote fields it did not send (read-modify-write), an earlier value
    // would come back and the final state would not hold each stream's last write.
    const lastWritten = new Map<string, string>();
    const updateStreams = FIELDS.map(async (field) => {
      for (let i = 1; i <= writesPerStream; i++) {
        const value = field === 'test_score' ? String(i) : field === 'agent_url' ? `https://agent.example.com/${i}` : `${field}-${i}`;
        const body = await put(url, { [field]: value });
        expect(body[field]).toBe(value);
        lastWritten.set(field, value);
      }
    });
    const acknowledgedMoves: string[][] = [];
    const lifecycle = Array.from({ length: lifecycleStreams }, async (_, s) => {
      const moves: string[] = [];
      for (let i = 0; i < lifecyclePerStream; i++) {
        const stage = STAGES[(s * 7 + i * 3) % STAGES.length] as string;
        const body = await put(`${url}/lifecycle`, { trust_stage: stage });
        expect(body.trust_stage).toBe(stage);
        moves.push(stage);
      }
      acknowledgedMoves.push(moves);
    });
    // Readers in between must always see a whole, valid agent.
    const readers = Array.from({ length: 3 }, async () => {
      for (let i = 0; i < 20; i++) {
        const res = await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) });
        expect(res.statusCode).toBe(200);
        expect(STAGES).toContain(res.json().trust_stage);
      }
    });
    await Promise.all([...updateStreams, ...lifecycle, ...readers]);

    const final = (await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) })).json();
    for (const field of FIELDS) expect(final[field], field).toBe(lastWritten.get(field));

    const history = (
      await t.app.inject({ method: 'GET', url: `${url}/lifecycle/history?limit=1000`, headers: bearer(world.teamA.member.token) })
    ).json();
    const total = lifecycleStreams * lifecyclePerStream;
    expect(history.count).toBe(total + 1);
    const events: Array<{ from_stage: string | null; to_stage: string }> = history.results;
    expect(events[0]).toMatchObject({ from_stage: null, to_stage: 'registered' });
    // A chain: each change starts where the previous one ended, so none was computed from a stale read.
    for (let i = 1; i < events.length; i++) expect(events[i]?.from_stage, `event ${i}`).toBe(events[i - 1]?.to_stage);
    expect(final.trust_stage).toBe(events[events.length - 1]?.to_stage);
    // Every acknowledged move is in the history, and each stream's moves appear in the order it made them.
    const toStages = events.slice(1).map((e) => e.to_stage);
    expect([...toStages].sort()).toEqual(acknowledgedMoves.flat().sort());
  });

  it('serialises hundreds of simultaneous lifecycle requests into one consistent history', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    const n = 300;
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) =>
        t.app.inject({
          method: 'PUT',
          url: `${url}/lifecycle`,
          headers: bearer(world.teamA.member.token),
          payload: { trust_stage: STAGES[i % STAGES.length] },
        }),
      ),
    );
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    const history = (await t.app.inject({ method: 'GET', url: `${url}/lifecycle/history?limit=1000`, headers: bearer(world.teamA.member.token) })).json();
    expect(history.count).toBe(n + 1);
    const events: Array<{ from_stage: string | null; to_stage: string }> = history.results;
    for (let i = 1; i < events.length; i++) expect(events[i]?.from_stage).toBe(events[i - 1]?.to_stage);
    const counts = new Map<string, number>();
    for (const e of events.slice(1)) counts.set(e.to_stage, (counts.get(e.to_stage) ?? 0) + 1);
    for (const stage of STAGES) expect(counts.get(stage)).toBe(n / STAGES.length);
    const final = (await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) })).json();
    expect(final.trust_stage).toBe(events[events.length - 1]?.to_stage);
  });
  it('hundreds of concurrent writes of the same field: the final value is the last write of a stream, lifecycle streams keep their order', async () => {
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    // Lifecycle streams act as different people, so each stream's events can be picked out of
    // the history (changed_by) and their order checked against the order the stream sent them.
    const movers: Actor[] = [];
    for (let s = 0; s < 4; s++) movers.push(await createUser(t.app, world.teamA.owner.token, world.teamA.id, `mover${s}`));
    const streams = 12;
    const writesPerStream = 25;
    const lastOfStream: string[] = [];
    const written = new Set<string>();
    const nameStreams = Array.from({ length: streams }, async (_, s) => {
      for (let i = 1; i <= writesPerStream; i++) {
        const value = `name-${s}-${i}`;
        written.add(value);
        const body = await put(url, { agent_name: value });
        // The answer is the row as this write left it, not as a racing write did.
        expect(body.agent_name).toBe(value);
      }
      lastOfStream.push(`name-${s}-${writesPerStream}`);
    });
    // And a burst of writes all sent in the same instant.
    const burst = Array.from({ length: 100 }, async (_, i) => {
      const value = `burst-${i}`;
      written.add(value);
      expect((await put(url, { agent_name: value })).agent_name).toBe(value);
    });
    const sent = new Map<string, string[]>();
    const lifecycle = movers.map(async (mover, s) => {
      const moves: string[] = [];
      sent.set(mover.id, moves);
      for (let i = 0; i < 25; i++) {
        const stage = STAGES[(s * 5 + i * 7) % STAGES.length] as string;
        const res = await t.app.inject({ method: 'PUT', url: `${url}/lifecycle`, headers: bearer(mover.token), payload: { trust_stage: stage } });
        expect(res.statusCode, res.body).toBe(200);
        moves.push(stage);
      }
    });
    await Promise.all([...nameStreams, ...burst, ...lifecycle]);

    const final = (await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) })).json();
    expect(written.has(final.agent_name)).toBe(true);
    // A stream's earlier value can only be final if a later write of the same stream was lost.
    if (final.agent_name.startsWith('name-')) expect(lastOfStream).toContain(final.agent_name);

    const history = (await t.app.inject({ method: 'GET', url: `${url}/lifecycle/history?limit=1000`, headers: bearer(world.teamA.member.token) })).json();
    const events: Array<{ from_stage: string | null; to_stage: string; changed_by: string }> = history.results;
    expect(history.count).toBe(1 + 4 * 25);
    for (let i = 1; i < events.length; i++) expect(events[i]?.from_stage, `event ${i}`).toBe(events[i - 1]?.to_stage);
    for (const [moverId, moves] of sent) {
      expect(events.filter((e) => e.changed_by === moverId).map((e) => e.to_stage)).toEqual(moves);
    }
    expect(final.trust_stage).toBe(events[events.length - 1]?.to_stage);
  });

  it('never leaves a key beside a URL of another origin when an update races a change of URL and key', async () => {
    // An update decides whether the key stays from the row as it read it (docs/decisions.md,
    // "Agent updates"). Each round, two updates arrive at once on an agent at a.example.com with
    // a key given for it: one moves it to b.example.com with b's key, the other to another page
    // of a.example.com (which keeps the key it finds, if that key was given for a.example.com).
    // Whatever order they land in, a key for b.example.com must never stay beside an
    // a.example.com URL: the second must see the first's URL and key, not the row both read.
    const agent = await createAgent(t.app, world.teamA.member.token);
    const url = `/v1/agent-configurations/${agent.id}`;
    for (let round = 0; round < 20; round++) {
      await put(url, { agent_url: 'https://a.example.com/start', api_key: `key-for-a-${round}-aaaa` });
      const [toB, toA] = await Promise.all([
        put(url, { agent_url: 'https://b.example.com/agent', api_key: `key-for-b-${round}-bbbb` }),
        put(url, { agent_url: `https://a.example.com/page-${round}` }),
      ]);
      expect(toB.api_key).toMatch(/bbbb$/);
      const final = (await t.app.inject({ method: 'GET', url, headers: bearer(world.teamA.member.token) })).json();
      if (final.agent_url.startsWith('https://b.example.com/')) expect(final.api_key, `round ${round}`).toMatch(/bbbb$/);
      else {
        expect(final.agent_url).toBe(`https://a.example.com/page-${round}`);
        // Landed second, after the move to b: the key it found was b's, so it was dropped.
        expect(final.api_key, `round ${round}`).toBeNull();
      }
      // Each answer is the row as that update left it.
      if (toA.api_key !== null) expect(toA.api_key).toMatch(/aaaa$/);
    }
  });
});
