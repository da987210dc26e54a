import { randomBytes, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT, errors as joseErrors } from 'jose';

export interface AccessClaims {
  userId: string;
  sessionId: string;
  expiresAt: number;
}

const ISSUER = 'warden';

export async function signAccessToken(key: KeyObject, claims: AccessClaims, issuedAt: number): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(claims.userId)
    .setIssuer(ISSUER)
    .setIssuedAt(issuedAt)
    .setExpirationTime(claims.expiresAt)
    .sign(key);
}

/**
 * Verifies signature and expiry at `now`. `graceSeconds` accepts a token that expired at
 * most that long ago (used by refresh only). Returns null for anything that is not a
 * valid Warden token.
 */
export async function verifyAccessToken(
  key: KeyObject,
  token: string,
  now: number,
  graceSeconds = 0,
): Promise<AccessClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      issuer: ISSUER,
      currentDate: new Date(now * 1000),
      clockTolerance: graceSeconds,
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return null;
    return { userId: payload.sub, sessionId: payload.sid, expiresAt: payload.exp };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError) return null;
    throw error;
  }
}

/** API keys: `wdn_<key id without dashes>_<secret>`; only sha256(secret) is stored. */
export const API_KEY_PREFIX = 'wdn_';

export function newApiKeySecret(): string {
  return randomBytes(32).toString('base64url');
}

export function formatApiKey(id: string, secret: string): string {
  return `${API_KEY_PREFIX}${id.replace(/-/g, '')}_${secret}`;
}

export function parseApiKey(token: string): { id: string; secret: string } | null {
  const match = /^wdn_([0-9a-f]{32})_([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const hex = match[1] as string;
  const id = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return { id, secret: match[2] as string };
}
