import { describe, expect, it } from 'vitest';
import { cidrContains, embeddedIPv4s, insideBlocks, matchingBlock, parseCidr, parseIp } from './ip.js';
import { createOutboundFence, OutboundRefusal, OutboundRulesError, parseOutboundRules, type HostResolver } from './outbound.js';

/** A resolver from a table: tests never ask real DNS. */
const table =
  (entries: Record<string, string[]>): HostResolver =>
  async (host) => {
    const addresses = entries[host];
    if (!addresses) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };

/** The host of a URL as the connector sees it (WHATWG parsing normalises numeric IPv4 forms). */
const hostOf = (url: string) => new URL(url).hostname;

function refused(run: () => void): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(OutboundRefusal);
    return (error as Error).message;
  }
  throw new Error('not refused');
}

describe('ip', () => {
  it('parses and matches, IPv4 inside IPv6 included', () => {
    const link = parseCidr('169.254.0.0/16')!;
    const blocks = [{ cidr: link }];
    expect(cidrContains(link, parseIp('169.254.169.254')!)).toBe(true);
    expect(matchingBlock(blocks, parseIp('::ffff:169.254.169.254')!)).toBeDefined();
    expect(matchingBlock(blocks, parseIp('[::ffff:a9fe:a9fe]')!)).toBeDefined();
    expect(matchingBlock(blocks, parseIp('64:ff9b::a9fe:a9fe')!)).toBeDefined();
    expect(cidrContains(link, parseIp('169.255.0.1')!)).toBe(false);
    expect(cidrContains(parseCidr('fd00::/8')!, parseIp('fd12::1')!)).toBe(true);
    expect(cidrContains(parseCidr('10.1.2.0/23')!, parseIp('10.1.3.255')!)).toBe(true);
    expect(cidrContains(parseCidr('10.1.2.0/23')!, parseIp('10.1.4.0')!)).toBe(false);
    expect(parseCidr('::ffff:10.0.0.0/104')).toEqual({ family: 4, bytes: Uint8Array.from([10, 0, 0, 0]), prefix: 8 });
    expect(parseCidr('10.0.0.0/33')).toBeNull();
    expect(parseIp('example.com')).toBeNull();
  });
});

/** 169.254.169.254 (a9fe:a9fe) inside IPv6, in every wrapping the fence unwraps. */
const WRAPPED_METADATA = [
  '::ffff:169.254.169.254', // IPv4-mapped
  '::ffff:a9fe:a9fe',
  '::ffff:0:169.254.169.254', // IPv4-translated (SIIT)
  '::ffff:0:a9fe:a9fe',
  '::169.254.169.254', // IPv4-compatible
  '::a9fe:a9fe',
  '64:ff9b::169.254.169.254', // NAT64, well-known prefix
  '64:ff9b::a9fe:a9fe',
  '64:ff9b:1::a9fe:a9fe', // NAT64, local-use prefix as a /96
  '64:ff9b:1:a9fe:a9:fe00::', // ... as a /48 (RFC 6052: byte 8 is skipped)
  '64:ff9b:1:a9:fe:a9fe::', // ... as a /56
  '64:ff9b:1:0:a9:fea9:fe00:0', // ... as a /64
  '2002:a9fe:a9fe::', // 6to4
  '2002:a9fe:a9fe:1::5',
  '2001:0:4136:e378:8000:63bf:5601:5601', // Teredo, client 169.254.169.254 (obfuscated)
  '2001:0:a9fe:a9fe:8000:63bf:3fff:fdd2', // Teredo, server 169.254.169.254
];

describe('IPv4 inside IPv6', () => {
  it.each(WRAPPED_METADATA)('reads 169.254.169.254 in %s', (text) => {
    const readings = embeddedIPv4s(parseIp(text)!).map((ip) => ip.bytes.join('.'));
    expect(readings).toContain('169.254.169.254');
  });

  it('lets the local-use NAT64 prefix through by default in each layout when the address is not refused', () => {
    const fence = createOutboundFence();
    for (const text of ['64:ff9b:1::5db8:d822', '64:ff9b:1:5db8:d8:2200::', '64:ff9b:1:5d:b8:d822::', '64:ff9b:1:0:5d:b8d8:2200:0']) {
      expect(() => fence.checkHost(`[${text}]`)).not.toThrow();
    }
  });

  it('reads nothing in plain IPv6 addresses, nor in :: and ::1', () => {
    for (const text of ['::', '::1', 'fd12::1', '2001:db8::a9fe:a9fe', '2606:4700::6810:84e5', 'fe80::1']) {
      expect(embeddedIPv4s(parseIp(text)!)).toEqual([]);
    }
  });

  it('lets an allow-list of IPv4 blocks through a wrapped address only when every reading is inside', () => {
    const allow = [{ cidr: parseCidr('10.0.0.0/8')! }];
    expect(insideBlocks(allow, parseIp('64:ff9b::10.1.2.3')!)).toBe(true);
    expect(insideBlocks(allow, parseIp('2002:0a01:0203::1')!)).toBe(true);
    expect(insideBlocks(allow, parseIp('64:ff9b::93.184.216.34')!)).toBe(false);
    expect(insideBlocks(allow, parseIp('64:ff9b:1::10.1.2.3')!)).toBe(true);
    // 10.1.2.3 as the local-use NAT64 prefix's /48 layout, 1.2.3.0 as its /56 one: ambiguous,
    // so only an IPv6 block opens it.
    expect(embeddedIPv4s(parseIp('64:ff9b:1:a01:2:300::')!).map((ip) => ip.bytes.join('.'))).toEqual(['10.1.2.3', '1.2.3.0', '2.3.0.0']);
    expect(insideBlocks(allow, parseIp('64:ff9b:1:a01:2:300::')!)).toBe(false);
    expect(insideBlocks([{ cidr: parseCidr('64:ff9b:1::/48')! }], parseIp('64:ff9b:1:a01:2:300::')!)).toBe(true);
  });
});

