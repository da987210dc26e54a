import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Principal } from '../auth/permissions.js';
import type { AgentCreateBody } from '../agents/agents.schemas.js';
import type { ImportedAgentFields } from '../agents/agents.service.js';
import { WELL_KNOWN_PATHS } from './card-discovery.js';
import { createAgentImportService } from './agent-import.service.js';

const TEAM = '019b7a11-0000-7000-8000-0000000000aa';
const principal: Principal = {
  userId: '019b7a11-0000-7000-8000-0000000000bb',
  email: 'member@example.com',
  isSuperAdmin: false,
  credential: { kind: 'session', id: 'session' },
  keyPermissions: null,
  memberships: new Map([[TEAM, 'MEMBER']]),
  primaryTeamId: TEAM,
  passwordChangeRequired: false,
};

describe('agent_url import against an agent that never answers', () => {
  let server: Server;
  let base: string;
  const sockets = new Set<Socket>();
  let connections = 0;
  beforeAll(async () => {
    server = createServer((socket) => {
      connections += 1;
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  it('gives up after the discovery timeout and registers a plain black box', async () => {
    const created: Array<{ body: AgentCreateBody; imported: ImportedAgentFields }> = [];
    const service = createAgentImportService({
      now: () => 1_800_000_000,
      discovery: { timeoutMs: 250, maxBytes: 256 * 1024 },
      agents: {
        createImported: async (_principal, _team, body, imported) => {
          created.push({ body, imported });
          return { id: 'new-agent', ...body } as never;
        },
      },
    });
    const result = await service.import(principal, undefined, { agent_url: `${base}/agent`, rate_limit_requests_per_minute: 100 });

    expect(connections).toBe(WELL_KNOWN_PATHS.length);
    expect(result.access_level).toBe('black_box');
    expect(result.warnings).toEqual([
      `No A2A agent card was found (${WELL_KNOWN_PATHS.map((p) => `${base}${p} did not answer within 0.25 s`).join('; ')}); the agent is registered as a plain black box with protocol chat_completions.`,
    ]);
    expect(created).toEqual([
      {
        body: {
          agent_name: new URL(base).host,
          model_name: 'unknown',
          agent_url: `${base}/agent`,
          rate_limit_requests_per_minute: 100,
          access_level: 'black_box',
        },
        imported: {
          import_metadata: { source: 'manual', source_url: `${base}/agent`, imported_at: 1_800_000_000, original_format: 'agent_url' },
          capabilities: null,
          skills: [],
        },
      },
    ]);
  });
});
