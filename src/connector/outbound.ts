import { lookup } from 'node:dns/promises';
import { domainToASCII } from 'node:url';
import { insideBlocks, matchingBlock, parseCidr, parseIp, type Cidr, type IpAddress } from './ip.js';

/**
 * The outbound fence (docs/connector.md, "Outbound fence"): which addresses Warden may call
 * when it calls an agent. Checked on the address a connection is actually made to (every
 * address a name resolves to, at connect time), so a name that resolves elsewhere the second
 * time (DNS rebinding) gains nothing.
 */

export type OutboundRule = { kind: 'cidr'; text: string; cidr: Cidr } | { kind: 'host'; text: string; host: string; match: 'exact' | 'subdomains' | 'domain' };

export interface OutboundRules {
  /** WARDEN_OUTBOUND_DENY: refused, whatever the allow-list says. */
  deny: OutboundRule[];
  /** WARDEN_OUTBOUND_ALLOW: when set, only these are called. null: unset. */
  allow: OutboundRule[] | null;
}

/** Thrown by parseOutboundRules; `variable` names the environment variable at fault. */
export class OutboundRulesError extends Error {
  constructor(
    readonly variable: 'WARDEN_OUTBOUND_DENY' | 'WARDEN_OUTBOUND_ALLOW',
    readonly reason: string,
  ) {
    super(`${variable}: ${reason}`.replace(/[\r\n]+/g, ' '));
    this.name = 'OutboundRulesError';
  }
}

/**
 * Always refused, and not configurable: no agent lives there, and credentials of the host do.
 * Matched against every IPv4 address an IPv6 one may carry too (`embeddedIPv4s`).
 */
const ALWAYS_DENIED_BLOCKS: Array<[string, string]> = [
  ['0.0.0.0/8', 'an unspecified address'],
  ['169.254.0.0/16', 'a link-local address (cloud metadata lives there)'],
  ['100.100.100.200/32', 'a cloud metadata address'],
  ['224.0.0.0/4', 'a multicast address'],
  ['240.0.0.0/4', 'a reserved or broadcast address'],
  ['::/128', 'an unspecified address'],
  ['fe80::/10', 'a link-local address'],
  // AWS: instance metadata and EKS Pod Identity credentials; GCP; Oracle Cloud (169.254.169.254 in IPv6).
  ['fd00:ec2::254/128', 'a cloud metadata address'],
  ['fd00:ec2::23/128', 'a cloud metadata address'],
  ['fd20:ce::254/128', 'a cloud metadata address'],
  ['fd00:c1::a9fe:a9fe/128', 'a cloud metadata address'],
  ['ff00::/8', 'a multicast address'],
];
const ALWAYS_DENIED = ALWAYS_DENIED_BLOCKS.map(([text, why]) => ({ cidr: parseCidr(text)!, why }));
/** Metadata service names; their addresses are refused anyway, the names make the error plain. */
const METADATA_HOSTS = new Set([
  'metadata',
  'metadata.google.internal',
  'metadata.goog',
  'instance-data',
  'instance-data.ec2.internal',
  'metadata.tencentyun.com',
  'api.metadata.cloud.ibm.com',
]);

const HOST_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/** Lower case, punycode, no trailing dot: the spelling WHATWG URL parsing gives a host. */
export function normaliseHostName(name: string): string {
  const ascii = domainToASCII(name.trim().replace(/\.+$/, ''));
  return ascii.toLowerCase();
}

function parseRule(entry: string, variable: OutboundRulesError['variable']): OutboundRule {
  const cidr = parseCidr(entry);
  if (cidr !== null) return { kind: 'cidr', text: entry, cidr };
  let match: 'exact' | 'subdomains' | 'domain' = 'exact';
  let name = entry;
  if (name.startsWith('*.')) {
    match = 'subdomains';
    name = name.slice(2);
  } else if (name.startsWith('.')) {
    match = 'domain';
    name = name.slice(1);
  }
  const host = normaliseHostName(name);
  if (host === '' || host.length > 253 || !host.split('.').every((label) => HOST_LABEL.test(label)) || /^[\d.]+$/.test(host)) {
    const expected = 'a CIDR block (10.0.0.0/8, fd00::/8), an IP address nor a host name (example.com, *.example.com)';
    throw new OutboundRulesError(variable, `"${entry}" is neither ${expected}`);
  }
  return { kind: 'host', text: entry, host, match };
}

function parseList(raw: string | undefined, variable: OutboundRulesError['variable']): OutboundRule[] | null {
  if (raw === undefined || raw.trim() === '') return null;
  const entries = raw
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  if (entries.length === 0) throw new OutboundRulesError(variable, 'lists nothing (leave it unset, or list CIDR blocks and host names separated by commas)');
  return entries.map((entry) => parseRule(entry, variable));
}

/**
 * WARDEN_OUTBOUND_DENY and WARDEN_OUTBOUND_ALLOW: comma-separated CIDR blocks, IP addresses
 * and host names (`*.example.com`: its subdomains; `.example.com`: it and its subdomains).
 * Unset or empty: no extra deny / no allow-list. Throws OutboundRulesError naming the variable.
 */