describe('parseOutboundRules', () => {
  it('reads CIDRs, addresses and names; unset or empty is no rule', () => {
    const rules = parseOutboundRules(' 10.0.0.0/8, 192.168.1.5 ,fd00::/8, internal.example.com, *.corp.example, .lab.example ', undefined);
    expect(rules.allow).toBeNull();
    expect(rules.deny.map((rule) => rule.kind)).toEqual(['cidr', 'cidr', 'cidr', 'host', 'host', 'host']);
    expect(parseOutboundRules('', '  ')).toEqual({ deny: [], allow: null });
  });

  it('names the variable at fault', () => {
    expect(() => parseOutboundRules('10.0.0.0/33', undefined)).toThrow(OutboundRulesError);
    expect(() => parseOutboundRules('10.0.0.0/33', undefined)).toThrow(/^WARDEN_OUTBOUND_DENY: "10.0.0.0\/33"/);
    expect(() => parseOutboundRules(undefined, 'exa mple.com')).toThrow(/^WARDEN_OUTBOUND_ALLOW: /);
    expect(() => parseOutboundRules(undefined, ',,')).toThrow(/^WARDEN_OUTBOUND_ALLOW: lists nothing/);
    expect(() => parseOutboundRules('http://x.example', undefined)).toThrow(/^WARDEN_OUTBOUND_DENY: /);
  });
});

describe('the fence, by default', () => {
  const fence = createOutboundFence(undefined, {
    resolver: table({ localhost: ['127.0.0.1', '::1'], 'rebind.example': ['93.184.216.34', '169.254.169.254'], 'ok.example': ['93.184.216.34'] }),
  });

  it.each([
    'http://169.254.169.254/latest/meta-data',
    'http://169.254.170.2/v2/credentials',
    'http://[fd00:ec2::254]/', // AWS instance metadata
    'http://[fd00:ec2::23]/', // AWS EKS Pod Identity credentials
    'http://[fd20:ce::254]/', // GCP metadata
    'http://[fd00:c1::a9fe:a9fe]/', // Oracle Cloud metadata
    'http://169.254.170.23/', // AWS EKS Pod Identity credentials over IPv4
    ...WRAPPED_METADATA.map((text) => `http://[${text}]/`),
    'http://[64:ff9b::100.100.100.200]/', // Alibaba metadata through NAT64
    'http://[2002:6464:64c8::]/', // ... and through 6to4
    'http://100.100.100.200/',
    'http://[::ffff:169.254.169.254]/',
    'http://2852039166/', // decimal
    'http://0xa9.0xfe.0xa9.0xfe/', // hex
    'http://0251.0376.0251.0376/', // octal
    'http://169.254.43518/', // a.b.c with a 16-bit last part
    'http://0.0.0.0:8080/',
    'http://[::]/',
    'http://[fe80::1]/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
  ])('refuses %s', (url) => {
    refused(() => fence.checkHost(hostOf(url)));
  });

  it('refuses metadata names, also spelt with a trailing dot or in capitals', () => {
    for (const host of ['metadata.google.internal', 'METADATA.GOOGLE.INTERNAL.', 'metadata', 'metadata.goog']) {
      expect(refused(() => fence.checkHost(host))).toMatch(/cloud metadata/);
    }
  });

  it('gives the same verdict for a host every time it is asked (the verdicts are kept per host)', () => {
    for (let i = 0; i < 3; i++) {
      expect(refused(() => fence.checkHost('169.254.169.254'))).toMatch(/link-local/);
      expect(refused(() => fence.checkHost('metadata.goog'))).toMatch(/cloud metadata/);
      expect(() => fence.checkHost('127.0.0.1')).not.toThrow();
    }
  });

  it('allows loopback, private and public addresses', async () => {
    for (const host of ['127.0.0.1', '[::1]', '10.0.0.8', '192.168.1.20', '93.184.216.34']) expect(() => fence.checkHost(host)).not.toThrow();
    await expect(fence.resolve('localhost')).resolves.toEqual([
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ]);
  });

  it('checks every address a name resolves to (a name pointing at metadata is refused)', async () => {
    await expect(fence.resolve('rebind.example')).rejects.toThrow(/rebind\.example \(169\.254\.169\.254\) is a link-local address/);
    await expect(fence.resolve('ok.example')).resolves.toHaveLength(1);
    await expect(fence.resolve('missing.example')).rejects.toMatchObject({ code: 'ENOTFOUND' });
  });

  it('checks IPv4-mapped IPv6 answers of the resolver', async () => {
    const mapped = createOutboundFence(undefined, { resolver: table({ 'sneaky.example': ['::ffff:169.254.169.254'] }) });
    await expect(mapped.resolve('sneaky.example')).rejects.toBeInstanceOf(OutboundRefusal);
  });
});

