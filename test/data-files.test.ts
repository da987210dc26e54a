import { mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrapFirstAdmin } from '../src/bootstrap.js';
import { loadConfig } from '../src/config.js';
import { startFromConfig } from '../src/runtime.js';

const mode = (file: string) => (statSync(file).mode & 0o777).toString(8);

/** What the first start writes to disk is readable by the service's user only (SECURITY.md). */
describe('files of the first start', () => {
  let cwd: string;
  let app: Awaited<ReturnType<typeof startFromConfig>>;
  beforeAll(async () => {
    cwd = mkdtempSync(path.join(os.tmpdir(), 'warden-files-'));
    const config = loadConfig({ WARDEN_PASSWORD_HASH_COST: '14' }, cwd);
    app = await startFromConfig(config);
    await bootstrapFirstAdmin(config, app.services.identity, app.log);
  });
  afterAll(async () => {
    await app.close();
    rmSync(cwd, { recursive: true, force: true });
  });

  it('creates the data folder 0700', () => {
    expect(mode(path.join(cwd, 'data'))).toBe('700');
  });

  it('creates the SQLite file and its WAL 0600', () => {
    expect(mode(path.join(cwd, 'data/warden.db'))).toBe('600');
    // The service is running and has written: the WAL and shared-memory files exist.
    expect(mode(path.join(cwd, 'data/warden.db-wal'))).toBe('600');
    expect(mode(path.join(cwd, 'data/warden.db-shm'))).toBe('600');
  });

  it('creates the generated secret key and the first admin file 0600', () => {
    expect(mode(path.join(cwd, 'data/secret.key'))).toBe('600');
    expect(mode(path.join(cwd, 'data/initial-admin.txt'))).toBe('600');
  });
});
