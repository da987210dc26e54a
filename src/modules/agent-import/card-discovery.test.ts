import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoverAgentCard, isForbiddenAddress } from './card-discovery.js';

describe('isForbiddenAddress', () => {
  it('refuses link-local and unspecified addresses, including cloud metadata, and allows private ones', () => {
    for (const a of ['169.254.169.254', '169.254.0.1', '0.0.0.0', '::', 'fe80::1', 'FEBF::1', '::ffff:169.254.169.254', '::ffff:a9fe:a9fe', '64:ff9b::a9fe:a9fe', 'fd00:ec2::254', 'not-an-ip']) {
      expect(isForbiddenAddress(a), a).toBe(true);
    }
    for (const a of ['10.0.0.5', '192.168.1.10', '172.16.0.1', '127.0.0.1', '::1', '8.8.8.8', 'fd12::1', '2001:db8::1']) {
      expect(isForbiddenAddress(a), a).toBe(false);
    }
  });
});

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

  it('does not fetch from a link-local address at all', async () => {
    const result = await discoverAgentCard('http://169.254.169.254/latest/meta-data/', { timeoutMs: 500, maxBytes: 1024 });
    expect(result.found).toBeNull();
    expect(result.notes.every((n) => n.includes('link-local'))).toBe(true);
  });

  it('refuses the IPv4-mapped and NAT64 spellings of the metadata address', async () => {
    for (const url of ['http://[::ffff:169.254.169.254]/', 'http://[::ffff:a9fe:a9fe]/', 'http://[64:ff9b::a9fe:a9fe]/']) {
      const result = await discoverAgentCard(url, { timeoutMs: 500, maxBytes: 1024 });
      expect(result.notes.every((n) => n.includes('link-local')), url).toBe(true);
    }
  });

  it('checks the address the connection resolves, not only the URL', async () => {
    // localhost resolves to loopback, which is allowed: the lookup hook answers the connection.
    const port = new URL(base).port;
    const result = await discoverAgentCard(`http://localhost:${port}/agent`, { timeoutMs: 2000, maxBytes: 1024 });
    expect(result.notes[0]).toContain('redirects elsewhere');
  });

  it('does not follow a redirect', async () => {
    hits.length = 0;
    const result = await discoverAgentCard(`${base}/agent`, { timeoutMs: 2000, maxBytes: 1024 });
    expect(result.found).toBeNull();
    expect(result.notes[0]).toContain('redirects elsewhere');
    expect(hits).toEqual(['/.well-known/agent-card.json', '/.well-known/agent.json']);
  });
});
