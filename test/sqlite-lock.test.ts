import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { api, loginTo, startServer, type ServerProcess } from './helpers/server-process.js';

/**
 * One SQLite file, one service process: a second `npm start` on the same file stops at start
 * with one line on stderr and exit code 1 (it would otherwise take the first one's running
 * jobs), a process killed with SIGKILL leaves nothing that blocks the next start, and the
 * command-line tasks still run beside a started service. Runs the built dist/ (npm test builds it).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'warden-lock-'));
const env = {
  WARDEN_DATABASE_URL: `sqlite://${path.join(dir, 'warden.db')}`,
  WARDEN_DATA_DIR: dir,
  WARDEN_ADMIN_EMAIL: 'lock@example.com',
  WARDEN_ADMIN_PASSWORD: 'lock-password-1',
  WARDEN_PASSWORD_HASH_COST: '14',
};
const running: ServerProcess[] = [];
afterAll(async () => {
  for (const server of running) await server.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Runs a built entry point to its end. */
function runToExit(script: string, args: string[] = []): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const file = path.join(ROOT, 'dist', script);
  if (!existsSync(file)) throw new Error(`${file} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [file, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    }),
  );
}

async function start(): Promise<ServerProcess> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

describe('one SQLite file, one service process', () => {
  it('refuses a second service on the same file with one line and exit code 1, and the first one keeps serving', async () => {
    const first = await start();
    const second = await runToExit('main.js');
    expect(second.code).toBe(1);
    expect(second.stdout).not.toMatch(/Server listening/);
    expect(second.stderr.trim().split('\n')).toEqual([
      `warden: configuration error: WARDEN_DATABASE_URL: ${path.join(dir, 'warden.db')} is in use by another Warden process: ` +
        'one SQLite file serves one process (stop the other, or use PostgreSQL to run several)',
    ]);
    const token = await loginTo(first.url, env.WARDEN_ADMIN_EMAIL, env.WARDEN_ADMIN_PASSWORD);
    expect((await api(first.url, 'GET', '/v1/users/me', token)).status).toBe(200);
  }, 60_000);

  it('runs the command-line tasks beside the started service', async () => {
    const migrate = await runToExit('cli.js', ['migrate']);
    expect(migrate.code, migrate.stderr).toBe(0);
    const admin = await runToExit('cli.js', ['create-admin', '--email', 'second@example.com', '--password', 'second-password-1']);
    expect(admin.code, admin.stderr).toBe(0);
    const server = running[0] as ServerProcess;
    expect((await api(server.url, 'POST', '/v1/auth/jwt/login', undefined, { email: 'second@example.com', password: 'second-password-1' })).status).toBe(200);
  }, 60_000);

  it('starts again on the same file after the service was killed with SIGKILL, and after a stop', async () => {
    await (running.shift() as ServerProcess).kill('SIGKILL');
    const next = await start();
    const login = await api(next.url, 'POST', '/v1/auth/jwt/login', undefined, { email: env.WARDEN_ADMIN_EMAIL, password: env.WARDEN_ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    await (running.shift() as ServerProcess).kill('SIGTERM');
    const after = await start();
    expect((await api(after.url, 'GET', '/healthz')).status).toBe(200);
  }, 60_000);
});
