import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.js';

/** The error loadConfig raises for `env`, which must name `variable`. */
function configError(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env, '/srv');
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error(`no error for ${JSON.stringify(env)}`);
}

describe('loadConfig: every bad value is an error naming its variable', () => {
  const cases: Array<[string, Record<string, string>]> = [
    ['HOST', { HOST: 'not a host' }],
    ['HOST', { HOST: 'under_score.example.com' }],
    ['HOST', { HOST: '-leading.example.com' }],
    ['HOST', { HOST: `${'a'.repeat(64)}.example.com` }],
    ['PORT', { PORT: 'eighty' }],
    ['PORT', { PORT: '65536' }],
    ['PORT', { PORT: '-1' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'verbose' }],
    ['WARDEN_DATABASE_URL', { WARDEN_DATABASE_URL: 'mysql://localhost/warden' }],
    ['WARDEN_DATABASE_URL', { WARDEN_DATABASE_URL: 'sqlite:' }],
    ['WARDEN_DATABASE_URL', { WARDEN_DATABASE_URL: 'postgres://[bad' }],
    ['WARDEN_SECRET_KEY', { WARDEN_SECRET_KEY: 'short' }],
    ['WARDEN_ADMIN_PASSWORD', { WARDEN_ADMIN_EMAIL: 'admin@example.com' }],
    ['WARDEN_ADMIN_EMAIL', { WARDEN_ADMIN_EMAIL: 'not-an-email', WARDEN_ADMIN_PASSWORD: 'long-enough-1' }],
    ['WARDEN_ADMIN_PASSWORD', { WARDEN_ADMIN_EMAIL: 'admin@example.com', WARDEN_ADMIN_PASSWORD: 'short' }],
    ['WARDEN_PASSWORD_HASH_COST', { WARDEN_PASSWORD_HASH_COST: '30' }],
    ['WARDEN_RATE_LIMIT_PER_MINUTE', { WARDEN_RATE_LIMIT_PER_MINUTE: 'lots' }],
    ['WARDEN_TRUST_PROXY_HOPS', { WARDEN_TRUST_PROXY_HOPS: '1.5' }],
    ['WARDEN_CORS_ORIGINS', { WARDEN_CORS_ORIGINS: 'https://console.example.com/path' }],
    ['WARDEN_OUTBOUND_DENY', { WARDEN_OUTBOUND_DENY: '10.0.0.0/33' }],
    ['WARDEN_OUTBOUND_ALLOW', { WARDEN_OUTBOUND_ALLOW: 'agents.example.com, not a host!' }],
    ['WARDEN_REDIS_URL', { WARDEN_REDIS_URL: 'http://127.0.0.1:6379' }],
    ['WARDEN_REDIS_URL', { WARDEN_REDIS_URL: 'not a url' }],
    ['WARDEN_GATEWAY_TIMEOUT_SECONDS', { WARDEN_GATEWAY_TIMEOUT_SECONDS: '0' }],
  ];
  for (const [variable, env] of cases) {
    it(`${variable}=${JSON.stringify(Object.values(env).at(-1))}`, () => {
      const error = configError(env);
      expect(error.variable).toBe(variable);
      expect(error.message.startsWith(`${variable}: `), error.message).toBe(true);
      expect(error.message).not.toMatch(/\n/);
    });
  }

  it('reads the outbound lists (docs/connector.md)', () => {
    const config = loadConfig({ WARDEN_OUTBOUND_DENY: '10.0.0.0/8', WARDEN_OUTBOUND_ALLOW: '*.agents.example.com, 192.168.1.0/24' }, '/srv');
    expect(config.outbound.deny.map((r) => r.text)).toEqual(['10.0.0.0/8']);
    expect(config.outbound.allow?.map((r) => r.text)).toEqual(['*.agents.example.com', '192.168.1.0/24']);
    expect(loadConfig({}, '/srv').outbound).toEqual({ deny: [], allow: null });
  });

  it('reads the gateway settings (docs/gateway.md)', () => {
    expect(loadConfig({}, '/srv').gateway).toEqual({ redisUrl: undefined, timeoutMs: 60_000 });
    const config = loadConfig({ WARDEN_REDIS_URL: 'redis://cache:6379/2', WARDEN_GATEWAY_TIMEOUT_SECONDS: '15' }, '/srv');
    expect(config.gateway).toEqual({ redisUrl: 'redis://cache:6379/2', timeoutMs: 15_000 });
  });

  it('keeps the message on one line whatever the value holds', () => {
    expect(configError({ LOG_LEVEL: 'info\nforged line' }).message).not.toMatch(/[\r\n]/);
  });

  it('accepts IP addresses and host names as HOST', () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::', '::1', 'localhost', 'warden.internal.example.com']) {
      expect(loadConfig({ HOST: host }, '/srv').host).toBe(host);
    }
  });
});

