import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { deriveKeys } from '../src/crypto/keys.js';
import { openDatabase } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrations/index.js';
import { bearer } from './helpers/app.js';
import { createWorld } from './helpers/factories.js';
import { multipartBody } from './policy-fixtures.js';

// SQLite only (vitest.config.ts): a second app on the same database file, as after a restart.
describe('documents survive a restart', () => {
  it('are served by a new process on the same database file', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'warden-docs-'));
    const keys = deriveKeys('restart-test-secret-key-long-enough-0123456789');
    const start = async () => {
      const database = openDatabase({ dialect: 'sqlite', filename: path.join(dir, 'warden.db') });
      await migrateToLatest(database.db, database.dialect);
      const app = await buildApp({ database, keys, dataDir: dir, passwordHashCost: 10, tokenTtlSeconds: 3600 });
      app.addHook('onClose', async () => database.close());
      return app;
    };
    try {
      const first = await start();
      const w = await createWorld(first);
      const created = await first.inject({
        method: 'POST',
        url: '/v1/policies/',
        headers: bearer(w.teamA.member.token),
        payload: { name: 'p', category: 'custom' },
      });
      const policyId = created.json().id as string;
      const { payload, headers } = multipartBody('file', 'kept.txt', Buffer.from('still here'));
      const up = await first.inject({
        method: 'POST',
        url: `/v1/policies/${policyId}/upload`,
        headers: { ...headers, ...bearer(w.teamA.member.token) },
        payload,
      });
      expect(up.statusCode, up.body).toBe(200);
      await first.close();

      const second = await start();
      const file = await second.inject({ method: 'GET', url: `/v1/policies/${policyId}/file`, headers: bearer(w.teamA.member.token) });
      expect(file.statusCode, file.body).toBe(200);
      expect(file.body).toBe('still here');
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
