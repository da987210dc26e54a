/**
 * Looks for the A2A AgentCard of an agent known only by its URL. Called before any database
 * work (never inside a transaction). Every failure is a note for the person, never an error:
 * without a card the agent is still registered, as a plain black box.
 */

import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP } from 'node:net';

export const WELL_KNOWN_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

export interface DiscoveryOptions {
  /** Per request. */
  timeoutMs: number;
  /** A card larger than this is not read. */
  maxBytes: number;
}

export const DEFAULT_DISCOVERY: DiscoveryOptions = { timeoutMs: 3_000, maxBytes: 256 * 1024 };

export interface Discovery {
  /** The card document and where it was found, or null. */
  found: { card: Record<string, unknown>; url: string } | null;
  /** Why each place tried gave no card, for the import's warnings. */
  notes: string[];
}

/** Where to look: the URL itself when it names a .json document, then the well-known paths of its origin. */
export function candidateCardUrls(agentUrl: string): string[] {
  const url = new URL(agentUrl);
  const out = url.pathname.endsWith('.json') ? [url.href] : [];
  for (const path of WELL_KNOWN_PATHS) {
    const href = new URL(path, url.origin).href;
    if (!out.includes(href)) out.push(href);
  }
  return out;
}

/**
 * Agents live on internal networks, so private addresses are allowed; but nothing an agent
 * serves lives on a link-local or unspecified address, where cloud metadata services
 * (169.254.169.254, fd00:ec2::254) hand out credentials. Node's BlockList also matches the
 * IPv4-mapped forms (::ffff:169.254.169.254); NAT64 and IPv4-compatible forms are listed.
 */
const FORBIDDEN = new BlockList();
FORBIDDEN.addSubnet('169.254.0.0', 16, 'ipv4');
FORBIDDEN.addSubnet('0.0.0.0', 8, 'ipv4');
FORBIDDEN.addSubnet('fe80::', 10, 'ipv6');
FORBIDDEN.addAddress('::', 'ipv6');
FORBIDDEN.addAddress('fd00:ec2::254', 'ipv6');
FORBIDDEN.addSubnet('64:ff9b::a9fe:0', 112, 'ipv6');
FORBIDDEN.addSubnet('::a9fe:0', 112, 'ipv6');

export function isForbiddenAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return FORBIDDEN.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

class ForbiddenAddressError extends Error {}

/**
 * The address is checked in the connection's own DNS lookup, so the address checked is the
 * address connected to (a name that resolves elsewhere on a second lookup gains nothing).
 */
function checkedLookup(hostname: string, options: object, callback: (...args: unknown[]) => void): void {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
    if (error) return callback(error);
    if (addresses.length === 0 || addresses.some((a) => isForbiddenAddress(a.address))) return callback(new ForbiddenAddressError(hostname));
    if ((options as { all?: boolean }).all) return callback(null, addresses);
    const first = addresses[0] as LookupAddress;
    return callback(null, first.address, first.family);
  });
}

type Outcome = { card: Record<string, unknown> } | { note: string };

/** One GET, no redirects followed, at most `maxBytes`, within `timeoutMs`. */
function get(href: string, options: DiscoveryOptions): Promise<{ status: number; text: string | null } | { failure: 'timeout' | 'forbidden' | 'unreachable' }> {
  const url = new URL(href);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isForbiddenAddress(host)) return Promise.resolve({ failure: 'forbidden' });
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.get(
      url,
      { headers: { accept: 'application/json' }, lookup: checkedLookup as never, signal: AbortSignal.timeout(options.timeoutMs) },
      (response) => {
        const status = response.statusCode ?? 0;
        if (Number(response.headers['content-length'] ?? '0') > options.maxBytes || status < 200 || status >= 300) {
          response.destroy();
          resolve({ status, text: null });
          return;
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            resolve({ status, text: null });
          } else chunks.push(chunk);
        });
        response.on('end', () => resolve({ status, text: Buffer.concat(chunks).toString('utf8') }));
        response.on('error', () => resolve({ failure: 'unreachable' }));
      },
    );
    request.on('error', (error: Error) => {
      if (error instanceof ForbiddenAddressError || (error as { cause?: unknown }).cause instanceof ForbiddenAddressError) resolve({ failure: 'forbidden' });
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') resolve({ failure: 'timeout' });
      else resolve({ failure: 'unreachable' });
    });
  });
}

async function tryOne(href: string, options: DiscoveryOptions): Promise<Outcome> {
  if (!/^https?:$/.test(new URL(href).protocol)) return { note: `${href} is not an http(s) URL` };
  const result = await get(href, options);
  if ('failure' in result) {
    if (result.failure === 'forbidden') return { note: `${href} points at a link-local address, which Warden does not fetch from` };
    if (result.failure === 'timeout') return { note: `${href} did not answer within ${options.timeoutMs / 1000} s` };
    return { note: `${href} could not be reached` };
  }
  if (result.status >= 300 && result.status < 400) return { note: `${href} redirects elsewhere: give the card's final URL as agent_url` };
  if (result.status < 200 || result.status >= 300) return { note: `${href} answered HTTP ${result.status}` };
  if (result.text === null) return { note: `${href} is larger than ${options.maxBytes / 1024} KiB, which is too large for an agent card` };
  try {
    const parsed: unknown = JSON.parse(result.text);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return { card: parsed as Record<string, unknown> };
    return { note: `${href} is JSON but not an object, so not an agent card` };
  } catch {
    return { note: `${href} is not valid JSON` };
  }
}

export async function discoverAgentCard(agentUrl: string, options: DiscoveryOptions = DEFAULT_DISCOVERY): Promise<Discovery> {
  const notes: string[] = [];
  for (const href of candidateCardUrls(agentUrl)) {
    const result = await tryOne(href, options);
    if ('card' in result) return { found: { card: result.card, url: href }, notes };
    notes.push(result.note);
  }
  return { found: null, notes };
}