/**
 * The built service (`npm test` builds dist/ first) started with one bad variable: it exits 1
 * with one line on stderr naming the variable, and nothing else there.
 */
const MAIN = path.resolve(import.meta.dirname, '../dist/main.js');
describe('starting with a bad variable', () => {
  let dir: string;
  let busy: Server;
  let busyPort: number;
  beforeAll(async () => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'warden-config-'));
    writeFileSync(path.join(dir, 'a-file'), 'not a folder');
    busy = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    busyPort = (busy.address() as { port: number }).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => busy.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  function start(env: Record<string, string>): Promise<{ code: number | null; stderr: string[] }> {
    const child = spawn(process.execPath, [MAIN], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', WARDEN_PASSWORD_HASH_COST: '14', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    // A start that never ends (issue 17: it spun on WARDEN_DATA_DIR=/proc/nope) is stopped here
    // and fails the test on its exit code instead of hanging the suite.
    const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
    return new Promise((resolve) =>
      child.once('exit', (code) => {
        clearTimeout(watchdog);
        resolve({ code, stderr: stderr.split('\n').filter((l) => l.trim() !== '') });
      }),
    );
  }

  // A folder inside a file can be neither created nor opened.
  const underAFile = () => path.join(dir, 'a-file', 'sub');
  const cases: Array<[string, string, () => Record<string, string>]> = [
    ['HOST', 'not a host name', () => ({ HOST: 'bad host!' })],
    ['HOST', 'not an address of this machine', () => ({ HOST: '192.0.2.1' })],
    ['PORT', 'not a number', () => ({ PORT: 'http' })],
    ['PORT', 'already in use', () => ({ PORT: String(busyPort) })],
    ['LOG_LEVEL', 'unknown level', () => ({ LOG_LEVEL: 'loud' })],
    ['WARDEN_DATABASE_URL', 'unknown scheme', () => ({ WARDEN_DATABASE_URL: 'mysql://localhost/db' })],
    ['WARDEN_DATABASE_URL', 'no server there', () => ({ WARDEN_DATABASE_URL: 'postgres://warden@127.0.0.1:1/warden' })],
    ['WARDEN_DATABASE_URL', 'file cannot be created', () => ({ WARDEN_DATABASE_URL: `sqlite:${underAFile()}/warden.db` })],
    ['WARDEN_DATA_DIR', 'folder cannot be created', () => ({ WARDEN_DATABASE_URL: 'sqlite::memory:', WARDEN_DATA_DIR: underAFile() })],
    // mkdir answers ENOENT under /proc although /proc exists: Node's recursive mkdir looped on it.
    ['WARDEN_DATA_DIR', 'a folder under /proc (issue 17)', () => ({ WARDEN_DATA_DIR: '/proc/nope' })],
    ['WARDEN_DATABASE_URL', 'a file under /proc', () => ({ WARDEN_DATABASE_URL: 'sqlite:///proc/nope/warden.db' })],
  ];
  for (const [variable, label, env] of cases) {
    it(`${variable}: ${label}`, async () => {
      const { code, stderr } = await start(env());
      expect(code).toBe(1);
      expect(stderr, stderr.join('\n')).toHaveLength(1);
      expect(stderr[0]).toMatch(new RegExp(`^warden: configuration error: ${variable}: `));
    });
  }
});
