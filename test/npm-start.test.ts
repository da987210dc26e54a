import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { accepting, eventually, npmStart, processAlive, type NpmStarted } from './helpers/npm-start.js';

/**
 * Issue 17, item 1: `kill <pid of npm start>` (SIGTERM, as systemd, Docker and process managers
 * send it) used to end npm and its shell and leave `node dist/main.js` answering.
 */
const GRACEFUL_CLOSE_MS = 10_000; // src/main.ts
const dir = mkdtempSync(path.join(os.tmpdir(), 'warden-npm-start-'));
let started: NpmStarted | undefined;
afterAll(() => {
  // Whatever the test found, nothing it started outlives it.
  if (started !== undefined && processAlive(started.servicePid)) process.kill(started.servicePid, 'SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

describe('npm start', () => {
  it('names a URL a person can open, and stops the service when npm is sent SIGTERM: the port is free', async () => {
    started = await npmStart({
      WARDEN_DATA_DIR: path.join(dir, 'data'),
      WARDEN_DATABASE_URL: `sqlite://${path.join(dir, 'data', 'warden.db')}`,
      WARDEN_PASSWORD_HASH_COST: '14',
    });
    const { npm, url, servicePid, output, exited } = started;
    const ready = output.map((line) => /"msg":"(Warden is ready[^"]*)"/.exec(line)?.[1]).find((m) => m !== undefined);
    expect(ready).toBe(`Warden is ready: console at ${url}/, API docs at ${url}/docs`);
    expect((await fetch(`${url}/docs`)).status).toBe(200);
    // The console that npm start built, served at / (docs/console.md).
    const page = await fetch(`${url}/`, { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(await page.text()).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js">/);
    expect(npm.pid).not.toBe(servicePid);

    npm.kill('SIGTERM');
    await exited;
    expect(await eventually(async () => !(await accepting(url)), GRACEFUL_CLOSE_MS + 5_000), `${url} still answers after npm was stopped`).toBe(true);
    expect(await eventually(() => !processAlive(servicePid), 5_000), `node dist/main.js (pid ${servicePid}) is still running`).toBe(true);
    expect(output.join('\n')).toContain('"signal":"SIGTERM"');
  });
});