export function parseOutboundRules(deny: string | undefined, allow: string | undefined): OutboundRules {
  return { deny: parseList(deny, 'WARDEN_OUTBOUND_DENY') ?? [], allow: parseList(allow, 'WARDEN_OUTBOUND_ALLOW') };
}

function hostMatches(rule: OutboundRule, host: string): boolean {
  if (rule.kind !== 'host') return false;
  if (rule.match === 'exact') return host === rule.host;
  const below = host.endsWith(`.${rule.host}`);
  return rule.match === 'subdomains' ? below : below || host === rule.host;
}

/** Why the fence refused a destination; `message` is for a person and names the host or address, never a URL. */
export class OutboundRefusal extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefusal';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Every address a host name resolves to (the system resolver by default; tests inject one). */
export type HostResolver = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

const systemResolver: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

export interface OutboundFence {
  /**
   * Checks a host as it appears in a URL (brackets allowed) before anything is sent: denied
   * names, and the whole check when it is an IP address (no lookup happens for those).
   * Throws OutboundRefusal.
   */
  checkHost(hostname: string): void;
  /** Resolves a host name and checks every address; throws OutboundRefusal when any is refused. */
  resolve(hostname: string): Promise<ResolvedAddress[]>;
}

const HOST_VERDICTS_KEPT = 1_000;

export function createOutboundFence(rules: OutboundRules = { deny: [], allow: null }, options: { resolver?: HostResolver } = {}): OutboundFence {
  const resolver = options.resolver ?? systemResolver;
  const denyBlocks = rules.deny.flatMap((rule) => (rule.kind === 'cidr' ? [rule] : []));
  const allowBlocks = rules.allow?.flatMap((rule) => (rule.kind === 'cidr' ? [rule] : [])) ?? [];

  function checkName(host: string): boolean {
    if (METADATA_HOSTS.has(host)) throw new OutboundRefusal(`${host} is a cloud metadata service; Warden never calls it`);
    const denied = rules.deny.find((rule) => hostMatches(rule, host));
    if (denied) throw new OutboundRefusal(`${host} is refused by WARDEN_OUTBOUND_DENY (${denied.text})`);
    return rules.allow !== null && rules.allow.some((rule) => hostMatches(rule, host));
  }

  function checkAddress(ip: IpAddress, shown: string, host: string, allowedByName: boolean): void {
    const via = shown === host ? shown : `${host} (${shown})`;
    const fixed = matchingBlock(ALWAYS_DENIED, ip);
    if (fixed) throw new OutboundRefusal(`${via} is ${fixed.why}; Warden never calls it`);
    const denied = matchingBlock(denyBlocks, ip);
    if (denied) throw new OutboundRefusal(`${via} is refused by WARDEN_OUTBOUND_DENY (${denied.text})`);
    if (rules.allow !== null && !allowedByName && !insideBlocks(allowBlocks, ip)) {
      throw new OutboundRefusal(`${via} is not in WARDEN_OUTBOUND_ALLOW`);
    }
  }

  function checkHostOnce(hostname: string): void {
    const ip = parseIp(hostname);
    if (ip !== null) {
      checkAddress(ip, hostname, hostname, false);
      return;
    }
    checkName(normaliseHostName(hostname));
  }

  /** checkHost's verdict per host as written (the rules never change): null when it passed, else its refusal. */
  const verdicts = new Map<string, OutboundRefusal | null>();
  return {
    checkHost(hostname) {
      let verdict = verdicts.get(hostname);
      if (verdict === undefined) {
        try {
          checkHostOnce(hostname);
          verdict = null;
        } catch (error) {
          if (!(error instanceof OutboundRefusal)) throw error;
          verdict = error;
        }
        if (verdicts.size >= HOST_VERDICTS_KEPT) verdicts.clear();
        verdicts.set(hostname, verdict);
      }
      if (verdict !== null) throw new OutboundRefusal(verdict.message);
    },
    async resolve(hostname) {
      const host = normaliseHostName(hostname);
      const allowedByName = checkName(host);
      let found: Array<{ address: string; family: number }>;
      try {
        found = await resolver(host);
      } catch (error) {
        // EAI_AGAIN (the resolver could not answer now) is worth a retry; any other failure is not.
        const code = (error as { code?: unknown }).code === 'EAI_AGAIN' ? 'EAI_AGAIN' : 'ENOTFOUND';
        throw Object.assign(new Error(`${host} could not be resolved`), { code });
      }
      if (found.length === 0) throw Object.assign(new Error(`${host} could not be resolved`), { code: 'ENOTFOUND' });
      return found.map(({ address }) => {
        const ip = parseIp(address);
        if (ip === null) throw new OutboundRefusal(`${host} resolved to something that is not an IP address`);
        checkAddress(ip, address, host, allowedByName);
        return { address, family: ip.family };
      });
    },
  };
}
