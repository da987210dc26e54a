import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { DB } from '../../db/schema.js';
import type { CompiledDomeConfig } from '../../guard/engine.js';
import { noTelemetry } from '../../telemetry/types.js';
import type { Principal } from '../auth/permissions.js';
import { createGatewayCore, type GatewayDeps } from './gateway.service.js';

/**
 * The gateway's per-call reads (issue 29): the agent, its applied configuration and its
 * enforcement record are read once per version of their tables, not once per call; without a
 * version (PostgreSQL) once per call, in one query. The database is a fake SQLite driver that
 * answers the gateway's query and counts every statement.
 */

const TEAM = 'team-1';
const AGENT = 'agent-1';

function fakeDatabase(row: () => Record<string, unknown>) {
  const reads: string[] = [];
  const writes: string[] = [];
  const statement = (sql: string) => {
    const reader = /^\s*select/i.test(sql);
    return {
      reader,
      readonly: reader,
      all: () => {
        reads.push(sql);
        // The gateway's query, and refreshProtection's reads (one row of whatever it asks for).
        return [row()];
      },
      run: () => {
        writes.push(sql);
        return { changes: 1, lastInsertRowid: 0 };
      },
      iterate: function* () {
        yield* [];
      },
    };
  };
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: { prepare: statement, close: () => {} } }) });
  return { db, reads, writes };
}

function agentRow(enforced: string | null, config: string | null) {
  return {
    id: AGENT,
    team_id: TEAM,
    agent_name: 'support',
    agent_url: 'http://127.0.0.1:9/v1',
    protocol: 'chat_completions',
    model_name: 'm',
    api_key_enc: null,
    agent_system_prompt: null,
    agent_params: null,
    rate_limit_requests_per_minute: null,
    import_metadata: null,
    dome_config_id: config,
    protection_status: enforced === null ? 'configured' : 'domed',
    gateway_config_id: config,
    gateway_config_body: config === null ? null : '{}',
    gateway_enforced_config_id: enforced,
  };
}

const principal: Principal = {
  userId: 'u',
  email: 'u@example.com',
  isSuperAdmin: false,
  credential: { kind: 'session', id: 's' },
  keyPermissions: null,
  memberships: new Map([[TEAM, 'MEMBER']]),
  primaryTeamId: TEAM,
  passwordChangeRequired: false,
};

function core(db: Kysely<DB>, readVersion: GatewayDeps['readVersion'], mode: 'enforce' | 'monitor' = 'enforce') {
  const deps: GatewayDeps = {
    db,
    readVersion,
    keys: { agentSecrets: Buffer.alloc(32) } as GatewayDeps['keys'],
    now: () => 1_800_000_000,
    connector: {} as GatewayDeps['connector'],
    telemetry: noTelemetry,
  };
  const guard = { config: { gateway: { mode } } as unknown as CompiledDomeConfig, scan: async () => ({}) as never };
  const limiter = { acquire: async () => {}, tryAcquire: async () => ({ ok: true }) as const };
  return createGatewayCore(deps, { timeoutMs: 1_000, limiter }, { guardOf: async () => guard });
}

const open = (gateway: ReturnType<typeof core>) => gateway.open(principal, AGENT, () => 'chat m');

describe('gateway per-call reads', () => {
  it('reads the agent once per version of its tables, then not at all until a commit moves it', async () => {
    const { db, reads, writes } = fakeDatabase(() => agentRow('cfg-1', 'cfg-1'));
    let version = 1;
    const asked: Array<readonly string[] | undefined> = [];
    const gateway = core(db, (tables) => {
      asked.push(tables);
      return String(version);
    });
    for (let i = 0; i < 5; i++) await open(gateway);
    expect(reads).toHaveLength(1);
    expect(reads[0]).toMatch(/from "agents" left join "dome_configs" .* left join "gateway_enforcements"/);
    expect(writes).toEqual([]);
    expect(asked.at(-1)).toEqual(['agents', 'dome_configs', 'gateway_enforcements']);
    version++;
    await open(gateway);
    await open(gateway);
    expect(reads).toHaveLength(2);
    // The card reads through the same memo.
    await gateway.findAgent(AGENT);
    expect(reads).toHaveLength(2);
  });

  it('without a read version (PostgreSQL) reads once per call, in one query', async () => {
    const { db, reads } = fakeDatabase(() => agentRow('cfg-1', 'cfg-1'));
    const gateway = core(db, undefined);
    for (let i = 0; i < 3; i++) await open(gateway);
    expect(reads).toHaveLength(3);
  });

  it('writes the enforcement when the record differs from what the gateway enforces, and not again once it matches', async () => {
    let enforced: string | null = null;
    const { db, reads, writes } = fakeDatabase(() => agentRow(enforced, 'cfg-1'));
    let version = 1;
    const gateway = core(db, () => String(version));
    await open(gateway);
    expect(writes.some((sql) => /insert into "gateway_enforcements"/.test(sql))).toBe(true);
    // The commit moved the version; the record now matches.
    enforced = 'cfg-1';
    version++;
    writes.length = 0;
    const readsBefore = reads.length;
    for (let i = 0; i < 3; i++) await open(gateway);
    expect(writes).toEqual([]);
    expect(reads.length - readsBefore).toBe(1);
  });

  it('removes the record in monitor mode, as another process may have left it', async () => {
    const { db, writes } = fakeDatabase(() => agentRow('cfg-1', 'cfg-1'));
    await open(core(db, () => '1', 'monitor'));
    expect(writes.some((sql) => /delete from "gateway_enforcements"/.test(sql))).toBe(true);
  });
});
