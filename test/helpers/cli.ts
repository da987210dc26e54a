import { spawn } from 'node:child_process';
import path from 'node:path';

/** The built command (`npm test` builds first; run `npm run build` before a targeted run). */
export const CLI = path.resolve(import.meta.dirname, '../../dist/cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `warden <args>` as a child process in `cwd`, with only PATH and `env` in its environment. */
export function runCli(args: string[], cwd: string, env: Record<string, string>): Promise<CliRun> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}
