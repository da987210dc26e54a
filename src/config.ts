import { isIP } from 'node:net';
import path from 'node:path';
import { OutboundRulesError, parseOutboundRules, type OutboundRules } from './connector/outbound.js';

/**
 * Everything Warden reads from its environment, parsed once at start.
 * Nothing else in src/ reads process.env: tests and the CLI build a Config directly.
 */
export interface Config {
  port: number;
  host: string;
  database: DatabaseConfig;
  /** Folder for the generated secret key and the first admin's credentials (documents are in the database). */
  dataDir: string;
  /** Explicit secret; when absent one is generated once and kept in `dataDir`. */
  secretKey: string | undefined;
  admin: { email: string; password: string } | undefined;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** log2 of scrypt's N for new password hashes (15 = 32 MiB, ~60 ms per hash). */
  passwordHashCost: number;
  /** Lifetime of a login token, in seconds (CONTRACT: 24 h). */
  tokenTtlSeconds: number;
  /** OpenAI-compatible chat endpoint for rule extraction; absent: extraction answers 503. */
  llm?: LlmConfig | undefined;
  /** Requests per minute per credential (or per address without one); 0 turns the limit off. */
  rateLimitPerMinute: number;
  /** Origins allowed by CORS; empty: CORS is off (no cross-origin browser access). */
  corsOrigins: string[];
  /** Trust X-Forwarded-For from this many proxies in front of Warden (0: none). */
  trustProxyHops: number;
  /** Where agents may live: WARDEN_OUTBOUND_DENY / WARDEN_OUTBOUND_ALLOW (docs/connector.md). */
  outbound: OutboundRules;
  /** The background job runner of this process (docs/jobs.md, "Configuration"). */
  jobs: JobsConfig;
  /** Prompts one evaluation has in flight at once (the agent's rate ceiling still applies). */
  evaluationConcurrency: number;
  /** Attacks one red-team campaign has in flight at once (the agent's rate ceiling still applies). */
  redteamConcurrency: number;
  /** Days telemetry is kept (WARDEN_TELEMETRY_RETENTION_DAYS, default 30; docs/telemetry.md). */
  telemetryRetentionDays: number;
  /** OTEL_EXPORTER_OTLP_ENDPOINT: when set, Warden also exports its own traces and metrics there. */
  otlpExportEndpoint?: string | undefined;
  /** The gateway (docs/gateway.md). */
  gateway: GatewayConfig;
}

export interface GatewayConfig {
  /** WARDEN_REDIS_URL: agents' limits shared by every process; absent: in-process limits (N processes let N× through). */
  redisUrl?: string | undefined;
  /** WARDEN_GATEWAY_TIMEOUT_SECONDS (default 60): an agent silent this long answers 504. */
  timeoutMs: number;
}

function parseRedisUrl(raw: string | undefined): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError('WARDEN_REDIS_URL', 'is not a URL (for example redis://127.0.0.1:6379)');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw new ConfigError('WARDEN_REDIS_URL', 'must be a redis:// or rediss:// URL');
  return value;
}

export interface JobsConfig {
  concurrency: number;
  pollMs: number;
  leaseMs: number;
  flushMs: number;
  stopTimeoutMs: number;
  maxLogLines: number;
}

/** An OpenAI-compatible chat completions endpoint. The key is never logged nor answered. */
export interface LlmConfig {
  /** e.g. https://api.openai.com/v1 (`/chat/completions` is appended). */
  baseUrl: string;
  /** Sent as `Authorization: Bearer …`; undefined for local servers that need none. */
  apiKey: string | undefined;
  model: string;
}

export type DatabaseConfig =
  | { dialect: 'sqlite'; filename: string }
  | { dialect: 'postgres'; url: string; schema?: string | undefined };

