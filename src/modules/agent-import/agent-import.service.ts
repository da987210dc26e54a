import { keyOrigin, sameKeyOrigin, type OutboundFence } from '../../connector/index.js';
import type { Deps } from '../../deps.js';
import { RequestValidationError, type ValidationIssue } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import type { AgentCreateBody } from '../agents/agents.schemas.js';
import type { AgentService, ImportedAgentFields } from '../agents/agents.service.js';
import { formatPath, isHttpUrl, mapAgentCard, type MappedCard } from './agent-card.js';
import type { UnifiedImportRequestIn } from './agent-import.schemas.js';
import { DEFAULT_DISCOVERY, discoverAgentCard, type Discovery, type DiscoveryOptions } from './card-discovery.js';
import { planSourceCode } from './source-code.js';

type AccessLevel = 'black_box' | 'grey_box' | 'white_box';

/** Agents known by URL or card name no model: this is recorded until someone sets it. */
export const UNKNOWN_MODEL = 'unknown';

export interface ImportPlan {
  access_level: AccessLevel | null;
  issues: ValidationIssue[];
  warnings: string[];
  /** The agent card the import is based on (sent or fetched), for the validation preview. */
  card: Record<string, unknown> | null;
  agent: { body: AgentCreateBody; imported: ImportedAgentFields } | null;
}

export interface AgentImportDeps extends Pick<Deps, 'now'> {
  agents: Pick<AgentService, 'createImported'>;
  discovery?: DiscoveryOptions;
  /** Where the card may be fetched from: the agents' outbound fence (WARDEN_OUTBOUND_*), the same the connector uses. */
  fence?: OutboundFence | undefined;
  /** Injected so that the service can be run without a network; defaults to the real lookup. */
  discover?: (url: string, options: DiscoveryOptions) => Promise<Discovery>;
}

const INPUTS = ['agent_url', 'agent_card', 'source_code'] as const;

function fromCard(card: MappedCard, input: UnifiedImportRequestIn): AgentCreateBody {
  return {
    agent_name: input.override_name ?? card.agent_name,
    model_name: UNKNOWN_MODEL,
    agent_url: card.agent_url,
    protocol: 'a2a',
    purpose: card.purpose,
    agent_metadata: card.agent_metadata,
  };
}

