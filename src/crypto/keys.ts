import { createCipheriv, createDecipheriv, createHash, createSecretKey, hkdfSync, randomBytes, timingSafeEqual, type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeDirectory } from '../make-directory.js';

/** Keys derived from the one service secret, each for one purpose. */
export interface ServiceKeys {
  /** A KeyObject made once: jose would otherwise import raw key bytes on every check. */
  jwt: KeyObject;
  agentSecrets: Buffer;
}

export function deriveKeys(secret: string): ServiceKeys {
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', secret, 'warden', info, 32));
  return { jwt: createSecretKey(derive('warden/jwt/v1')), agentSecrets: derive('warden/agent-secrets/v1') };
}

/**
 * The secret from WARDEN_SECRET_KEY, or one generated on first start and kept in the
 * data folder with mode 0600. Several processes on one database must share it: set
 * WARDEN_SECRET_KEY explicitly there (docs/deployment.md).
 */
export function loadOrCreateSecret(explicit: string | undefined, dataDir: string): string {
  if (explicit !== undefined) return explicit;
  const file = path.join(dataDir, 'secret.key');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  makeDirectory(dataDir);
  const secret = randomBytes(32).toString('hex');
  try {
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    // Another process created it first: use theirs.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return fs.readFileSync(file, 'utf8').trim();
    throw error;
  }
}

const VERSION = 'v1';

/** AES-256-GCM: `v1.<iv>.<tag>.<ciphertext>`, base64url parts. */
export function encryptSecret(key: Buffer, plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
}

export function decryptSecret(key: Buffer, sealed: string): string {
  const [version, iv, tag, data] = sealed.split('.');
  if (version !== VERSION || iv === undefined || tag === undefined || data === undefined) {
    throw new Error('unrecognised secret format');
  }
  const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * Opens an agent's key sealed at rest (an agent's `api_key`, a campaign's `agent_api_key`) for a
 * run. A key that does not open (sealed under another WARDEN_SECRET_KEY, or damaged) fails with a
 * message for a person, the same for evaluations and campaigns, never the cipher's own error.
 */
export function openAgentKey(key: Buffer, sealed: string | null): string | null {
  if (sealed === null) return null;
  try {
    return decryptSecret(key, sealed);
  } catch {
    throw new Error("The agent's API key cannot be decrypted (was WARDEN_SECRET_KEY changed?): save the key again");
  }
}

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export function constantTimeEqualHex(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}
