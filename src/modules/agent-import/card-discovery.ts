/**
 * Looks for the A2A AgentCard of an agent known only by its URL. Called before any database
 * work (never inside a transaction). Every failure is a note for the person, never an error:
 * without a card the agent is still registered, as a plain black box.
 */

import http from 'node:http';
import https from 'node:https';
import { createOutboundFence, fencedLookup, OutboundRefusal, type OutboundFence } from '../../connector/index.js';

export const WELL_KNOWN_PATHS = ['/.well-known/agent-card.json', '/.well-known/agent.json'] as const;

export interface DiscoveryOptions {
  /** Per request. */
  timeoutMs: number;
  /** A card larger than this is not read. */
  maxBytes: number;
  /** Which addresses may be fetched from: the service passes the agents' fence (default: the fixed deny-list only). */
  fence?: OutboundFence | undefined;
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
 * The fence every call to an address a user gave goes through (src/connector/outbound.ts):
 * cloud metadata and other never-called blocks refused, WARDEN_OUTBOUND_DENY and
 * WARDEN_OUTBOUND_ALLOW applied, the address checked being the address connected to. Private
 * addresses are allowed, as for agents: agents live on internal networks.
 */
const DEFAULT_FENCE = createOutboundFence();

const refusalOf = (error: unknown): OutboundRefusal | undefined => {
  if (error instanceof OutboundRefusal) return error;
  const cause = (error as { cause?: unknown } | null)?.cause;
  return cause instanceof OutboundRefusal ? cause : undefined;
};

type Outcome = { card: Record<string, unknown> } | { note: string };

/** One GET through the fence, no redirects followed, at most `maxBytes`, within `timeoutMs`. */
function get(
  href: string,
  options: DiscoveryOptions,
): Promise<{ status: number; text: string | null } | { failure: 'timeout' | 'unreachable' } | { refused: string }> {
  const url = new URL(href);
  const fence = options.fence ?? DEFAULT_FENCE;
  try {
    fence.checkHost(url.hostname);
  } catch (error) {
    const refusal = refusalOf(error);
    if (refusal === undefined) throw error;
    return Promise.resolve({ refused: refusal.message });
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve) => {
    const request = client.get(
      url,
      { headers: { accept: 'application/json' }, lookup: fencedLookup(fence), signal: AbortSignal.timeout(options.timeoutMs) },
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
      const refusal = refusalOf(error);
      if (refusal !== undefined) resolve({ refused: refusal.message });
      else if (error.name === 'AbortError' || error.name === 'TimeoutError') resolve({ failure: 'timeout' });
      else resolve({ failure: 'unreachable' });
    });
  });
}

async function tryOne(href: string, options: DiscoveryOptions): Promise<Outcome> {
  if (!/^https?:$/.test(new URL(href).protocol)) return { note: `${href} is not an http(s) URL` };
  const result = await get(href, options);
  if ('refused' in result) return { note: `${href} is not fetched: ${result.refused}` };
  if ('failure' in result) {
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
