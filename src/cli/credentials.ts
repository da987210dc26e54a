import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * `warden login` keeps one token per Warden address in the user's config folder
 * ($XDG_CONFIG_HOME/warden, else ~/.config/warden), in a file only its owner can read (0600).
 * WARDEN_API_KEY, when set, wins over it.
 */
export function credentialsFile(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || os.homedir(), '.config');
  return path.join(base, 'warden', 'credentials.json');
}

interface Stored {
  tokens: Record<string, { token: string; email?: string; saved_at: string }>;
}

function read(file: string): Stored {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as Partial<Stored>;
    return { tokens: parsed.tokens && typeof parsed.tokens === 'object' ? parsed.tokens : {} };
  } catch {
    return { tokens: {} };
  }
}

const key = (url: string) => url.replace(/\/+$/, '');

export function storedToken(url: string, env: NodeJS.ProcessEnv = process.env): string | undefined {
  return read(credentialsFile(env)).tokens[key(url)]?.token;
}

export function storeToken(url: string, token: string, email: string, env: NodeJS.ProcessEnv = process.env): string {
  const file = credentialsFile(env);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const stored = read(file);
  stored.tokens[key(url)] = { token, email, saved_at: new Date().toISOString() };
  writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

export function forgetToken(url: string, env: NodeJS.ProcessEnv = process.env): boolean {
  const file = credentialsFile(env);
  const stored = read(file);
  if (!stored.tokens[key(url)]) return false;
  delete stored.tokens[key(url)];
  if (Object.keys(stored.tokens).length === 0) rmSync(file, { force: true });
  else writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  return true;
}