export class ConfigError extends Error {
  constructor(
    readonly variable: string,
    message: string,
  ) {
    // One line, whatever the offending value holds: the start-up error is a single line.
    super(`${variable}: ${message}`.replace(/[\r\n]+/g, ' '));
    this.name = 'ConfigError';
  }
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

export function parseDatabaseUrl(raw: string, cwd: string, variable = 'WARDEN_DATABASE_URL'): DatabaseConfig {
  if (raw.startsWith('postgres://') || raw.startsWith('postgresql://')) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(variable, 'is not a valid postgres:// URL');
    }
    return { dialect: 'postgres', url: raw };
  }
  if (raw.startsWith('sqlite:')) {
    // sqlite:///absolute/path.db (three slashes: absolute) or sqlite:relative/path.db
    const rest = raw.slice('sqlite:'.length);
    if (rest === ':memory:') return { dialect: 'sqlite', filename: ':memory:' };
    const file = rest.startsWith('//') ? rest.slice(2) : rest;
    if (file.length === 0) throw new ConfigError(variable, 'names no database file (use sqlite:data/warden.db)');
    return { dialect: 'sqlite', filename: path.resolve(cwd, file) };
  }
  throw new ConfigError(variable, 'must start with sqlite: or postgres:// (for example sqlite:data/warden.db)');
}

function parseInteger(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(name, `must be a whole number, got "${raw}"`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(name, `must be between ${min} and ${max}, got ${value}`);
  return value;
}

/** A host to listen on: an IP address or a DNS name (whether it resolves is seen at listen). */
function parseHost(raw: string | undefined): string {
  const host = raw?.trim() || '127.0.0.1';
  const label = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/i;
  if (isIP(host) !== 0 || (host.length <= 253 && host.split('.').every((part) => label.test(part)))) return host;
  throw new ConfigError('HOST', `must be an IP address or a host name (for example 127.0.0.1 or 0.0.0.0), got "${host}"`);
}

function parseOutbound(env: NodeJS.ProcessEnv): OutboundRules {
  try {
    return parseOutboundRules(env.WARDEN_OUTBOUND_DENY, env.WARDEN_OUTBOUND_ALLOW);
  } catch (error) {
    if (error instanceof OutboundRulesError) throw new ConfigError(error.variable, error.reason);
    throw error;
  }
}

function parseOrigins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const origins = raw.split(',').map((o) => o.trim()).filter((o) => o.length > 0);
  for (const origin of origins) {
    let url: URL;
    try {
      url = new URL(origin);
    } catch {
      throw new ConfigError('WARDEN_CORS_ORIGINS', `"${origin}" is not an origin (for example https://console.example.com)`);
    }
    if (url.origin !== origin) {
      throw new ConfigError('WARDEN_CORS_ORIGINS', `"${origin}" is not an origin: use scheme://host[:port] with no path (${url.origin})`);
    }
  }
  return origins;
}

/** WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL together turn rule extraction on; WARDEN_LLM_API_KEY is optional. */
function parseLlm(env: NodeJS.ProcessEnv): LlmConfig | undefined {
  const baseUrl = env.WARDEN_LLM_BASE_URL?.trim() || undefined;
  const model = env.WARDEN_LLM_MODEL?.trim() || undefined;
  const apiKey = env.WARDEN_LLM_API_KEY?.trim() || undefined;
  if (baseUrl === undefined && model === undefined) {
    if (apiKey !== undefined) throw new ConfigError('WARDEN_LLM_BASE_URL', 'WARDEN_LLM_API_KEY is set but WARDEN_LLM_BASE_URL and WARDEN_LLM_MODEL are not');
    return undefined;
  }
  if (baseUrl === undefined) throw new ConfigError('WARDEN_LLM_BASE_URL', 'must be set with WARDEN_LLM_MODEL (for example https://api.openai.com/v1)');
  if (model === undefined) throw new ConfigError('WARDEN_LLM_MODEL', 'must be set with WARDEN_LLM_BASE_URL (for example gpt-4o-mini)');
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new ConfigError('WARDEN_LLM_BASE_URL', 'is not a URL (for example https://api.openai.com/v1)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ConfigError('WARDEN_LLM_BASE_URL', 'must be an http:// or https:// URL');
  if (url.username !== '' || url.password !== '')
    throw new ConfigError('WARDEN_LLM_BASE_URL', 'must not contain credentials: put the key in WARDEN_LLM_API_KEY');
  return { baseUrl: baseUrl.replace(/\/+$/, ''), apiKey, model };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Config {
  const logLevel = (env.LOG_LEVEL ?? 'info').toLowerCase();
  if (!(LOG_LEVELS as readonly string[]).includes(logLevel)) {
    throw new ConfigError('LOG_LEVEL', `must be one of ${LOG_LEVELS.join(', ')}, got "${env.LOG_LEVEL}"`);
  }
  const adminEmail = env.WARDEN_ADMIN_EMAIL?.trim() || undefined;
  const adminPassword = env.WARDEN_ADMIN_PASSWORD || undefined;
  if ((adminEmail === undefined) !== (adminPassword === undefined)) {
    throw new ConfigError(
      adminEmail === undefined ? 'WARDEN_ADMIN_EMAIL' : 'WARDEN_ADMIN_PASSWORD',
      'WARDEN_ADMIN_EMAIL and WARDEN_ADMIN_PASSWORD must be set together',
    );
  }
  if (adminEmail !== undefined && !/^[^@\s]+@[^@\s]+$/.test(adminEmail)) {
    throw new ConfigError('WARDEN_ADMIN_EMAIL', 'is not an email address');
  }
  if (adminPassword !== undefined && adminPassword.length < 8) {
    throw new ConfigError('WARDEN_ADMIN_PASSWORD', 'must be at least 8 characters long');
  }
  const secretKey = env.WARDEN_SECRET_KEY || undefined;
  if (secretKey !== undefined && secretKey.length < 32) {
    throw new ConfigError('WARDEN_SECRET_KEY', 'must be at least 32 characters long (try: openssl rand -hex 32)');
  }
  const host = parseHost(env.HOST);
  return {
    port: parseInteger(env, 'PORT', 8000, 0, 65535),
    host,
    database: parseDatabaseUrl(env.WARDEN_DATABASE_URL?.trim() || 'sqlite:data/warden.db', cwd),
    dataDir: path.resolve(cwd, env.WARDEN_DATA_DIR?.trim() || 'data'),
    secretKey,
    admin: adminEmail !== undefined && adminPassword !== undefined ? { email: adminEmail, password: adminPassword } : undefined,
    logLevel: logLevel as Config['logLevel'],
    passwordHashCost: parseInteger(env, 'WARDEN_PASSWORD_HASH_COST', 15, 14, 20),
    tokenTtlSeconds: 24 * 60 * 60,
    llm: parseLlm(env),
    rateLimitPerMinute: parseInteger(env, 'WARDEN_RATE_LIMIT_PER_MINUTE', 6000, 0, 10_000_000),
    corsOrigins: parseOrigins(env.WARDEN_CORS_ORIGINS),
    trustProxyHops: parseInteger(env, 'WARDEN_TRUST_PROXY_HOPS', 0, 0, 10),
    jobs: {
      concurrency: parseInteger(env, 'WARDEN_JOB_CONCURRENCY', 2, 1, 64),
      pollMs: parseInteger(env, 'WARDEN_JOB_POLL_MS', 1000, 10, 60_000),
      leaseMs: parseInteger(env, 'WARDEN_JOB_LEASE_MS', 30_000, 3_000, 3_600_000),
      flushMs: parseInteger(env, 'WARDEN_JOB_FLUSH_MS', 1000, 0, 60_000),
      // Below main.ts's 10 s bound on a stop, so that jobs are handed back before the process goes.
      stopTimeoutMs: parseInteger(env, 'WARDEN_JOB_STOP_TIMEOUT_MS', 5_000, 0, 600_000),
      maxLogLines: parseInteger(env, 'WARDEN_JOB_LOG_LINES', 1000, 1, 5000),
    },
    evaluationConcurrency: parseInteger(env, 'WARDEN_EVALUATION_CONCURRENCY', 16, 1, 256),
    redteamConcurrency: parseInteger(env, 'WARDEN_REDTEAM_CONCURRENCY', 4, 1, 64),
    telemetryRetentionDays: parseInteger(env, 'WARDEN_TELEMETRY_RETENTION_DAYS', 30, 1, 3650),
    otlpExportEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || undefined,
    outbound: parseOutbound(env),
    gateway: {
      redisUrl: parseRedisUrl(env.WARDEN_REDIS_URL),
      timeoutMs: parseInteger(env, 'WARDEN_GATEWAY_TIMEOUT_SECONDS', 60, 1, 3600) * 1000,
    },
  };
}
