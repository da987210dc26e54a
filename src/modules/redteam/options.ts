import { randomInt } from 'node:crypto';
import { invalid } from '../../http/errors.js';

/**
 * The `provider_config` keys Warden reads (docs/redteam.md, "Options"). Other keys are ignored
 * and not stored: another tool's provider settings may hold credentials.
 */
export interface CampaignOptions {
  /** Seeds the plan and every variation: the same seed, purpose and settings attack with the same messages. */
  seed: number;
  /** best-of-n: variations sent at most per attack. */
  best_of_n: number;
  /** crescendo: turns at most per conversation. */
  crescendo_turns: number;
  /** A bare URL's protocol. */
  protocol: 'chat_completions' | 'a2a';
  /** A bare URL's ceiling of requests per minute (an agent's own ceiling applies to agents). */
  rate_limit_per_minute: number;
  /** false: attack the agent directly even when a Dome configuration is applied to it. */
  through_dome: boolean;
  /** A saved Dome configuration of the team to send the attacks through (instead of the agent's applied one). */
  dome_config_id: string | null;
}

export const DEFAULT_OPTIONS = { best_of_n: 5, crescendo_turns: 5, protocol: 'chat_completions', rate_limit_per_minute: 600, through_dome: true } as const;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const loc = (key: string) => ['body', 'provider_config', key];

function integer(raw: Record<string, unknown>, key: string, fallback: number, min: number, max: number): number {
  const value = raw[key];
  if (value === undefined || value === null) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalid(loc(key), 'Input should be a valid integer', 'int_type');
  if (value < min) throw invalid(loc(key), `Input should be greater than or equal to ${min}`, 'greater_than_equal');
  if (value > max) throw invalid(loc(key), `Input should be less than or equal to ${max}`, 'less_than_equal');
  return value;
}

export function parseOptions(raw: Record<string, unknown> | null | undefined): CampaignOptions {
  const config = raw ?? {};
  const protocol = config.protocol ?? DEFAULT_OPTIONS.protocol;
  if (protocol !== 'chat_completions' && protocol !== 'a2a') throw invalid(loc('protocol'), "Input should be 'chat_completions' or 'a2a'", 'enum');
  const throughDome = config.through_dome ?? DEFAULT_OPTIONS.through_dome;
  if (typeof throughDome !== 'boolean') throw invalid(loc('through_dome'), 'Input should be a valid boolean', 'bool_type');
  const domeConfigId = config.dome_config_id ?? null;
  if (domeConfigId !== null && (typeof domeConfigId !== 'string' || !UUID.test(domeConfigId))) {
    throw invalid(loc('dome_config_id'), 'Input should be a valid UUID', 'uuid_parsing');
  }
  return {
    seed: integer(config, 'seed', randomInt(0, 2 ** 31), 0, 2 ** 31 - 1),
    best_of_n: integer(config, 'best_of_n', DEFAULT_OPTIONS.best_of_n, 1, 20),
    crescendo_turns: integer(config, 'crescendo_turns', DEFAULT_OPTIONS.crescendo_turns, 3, 5),
    protocol,
    rate_limit_per_minute: integer(config, 'rate_limit_per_minute', DEFAULT_OPTIONS.rate_limit_per_minute, 1, 1_000_000),
    through_dome: throughDome,
    dome_config_id: domeConfigId === null ? null : domeConfigId.toLowerCase(),
  };
}
