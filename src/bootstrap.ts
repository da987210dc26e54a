import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { makeDirectory } from './make-directory.js';
import type { IdentityService } from './modules/identity/identity.service.js';

export const INITIAL_ADMIN_FILE = 'initial-admin.txt';

/**
 * First start (CONTRACT.md): when the database has no user, create a super admin and a
 * first team. With WARDEN_ADMIN_EMAIL / WARDEN_ADMIN_PASSWORD set, that account; without
 * them, admin@warden.local with a generated password written to `<data>/initial-admin.txt`
 * (mode 0600): secrets never go to the log.
 */
export async function bootstrapFirstAdmin(
  config: Pick<Config, 'admin' | 'dataDir'>,
  identity: Pick<IdentityService, 'bootstrapAdmin'>,
  log: Pick<FastifyBaseLogger, 'info'>,
): Promise<void> {
  if (config.admin !== undefined) {
    if (await identity.bootstrapAdmin(config.admin)) {
      log.info({ email: config.admin.email }, 'first start: created the super admin from WARDEN_ADMIN_EMAIL and a first team');
    }
    return;
  }
  const email = 'admin@warden.local';
  const password = randomBytes(18).toString('base64url');
  if (!(await identity.bootstrapAdmin({ email, password }))) return;
  makeDirectory(config.dataDir);
  const file = path.join(config.dataDir, INITIAL_ADMIN_FILE);
  fs.writeFileSync(file, `email: ${email}\npassword: ${password}\n`, { mode: 0o600 });
  log.info({ email, credentials_file: file }, 'first start: created a super admin and a first team; the password is in the credentials file');
}
