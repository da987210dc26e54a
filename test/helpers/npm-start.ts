import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import path from 'node:path';
import { createInterface } from 'node:readline';

export const ROOT = path.resolve(import.meta.dirname, '../..');

export interface NpmStarted {
  /** The `npm start` process: what a person, systemd or Docker starts and stops. */
  npm: ChildProcess;
  /** The service's address, from its "Server listening at" line. */
  url: string;
  /** The process id of the service itself (node dist/main.js), from its log lines. */
  servicePid: number;
  /** Everything npm and the service wrote. */
  output: string[];
  exited: Promise<number | null>;
}

/**
 * Runs `npm start` in the project's folder, as the README says, on a free loopback port.
 * `--ignore-scripts` leaves out `prestart` (the build, which `npm test` has already run): the
 * chain of processes is the one `npm start` leaves running once the build is done, and no test
 * rewrites dist/ while other test files run the service from it.
 */
export async function npmStart(env: Record<string, string>): Promise<NpmStarted> {
  if (!existsSync(path.join(ROOT, 'dist/main.js'))) throw new Error('dist/main.js is missing: run "npm run build" first (npm test does)');
  const npm = spawn('npm', ['start', '--ignore-scripts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? ROOT, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output: string[] = [];
  const exited = new Promise<number | null>((resolve) => npm.once('exit', (code) => resolve(code)));
  let servicePid: number | undefined;
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start did not listen in time:\n${output.join('\n')}`)), 30_000);
    for (const stream of [npm.stdout, npm.stderr]) {
      createInterface({ input: stream }).on('line', (line) => {
        output.push(line);
        servicePid ??= /"pid":(\d+)/.exec(line)?.[1] === undefined ? undefined : Number(/"pid":(\d+)/.exec(line)?.[1]);
        const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(match[1] as string);
        }
      });
    }
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited with ${code} before listening:\n${output.join('\n')}`));
    });
  });
  if (servicePid === undefined) throw new Error(`no pid in the service's log:\n${output.join('\n')}`);
  return { npm, url, servicePid, output, exited };
}

/** Whether something accepts connections at this address now. */
export function accepting(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` every 100 ms until it holds or `ms` have passed; answers whether it held. */
export async function eventually(check: () => boolean | Promise<boolean>, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    if (await check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
