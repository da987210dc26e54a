/**
 * Looks for the A2A AgentCard of an agent known only by its URL. Called before any database
 * work (never inside a transaction). Every failure is a note for the person, never an error:
 * without a card the agent is still registered, as a plain black box.
 */

import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

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

async function readLimited(response: Response, maxBytes: number): Promise<string | null> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > maxBytes) return null;
  if (response.body === null) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Agents live on internal networks, so private addresses are allowed; but nothing an agent
 * serves lives on a link-local or unspecified address, where cloud metadata services
 * (169.254.169.254, fd00:ec2::254) hand out credentials. Those are refused, before and
 * (through `redirect: 'manual'`) instead of any redirect.
 */
export function isForbiddenAddress(address: string): boolean {
  let a = address.toLowerCase();
  if (a.startsWith('::ffff:')) a = a.slice(7);
  if (isIP(a) === 4) return a.startsWith('169.254.') || a.startsWith('0.');
  return a === '::' || /^fe[89ab][0-9a-f]:/.test(a) || a === 'fd00:ec2::254';
}

async function refusal(href: string): Promise<string | null> {
  const url = new URL(href);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `${href} is not an http(s) URL`;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  } catch {
    return `${href} could not be reached (its host name does not resolve)`;
  }
  return addresses.some(isForbiddenAddress) ? `${href} points at a link-local address, which Warden does not fetch from` : null;
}

async function tryOne(href: string, options: DiscoveryOptions): Promise<{ card: Record<string, unknown> } | { note: string }> {
  const refused = await refusal(href);
  if (refused !== null) return { note: refused };
  let response: Response;
  try {
    response = await fetch(href, { headers: { accept: 'application/json' }, redirect: 'manual', signal: AbortSignal.timeout(options.timeoutMs) });
  } catch (error) {
    const timedOut = (error as { name?: string }).name === 'TimeoutError';
    return { note: timedOut ? `${href} did not answer within ${options.timeoutMs / 1000} s` : `${href} could not be reached` };
  }
  if (response.status >= 300 && response.status < 400) {
    await response.body?.cancel();
    return { note: `${href} redirects elsewhere: give the card's final URL as agent_url` };
  }
  if (!response.ok) {
    await response.body?.cancel();
    return { note: `${href} answered HTTP ${response.status}` };
  }
  let text: string | null;
  try {
    text = await readLimited(response, options.maxBytes);
  } catch {
    return { note: `${href} stopped answering while its card was read` };
  }
  if (text === null) return { note: `${href} is larger than ${options.maxBytes / 1024} KiB, which is too large for an agent card` };
  try {
    const parsed: unknown = JSON.parse(text);
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