describe('the fence with operator lists', () => {
  const resolver = table({
    'agent.corp.example': ['10.1.2.3'],
    'db.corp.example': ['10.9.9.9'],
    'api.partner.example': ['203.0.113.10'],
    'partner.example': ['203.0.113.11'],
    'evil.example': ['10.9.9.9'],
    'meta.partner.example': ['169.254.169.254'],
  });

  it('deny: CIDRs and names refused; anything else allowed', async () => {
    const fence = createOutboundFence(parseOutboundRules('10.9.0.0/16, *.internal.example, 127.0.0.0/8', undefined), { resolver });
    expect(refused(() => fence.checkHost('10.9.1.1'))).toMatch(/WARDEN_OUTBOUND_DENY \(10\.9\.0\.0\/16\)/);
    for (const wrapped of ['[::ffff:10.9.1.1]', '[::ffff:0:a09:101]', '[::a09:101]', '[64:ff9b::10.9.1.1]', '[64:ff9b:1::a09:101]', '[2002:a09:101::]']) {
      expect(refused(() => fence.checkHost(wrapped))).toMatch(/WARDEN_OUTBOUND_DENY \(10\.9\.0\.0\/16\)/);
    }
    expect(refused(() => fence.checkHost('[2001:0:4136:e378:8000:63bf:f5f6:fefe]'))).toMatch(/WARDEN_OUTBOUND_DENY/); // Teredo client 10.9.1.1
    expect(refused(() => fence.checkHost('127.0.0.1'))).toMatch(/WARDEN_OUTBOUND_DENY/);
    expect(refused(() => fence.checkHost('x.internal.example'))).toMatch(/WARDEN_OUTBOUND_DENY \(\*\.internal\.example\)/);
    expect(() => fence.checkHost('internal.example')).not.toThrow();
    await expect(fence.resolve('evil.example')).rejects.toThrow(/evil\.example \(10\.9\.9\.9\) is refused by WARDEN_OUTBOUND_DENY/);
    await expect(fence.resolve('agent.corp.example')).resolves.toHaveLength(1);
  });

  it('allow: only what is listed (by CIDR or by name), loopback included; deny and the fixed list still win', async () => {
    const fence = createOutboundFence(parseOutboundRules('10.9.9.9', '10.1.0.0/16, .partner.example, db.corp.example'), { resolver });
    await expect(fence.resolve('agent.corp.example')).resolves.toHaveLength(1);
    await expect(fence.resolve('api.partner.example')).resolves.toHaveLength(1);
    await expect(fence.resolve('partner.example')).resolves.toHaveLength(1);
    expect(refused(() => fence.checkHost('127.0.0.1'))).toMatch(/not in WARDEN_OUTBOUND_ALLOW/);
    expect(refused(() => fence.checkHost('93.184.216.34'))).toMatch(/not in WARDEN_OUTBOUND_ALLOW/);
    expect(() => fence.checkHost('[64:ff9b::10.1.2.3]')).not.toThrow();
    expect(() => fence.checkHost('[::ffff:10.1.2.3]')).not.toThrow();
    expect(refused(() => fence.checkHost('[64:ff9b::93.184.216.34]'))).toMatch(/not in WARDEN_OUTBOUND_ALLOW/);
    expect(refused(() => fence.checkHost('[2002:5db8:d822::]'))).toMatch(/not in WARDEN_OUTBOUND_ALLOW/);
    expect(refused(() => fence.checkHost('[64:ff9b::10.9.9.9]'))).toMatch(/WARDEN_OUTBOUND_DENY/);
    await expect(fence.resolve('evil.example')).rejects.toThrow(/not in WARDEN_OUTBOUND_ALLOW|WARDEN_OUTBOUND_DENY/);
    await expect(fence.resolve('db.corp.example')).rejects.toThrow(/WARDEN_OUTBOUND_DENY/);
    await expect(fence.resolve('meta.partner.example')).rejects.toThrow(/link-local/);
  });
});