export function createAgentImportService(deps: AgentImportDeps) {
  const { agents, now } = deps;
  const discovery: DiscoveryOptions = { ...(deps.discovery ?? DEFAULT_DISCOVERY), ...(deps.fence ? { fence: deps.fence } : {}) };
  const discover = deps.discover ?? discoverAgentCard;

  const common = (input: UnifiedImportRequestIn): Partial<AgentCreateBody> => ({
    rate_limit_requests_per_minute: input.rate_limit_requests_per_minute,
    ...(input.api_key != null ? { api_key: input.api_key } : {}),
  });

  const importMetadata = (input: UnifiedImportRequestIn, at: number, sourceUrl: string | null, format: string, tenant: string | null = null) => ({
    source: 'manual',
    source_url: sourceUrl,
    imported_at: at,
    original_format: format,
    // A2A 1.0: the tenant to name when calling the agent's interface (AgentInterface.tenant).
    ...(tenant !== null ? { tenant } : {}),
    ...(input.external_id != null ? { external_id: input.external_id } : {}),
    ...(input.identity_provider != null ? { identity_provider: input.identity_provider } : {}),
    ...(input.idp_metadata != null ? { idp_metadata: input.idp_metadata } : {}),
  });

  /** agent_card: a grey box A2A agent, described by the card the person uploaded. */
  function planCard(input: UnifiedImportRequestIn, card: Record<string, unknown>, at: number): ImportPlan {
    const mapped = mapAgentCard(card);
    if (!mapped.ok) {
      const issues = mapped.problems.map((p) => ({ loc: ['body', 'agent_card', ...p.path], msg: p.msg, type: 'value_error' }));
      return { access_level: 'grey_box', issues, warnings: mapped.warnings, card, agent: null };
    }
    return {
      access_level: 'grey_box',
      issues: [],
      warnings: mapped.warnings,
      card,
      agent: {
        body: { ...fromCard(mapped.card, input), ...common(input), access_level: 'grey_box' },
        imported: {
          import_metadata: importMetadata(input, at, null, mapped.card.original_format, mapped.card.tenant),
          capabilities: mapped.card.capabilities,
          skills: mapped.card.skills as unknown as Array<Record<string, unknown>>,
        },
      },
    };
  }

  /** agent_url: a black box; its A2A card, when one is published, fills in protocol, skills and capabilities. */
  async function planUrl(input: UnifiedImportRequestIn, agentUrl: string, at: number): Promise<ImportPlan> {
    if (!isHttpUrl(agentUrl)) {
      const issue = { loc: ['body', 'agent_url'], msg: `"${agentUrl}" is not an http(s) URL; send the address the agent answers at, like https://agent.example.com`, type: 'url_parsing' };
      return { access_level: 'black_box', issues: [issue], warnings: [], card: null, agent: null };
    }
    const found = await discover(agentUrl, discovery);
    const warnings: string[] = [];
    if (found.found !== null) {
      const mapped = mapAgentCard(found.found.card);
      if (mapped.ok) {
        const card = mapped.card;
        // The card's endpoint wins (the A2A specification: an SDK agent serves JSON-RPC on a sub-path
        // such as /a2a/jsonrpc) when it is on the origin the card came from, or when the URL named
        // the card document itself. A card naming another origin often carries a development host
        // (http://localhost:10000/): then the URL given is kept, and the person is told.
        const pointsAtCard = new URL(agentUrl).pathname.endsWith('.json');
        const cardWins = pointsAtCard || sameKeyOrigin(agentUrl, card.agent_url);
        const url = cardWins ? card.agent_url : agentUrl;
        if (!sameEndpoint(card.agent_url, agentUrl) && !pointsAtCard) {
          warnings.push(
            cardWins
              ? `The agent card names its endpoint ${card.agent_url}: the agent is registered there, not at the URL you gave (${agentUrl}).`
              : `The agent card names its endpoint ${card.agent_url}; the agent is registered at the URL you gave (${agentUrl}). ` +
                'Change agent_url if the agent answers elsewhere.',
          );
        }
        // The key was given for the address the person typed; a card on that host may name any other one.
        const { api_key: apiKey, ...rest } = common(input);
        const keyStays = apiKey === undefined || sameKeyOrigin(agentUrl, url);
        if (!keyStays) {
          warnings.push(
            `The agent card names its endpoint on another origin (${keyOrigin(url)}) than the URL you gave: the API key was not stored, ` +
              'since it would be sent there. Set it on the agent if that endpoint is the one it is for.',
          );
        }
        return {
          access_level: 'black_box',
          issues: [],
          warnings: [...warnings, ...mapped.warnings],
          card: found.found.card,
          agent: {
            body: { ...fromCard(card, input), agent_url: url, ...rest, ...(keyStays ? { api_key: apiKey } : {}), access_level: 'black_box' },
            imported: {
              import_metadata: importMetadata(input, at, found.found.url, card.original_format, card.tenant),
              capabilities: card.capabilities,
              skills: card.skills as unknown as Array<Record<string, unknown>>,
            },
          },
        };
      }
      const problems = mapped.problems.map((p) => (p.path.length > 0 ? `${formatPath(p.path)}: ${p.msg}` : p.msg)).join('; ');
      warnings.push(`The agent card at ${found.found.url} cannot be used (${problems}); the agent is registered as a plain black box.`);
    } else {
      warnings.push(`No A2A agent card was found (${found.notes.join('; ')}); the agent is registered as a plain black box with protocol chat_completions.`);
    }
    return {
      access_level: 'black_box',
      issues: [],
      warnings,
      card: null,
      agent: {
        body: {
          agent_name: input.override_name ?? new URL(agentUrl).host,
          model_name: UNKNOWN_MODEL,
          agent_url: agentUrl,
          ...common(input),
          access_level: 'black_box',
        },
        imported: { import_metadata: importMetadata(input, at, agentUrl, 'agent_url'), capabilities: null, skills: [] },
      },
    };
  }

  /** Reads the request and, for agent_url, looks for the card. No database work happens here. */
  async function plan(input: UnifiedImportRequestIn): Promise<ImportPlan> {
    const sent = INPUTS.filter((key) => input[key] != null);
    if (sent.length !== 1) {
      const msg =
        sent.length === 0
          ? 'Send exactly one of agent_url (black box: an endpoint to call), agent_card (grey box: an A2A agent card) or source_code (white box: source files)'
          : `Send exactly one of agent_url, agent_card or source_code; this request has ${sent.join(' and ')}`;
      return { access_level: null, issues: [{ loc: ['body'], msg, type: 'value_error' }], warnings: [], card: null, agent: null };
    }
    const at = now();
    if (input.agent_url != null) return planUrl(input, input.agent_url, at);
    if (input.agent_card != null) return planCard(input, input.agent_card as Record<string, unknown>, at);
    const source = planSourceCode(input, input.source_code!, at);
    return {
      access_level: 'white_box',
      issues: source.issues,
      warnings: source.warnings,
      card: null,
      agent:
        source.fields === null
          ? null
          : {
              body: { ...source.fields, ...common(input) },
              imported: { import_metadata: importMetadata(input, at, null, source.format), capabilities: source.capabilities, skills: [] },
            },
    };
  }

  return {
    async validate(principal: Principal, input: UnifiedImportRequestIn) {
      requireAnywhere(principal, 'agent:write');
      const result = await plan(input);
      return {
        valid: result.issues.length === 0,
        access_level: result.access_level,
        agent_card: result.card,
        errors: result.issues.map((i) => `${formatPath(i.loc.slice(1))}${i.loc.length > 1 ? ': ' : ''}${i.msg}`),
        warnings: result.warnings,
        external_id: input.external_id ?? null,
        identity_provider: input.identity_provider ?? null,
      };
    },

    async import(principal: Principal, teamIdParam: string | undefined, input: UnifiedImportRequestIn) {
      // Checked before any network call, so that a caller who may not import cannot make Warden fetch URLs.
      requireAnywhere(principal, 'agent:write');
      authorize(principal, 'agent:write', resolveTeam(principal, teamIdParam), 'Team');
      const result = await plan(input);
      if (result.issues.length > 0 || result.agent === null || result.access_level === null) throw new RequestValidationError(result.issues);
      const agent = await agents.createImported(principal, teamIdParam, result.agent.body, result.agent.imported);
      return {
        agent,
        access_level: result.access_level,
        warnings: result.warnings,
        external_id: input.external_id ?? null,
        identity_provider: input.identity_provider ?? null,
      };
    },
  };
}

export type AgentImportService = ReturnType<typeof createAgentImportService>;

/** Two endpoints that differ only by a trailing slash are the same one (no warning for that alone). */
function sameEndpoint(a: string, b: string): boolean {
  const plain = (url: string) => {
    try {
      const parsed = new URL(url);
      parsed.pathname = parsed.pathname.replace(/\/+$/, '') || '/';
      return parsed.href.replace(/\/(?=\?|#|$)/, '');
    } catch {
      return url;
    }
  };
  return plain(a) === plain(b);
}
