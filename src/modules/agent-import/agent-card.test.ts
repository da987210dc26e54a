import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatPath, mapAgentCard } from './agent-card.js';
import { candidateCardUrls } from './card-discovery.js';

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../../../test/fixtures/agent-cards/${name}`, import.meta.url), 'utf8'));

const mapped = (card: unknown) => {
  const result = mapAgentCard(card);
  if (!result.ok) throw new Error(JSON.stringify(result.problems));
  return result;
};

describe('mapAgentCard', () => {
  it('maps an A2A 0.2 card (url, no protocolVersion), skills inheriting the default modes', () => {
    const { card } = mapped(fixture('currency-agent-v0.2.json'));
    expect(card).toMatchObject({ agent_name: 'Currency Agent', agent_url: 'http://localhost:10000/', protocol_version: '0.2', original_format: 'a2a-agent-card/0.2' });
    expect(card.capabilities).toEqual({ streaming: true, push_notifications: true, code_execution: false, memory: false, delegation: false, tools: [] });
    expect(card.skills).toEqual([
      {
        id: 'convert_currency',
        name: 'Currency Exchange Rates Tool',
        description: 'Helps with exchange values between various currencies',
        input_modes: ['text', 'text/plain'],
        output_modes: ['text', 'text/plain'],
      },
    ]);
    expect(card.agent_metadata).toEqual({
      role: null,
      job_description: 'Helps with exchange rates for currencies',
      version: '1.0.0',
      author: null,
      tags: ['currency conversion', 'currency exchange'],
    });
  });

  it('maps an A2A 0.3 card (protocolVersion, preferredTransport, provider)', () => {
    const { card, warnings } = mapped(fixture('georoute-agent-v0.3.json'));
    expect(card).toMatchObject({ agent_name: 'GeoSpatial Route Planner Agent', agent_url: 'https://georoute-agent.example.com/a2a/v1', protocol_version: '0.3.0' });
    expect(card.agent_metadata.author).toBe('Example Geo Services Inc.');
    expect(card.agent_metadata.version).toBe('1.2.0');
    expect(card.capabilities.streaming).toBe(true);
    expect(card.skills.map((s) => s.id)).toEqual(['route-optimizer-traffic', 'custom-map-generator']);
    expect(card.skills[1]?.input_modes).toEqual(['application/json']);
    expect(warnings).toEqual([]);
  });

  it('maps an A2A 1.0 card (supportedInterfaces, the first preferred)', () => {
    const { card } = mapped(fixture('travel-planner-v1.0.json'));
    expect(card).toMatchObject({ agent_url: 'https://travel-agent.example.com/a2a/v1', protocol_version: '1.0', original_format: 'a2a-agent-card/1.0' });
    expect(card.capabilities).toMatchObject({ streaming: true, push_notifications: false });
    expect(card.skills[0]).toMatchObject({ id: 'flight-search', input_modes: ['text/plain', 'application/json'] });
    expect(card.skills[1]).toMatchObject({ id: 'itinerary-builder', output_modes: ['text/markdown', 'application/pdf'] });
    expect(card.agent_metadata.tags).toEqual(['travel', 'flights', 'booking', 'planning']);
  });

  it('chooses the JSONRPC interface of a 1.0 card wherever it is listed, and keeps its tenant', () => {
    const card = fixture('travel-planner-v1.0.json');
    card.supportedInterfaces = [
      { url: 'https://travel-agent.example.com/grpc', protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: 'https://travel-agent.example.com/rest', protocolBinding: 'HTTP+JSON', protocolVersion: '1.0', tenant: 'acme' },
      { url: 'https://travel-agent.example.com/rpc', protocolBinding: 'JSONRPC', protocolVersion: '1.1', tenant: 'acme-eu' },
    ];
    const result = mapped(card);
    expect(result.card).toMatchObject({ agent_url: 'https://travel-agent.example.com/rpc', tenant: 'acme-eu', protocol_version: '1.1', original_format: 'a2a-agent-card/1.1' });
    expect(result.warnings).toEqual([]);
    expect(mapped(fixture('travel-planner-v1.0.json')).card.tenant).toBeNull();
  });

  it('reads "transport" where a draft-1.0 card has no "protocolBinding" (a2aproject/A2A cli/testdata/valid/full.json)', () => {
    const card = fixture('recipe-agent-v1.0-draft.json');
    card.supportedInterfaces.reverse(); // grpc first, jsonrpc second
    const result = mapped(card);
    expect(result.card.agent_url).toBe('https://recipes.example.com/a2a');
    expect(result.warnings).toEqual([]);
    card.supportedInterfaces = [{ url: 'https://recipes.example.com/a2a/grpc', transport: 'grpc' }];
    expect(mapped(card).warnings[0]).toMatch(/^The card has no JSONRPC interface; its first uses the grpc binding/);
  });

  it('takes the first interface, with a warning, when none is JSONRPC', () => {
    const card = fixture('travel-planner-v1.0.json');
    card.supportedInterfaces = [
      { url: 'https://travel-agent.example.com/rest', protocolBinding: 'HTTP+JSON', tenant: 't-1' },
      { url: 'https://travel-agent.example.com/grpc', protocolBinding: 'GRPC' },
    ];
    const result = mapped(card);
    expect(result.card).toMatchObject({ agent_url: 'https://travel-agent.example.com/rest', tenant: 't-1', protocol_version: '1.0' });
    expect(result.warnings).toEqual([
      'The card has no JSONRPC interface; its first uses the HTTP+JSON binding. Warden talks to A2A agents over JSON-RPC, so check that https://travel-agent.example.com/rest answers JSON-RPC',
    ]);
  });

  it('reports problems of the chosen interface at its index', () => {
    const card = fixture('travel-planner-v1.0.json');
    card.supportedInterfaces = [{ url: 'https://a.example.com', protocolBinding: 'GRPC' }, { url: 'ftp://b.example.com', protocolBinding: 'JSONRPC', tenant: 5 }];
    const result = mapAgentCard(card);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: ['supportedInterfaces', 1, 'tenant'], msg: '"tenant" must be a string, not a number' },
      { path: ['supportedInterfaces', 1, 'url'], msg: '"ftp://b.example.com" is not an http(s) URL' },
    ]);
  });

  it('reports a skill without id or name, saying where', () => {
    const card = fixture('georoute-agent-v0.3.json');
    delete card.skills[1].id;
    card.skills[0].name = '';
    const result = mapAgentCard(card);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      { path: ['skills', 0, 'name'], msg: '"name" must not be empty' },
      { path: ['skills', 1, 'id'], msg: '"id" is required' },
    ]);
  });

  it('reports every other problem a person can fix', () => {
    const problems = (card: unknown) => {
      const result = mapAgentCard(card);
      return result.ok ? [] : result.problems.map((p) => `${formatPath(p.path)}: ${p.msg}`);
    };
    expect(problems([])).toEqual([': An agent card must be a JSON object, not a list']);
    expect(problems({ name: 'x' })).toEqual(['url: The card names no endpoint: give "url" (A2A 0.2/0.3) or "supportedInterfaces" (A2A 1.0)']);
    expect(problems({ url: 'ftp://x' })).toEqual(['name: "name" is required', 'url: "ftp://x" is not an http(s) URL']);
    expect(problems({ name: 'x', supportedInterfaces: [] })[0]).toMatch(/^supportedInterfaces: /);
    expect(problems({ name: 'x', url: 'https://a.example', skills: [{ id: 'a', name: 'A' }, { id: 'a', name: 'B' }] })).toEqual([
      'skills[1].id: skill id "a" is already used by skills[0]; skill ids must be unique',
    ]);
    expect(problems({ name: 'x', url: 'https://a.example', capabilities: { streaming: 'yes' } })).toEqual([
      'capabilities.streaming: "streaming" must be true or false, not a string',
    ]);
    expect(problems({ name: 'x', url: 'https://a.example', defaultInputModes: 'text' })).toEqual([
      'defaultInputModes: "defaultInputModes" must be a list of strings, not a string',
    ]);
    expect(problems({ name: 'n'.repeat(256), url: 'https://a.example' })).toEqual(['name: "name" is 256 characters long; at most 255 are accepted']);
  });

  it('warns about a card without skills', () => {
    const result = mapped({ name: 'x', url: 'https://a.example' });
    expect(result.card.skills).toEqual([]);
    expect(result.warnings).toHaveLength(1);
  });
});

describe('candidateCardUrls', () => {
  it('tries the well-known paths at the origin, after the URL itself when it names a .json document', () => {
    expect(candidateCardUrls('https://agent.example.com/a2a/v1')).toEqual([
      'https://agent.example.com/.well-known/agent-card.json',
      'https://agent.example.com/.well-known/agent.json',
    ]);
    expect(candidateCardUrls('http://127.0.0.1:8080/cards/main.json')).toEqual([
      'http://127.0.0.1:8080/cards/main.json',
      'http://127.0.0.1:8080/.well-known/agent-card.json',
      'http://127.0.0.1:8080/.well-known/agent.json',
    ]);
  });
});
