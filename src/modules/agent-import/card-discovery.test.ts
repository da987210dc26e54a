import { createServer, type Server } from 'node:http';
import { createServer as createTcpServer, type AddressInfo, type Server as TcpServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFence, parseOutboundRules, type HostResolver } from '../../connector/index.js';
import { DEFAULT_DISCOVERY, discoverAgentCard, WELL_KNOWN_PATHS } from './card-discovery.js';

describe('discoverAgentCard', () => {
  let server: Server;
  let base: string;
  let hits: string[];
  beforeAll(async () => {
    hits = [];
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      if (req.url === '/.well-known/agent-card.json') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const linkLocal = (shown: string) => `${shown} is a link-local address (cloud metadata lives there); Warden never calls it`;
  const refused = (origin: string, why = linkLocal(new URL(origin).hostname)) => WELL_KNOWN_PATHS.map((path) => `${origin}${path} is not fetched: ${why}`);

  it('does not fetch from a link-local address at all', async () => {
    const result = await discoverAgentCard('http://169.254.169.254/latest/meta-data/', { timeoutMs: 500, maxBytes: 1024 });
    expect(result).toEqual({ found: null, notes: refused('http://169.254.169.254') });
    const card = await discoverAgentCard('http://169.254.169.254/card.json', { timeoutMs: 500, maxBytes: 1024 });
    expect(card.notes).toEqual([
      `http://169.254.169.254/card.json is not fetched: ${linkLocal('169.254.169.254')}`,
      ...refused('http://169.254.169.254'),
    ]);
  });

  it('refuses the IPv4-mapped and NAT64 spellings of the metadata address', async () => {
    const cases: Array<[string, string]> = [
      ['http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]'],
      ['http://[::ffff:a9fe:a9fe]/', 'http://[::ffff:a9fe:a9fe]'],
      ['http://[64:ff9b::a9fe:a9fe]/', 'http://[64:ff9b::a9fe:a9fe]'],
    ];
    for (const [url, origin] of cases) {
      const result = await discoverAgentCard(url, { timeoutMs: 500, maxBytes: 1024 });
      expect(result, url).toEqual({ found: null, notes: refused(origin) });
    }
  });

  it('checks the address the connection resolves, not only the URL', async () => {
    // localhost resolves to loopback, which is allowed: the lookup hook answers the connection.
    const port = new URL(base).port;
    const result = await discoverAgentCard(`http://localhost:${port}/agent`, { timeoutMs: 2000, maxBytes: 1024 });
    expect(result).toEqual({
      found: null,
      notes: [
        `http://localhost:${port}/.well-known/agent-card.json redirects elsewhere: give the card's final URL as agent_url`,
        `http://localhost:${port}/.well-known/agent.json answered HTTP 404`,
      ],
    });
  });

  it('refuses every cloud metadata address and name the connector refuses, not only link-local ones', async () => {
    const options = { timeoutMs: 300, maxBytes: 1024 };
    const alibaba = await discoverAgentCard('http://100.100.100.200/', options);
    expect(alibaba).toEqual({ found: null, notes: refused('http://100.100.100.200', '100.100.100.200 is a cloud metadata address; Warden never calls it') });
    const google = await discoverAgentCard('http://metadata.google.internal/', options);
    const why = 'metadata.google.internal is a cloud metadata service; Warden never calls it';
    expect(google).toEqual({ found: null, notes: refused('http://metadata.google.internal', why) });
  });

  it("goes through the service's fence: WARDEN_OUTBOUND_DENY and WARDEN_OUTBOUND_ALLOW apply, and nothing is fetched", async () => {
    hits.length = 0;
    const denied = createOutboundFence(parseOutboundRules('127.0.0.0/8', undefined));
    const host = new URL(base).hostname;
    const result = await discoverAgentCard(`${base}/agent`, { timeoutMs: 2000, maxBytes: 1024, fence: denied });
    expect(result).toEqual({ found: null, notes: refused(base, `${host} is refused by WARDEN_OUTBOUND_DENY (127.0.0.0/8)`) });
    const allowOther = createOutboundFence(parseOutboundRules(undefined, '10.0.0.0/8'));
    const notAllowed = await discoverAgentCard(`${base}/agent`, { timeoutMs: 2000, maxBytes: 1024, fence: allowOther });
    expect(notAllowed).toEqual({ found: null, notes: refused(base, `${host} is not in WARDEN_OUTBOUND_ALLOW`) });
    expect(hits).toEqual([]);
  });

  it('checks the addresses a name resolves to when connecting, with the fence\'s resolver (DNS rebinding gains nothing)', async () => {
    hits.length = 0;
    const port = new URL(base).port;
    const answers: Record<string, string> = { 'agent.example.test': '127.0.0.1', 'rebound.example.test': '169.254.169.254' };
    const resolver: HostResolver = async (name) => [{ address: answers[name] ?? '192.0.2.1', family: 4 }];
    const fence = createOutboundFence(undefined, { resolver });
    const reached = await discoverAgentCard(`http://agent.example.test:${port}/agent`, { timeoutMs: 2000, maxBytes: 1024, fence });
    expect(reached.notes[1]).toBe(`http://agent.example.test:${port}/.well-known/agent.json answered HTTP 404`);
    expect(hits).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
    const rebound = await discoverAgentCard(`http://rebound.example.test:${port}/agent`, { timeoutMs: 2000, maxBytes: 1024, fence });
    expect(rebound).toEqual({
      found: null,
      notes: refused(`http://rebound.example.test:${port}`, `rebound.example.test (169.254.169.254) is a link-local address (cloud metadata lives there); Warden never calls it`),
    });
    expect(hits).toHaveLength(2);
  });

  it('does not follow a redirect', async () => {
    hits.length = 0;
    const result = await discoverAgentCard(`${base}/agent`, { timeoutMs: 2000, maxBytes: 1024 });
    expect(result).toEqual({
      found: null,
      notes: [
        `${base}/.well-known/agent-card.json redirects elsewhere: give the card's final URL as agent_url`,
        `${base}/.well-known/agent.json answered HTTP 404`,
      ],
    });
    expect(hits).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
  });
});

/** A card of exactly `bytes` bytes (the description pads it). */
function cardOfSize(bytes: number): string {
  const base = { name: 'Padded', url: 'https://padded.example.com/', description: '' };
  const text = JSON.stringify(base);
  return JSON.stringify({ ...base, description: 'x'.repeat(bytes - text.length) });
}

describe('discoverAgentCard: timeout and size cap', () => {
  /** Accepts connections and never answers. */
  let silent: TcpServer;
  let silentBase: string;
  const sockets = new Set<Socket>();
  /** Answers the headers and part of the body, then stalls. */
  let stalled: Server;
  let stalledBase: string;
  /** Serves `/<bytes>/card.json` (with Content-Length) and `/chunked/<bytes>/card.json` (without) as a card of that size. */
  let sized: Server;
  let sizedBase: string;

  beforeAll(async () => {
    silent = createTcpServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    silentBase = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;

    stalled = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"name": "Slow", ');
    });
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    stalledBase = `http://127.0.0.1:${(stalled.address() as AddressInfo).port}`;

    sized = createServer((req, res) => {
      const match = /^\/(chunked\/)?(\d+)\/card\.json$/.exec(req.url ?? '');
      const chunked = match?.[1] !== undefined;
      const bytes = Number(match?.[2]);
      if (!Number.isInteger(bytes) || bytes <= 0) {
        res.writeHead(404).end();
        return;
      }
      const body = cardOfSize(bytes);
      if (chunked) {
        res.writeHead(200, { 'content-type': 'application/json' });
        for (let i = 0; i < body.length; i += 16 * 1024) res.write(body.slice(i, i + 16 * 1024));
        res.end();
      } else {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) });
        res.end(body);
      }
    });
    await new Promise<void>((resolve) => sized.listen(0, '127.0.0.1', resolve));
    sizedBase = `http://127.0.0.1:${(sized.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    stalled.closeAllConnections();
    await Promise.all([
      new Promise<void>((resolve) => silent.close(() => resolve())),
      new Promise<void>((resolve) => stalled.close(() => resolve())),
      new Promise<void>((resolve) => sized.close(() => resolve())),
    ]);
  });

  it('gives up on a server that never answers, at each place, and finds no card', async () => {
    const result = await discoverAgentCard(`${silentBase}/agent`, { timeoutMs: 200, maxBytes: 1024 });
    expect(result).toEqual({
      found: null,
      notes: WELL_KNOWN_PATHS.map((path) => `${silentBase}${path} did not answer within 0.2 s`),
    });
  });

  it('gives up on a server that stops in the middle of the card', async () => {
    const result = await discoverAgentCard(`${stalledBase}/agent`, { timeoutMs: 200, maxBytes: 1024 });
    expect(result).toEqual({
      found: null,
      notes: WELL_KNOWN_PATHS.map((path) => `${stalledBase}${path} did not answer within 0.2 s`),
    });
  });

  it('reads a card of up to 256 KiB and refuses a larger one, with or without Content-Length', async () => {
    expect(DEFAULT_DISCOVERY.maxBytes).toBe(256 * 1024);
    for (const prefix of ['', '/chunked']) {
      const atCap = await discoverAgentCard(`${sizedBase}${prefix}/${256 * 1024}/card.json`, DEFAULT_DISCOVERY);
      expect(atCap.found?.card.name, prefix).toBe('Padded');
      expect((atCap.found?.card.description as string).length).toBe(256 * 1024 - JSON.stringify({ name: 'Padded', url: 'https://padded.example.com/', description: '' }).length);
    }
    for (const prefix of ['', '/chunked']) {
      const over = await discoverAgentCard(`${sizedBase}${prefix}/${256 * 1024 + 1}/card.json`, DEFAULT_DISCOVERY);
      expect(over.found, prefix).toBeNull();
      expect(over.notes[0], prefix).toBe(`${sizedBase}${prefix}/${256 * 1024 + 1}/card.json is larger than 256 KiB, which is too large for an agent card`);
    }
  });
});
