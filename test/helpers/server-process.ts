import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';

const ROOT = path.resolve(import.meta.dirname, '../..');
const MAIN = path.join(ROOT, 'dist/main.js');

/**
 * Resolves with the service's address once a process prints its "Server listening at" line;
 * rejects when it exits first or takes longer than `timeoutMs`. `output` collects every line.
 */
export async function untilListening(child: ChildProcess, label: string, timeoutMs: number) {
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${label} did not listen in time:\n${output.join('\n')}`)), timeoutMs);
    for (const stream of [child.stdout, child.stderr]) {
      if (stream === null) continue;
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  return { url, output, exited };
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything the process wrote, for assertions on its logs. */
  output: string[];
  kill(signal?: NodeJS.Signals): Promise<void>;
}

/**
 * Starts the built service (`dist/main.js`, made by `npm run build`, which `npm test` runs
 * first) as a separate process on a free loopback port, and resolves once it listens.
 */
export async function startServer(env: Record<string, string>, timeoutMs = 20_000): Promise<ServerProcess> {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    // info: the helper waits for the "Server listening" line.
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env, LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const { url, output, exited } = await untilListening(child, 'server', timeoutMs);
  return {
    url,
    child,
    output,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

export async function api(url: string, method: string, pathname: string, token?: string, body?: unknown) {
  const res = await fetch(`${url}${pathname}`, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

export async function loginTo(url: string, email: string, password: string): Promise<string> {
  const res = await api(url, 'POST', '/v1/auth/jwt/login', undefined, { email, password });
  if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.access_token as string;
}
