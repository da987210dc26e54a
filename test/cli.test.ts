import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliRun } from './helpers/cli.js';

/**
 * The command-line tasks (`npm run warden -- …`, i.e. the built dist/cli.js, which `npm test`
 * builds first) as a person runs them: with the service's WARDEN_* settings (issue 17).
 */
const dir = mkdtempSync(path.join(os.tmpdir(), 'warden-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const database = path.join(dir, 'elsewhere', 'warden.db');
const settings = { WARDEN_DATABASE_URL: `sqlite://${database}`, WARDEN_DATA_DIR: path.join(dir, 'data'), WARDEN_PASSWORD_HASH_COST: '14' };

function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  // cwd is an empty folder: nothing but the environment says where the database is.
  return runCli(args, dir, { ...settings, ...env });
}

describe('warden migrate | create-admin (the service tasks)', () => {
  it('names an unknown command in its error and suggests the nearest one', async () => {
    const { code, stderr } = await cli(['craete-admin']);
    expect(code).toBe(2);
    expect(stderr.split('\n')[0]).toBe("warden: unknown command 'craete-admin'");
    expect(stderr).toContain('Did you mean create-admin?');
  });

  it('uses WARDEN_DATABASE_URL: the first admin and first team go to that database', async () => {
    const first = await cli(['create-admin'], { WARDEN_ADMIN_EMAIL: 'first@example.com', WARDEN_ADMIN_PASSWORD: 'first-password-1' });
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout.trim()).toBe('created super admin first@example.com and a first team');
    expect(existsSync(database)).toBe(true);
    expect(existsSync(path.join(dir, 'warden.db'))).toBe(false);
  });

  it('tells an admin made on a database that has teams how to join or create one', async () => {
    const second = await cli(['create-admin'], { WARDEN_ADMIN_EMAIL: 'second@example.com', WARDEN_ADMIN_PASSWORD: 'second-password-1' });
    expect(second.code).toBe(0);
    const id = /created super admin second@example\.com \(id ([0-9a-f-]{36})\)/.exec(second.stdout)?.[1];
    expect(id, second.stdout).toBeDefined();
    expect(second.stdout).toContain('in no team yet');
    expect(second.stdout).toContain(`POST /v1/teams/?owner_id=${id}`);
    expect(second.stdout).toContain('POST /v1/teams/{team_id}/invites with {"email": "second@example.com"}');
    expect(second.stdout).toContain('POST /v1/teams/invites/{invitation_id}/accept');
  });
});
