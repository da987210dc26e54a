import { invalid } from '../../http/errors.js';
import type { Static, TSchema } from 'typebox';
import {
  AgentCapabilities,
  AgentMetadata,
  AgentParams,
  AgentSkill,
  DelegatedAgent,
  ImportMetadata,
  MCPConfig,
  WhiteBoxConfig,
  type AgentOut,
  type LifecycleEvent,
  type TrustStage,
} from './agents.schemas.js';
import type { LatestEvaluationRow } from '../evaluations/evaluations.repo.js';
import type { AgentRow, LifecycleEventRow } from './agents.repo.js';
import { overallOfEvidence, type PillarEvidence } from '../../evaluation/evidence.js';
import { PILLARS, type Pillar } from '../../evaluation/types.js';
import { decodeJsonValue, decodeStringList, toJsonColumn } from '../../db/json-columns.js';

export const json = toJsonColumn;

/** The fixed mask an agent's API key is answered behind (CONTRACT.md). */
export const API_KEY_MASK = '********';

/**
 * The last 4 characters are answered behind the mask (CONTRACT.md); a key of 4 characters or
 * fewer would be answered whole that way, so it gets the mask alone.
 */
export const apiKeyHint = (key: string) => (key.length > 4 ? key.slice(-4) : null);

export function maskedApiKey(row: Pick<AgentRow, 'api_key_enc' | 'api_key_hint'>): string | null {
  if (row.api_key_enc === null) return null;
  return API_KEY_MASK + (row.api_key_hint ?? '');
}

/** The longest `test_score` kept, written out (our bound; the column is `text` on PostgreSQL since migration 0005). */
export const TEST_SCORE_MAX_LENGTH = 64;

/**
 * A number's shortest round-trip form (what JSON sent) written out without an exponent,
 * digit for digit: 1e-7 → "0.0000001", 1.5e+21 → "1500000000000000000000". No rounding: the
 * digits are those of `String(value)`, only the decimal point moves.
 */
function plainDecimal(value: number): string {
  const text = String(value);
  const match = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/i.exec(text);
  if (match === null) return text;
  const [, sign = '', int = '', frac = '', exp = '0'] = match;
  const digits = int + frac;
  const point = int.length + Number(exp);
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? digits + '0'.repeat(point - digits.length)
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return sign + body;
}

/**
 * `test_score` is a decimal number in string form. Numbers and strings are normalised the
 * way Python's Decimal prints them ("+.50" → "0.50", "007" → "7"), never in exponent form.
 * Never rounded: a value whose digits do not fit the column is refused (422), not cut.
 */
export function toDecimalString(value: number | string, loc: Array<string | number>): string {
  let text: string;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw invalid(loc, 'Input should be a finite number', 'finite_number');
    text = plainDecimal(value);
  } else {
    const match = /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(value);
    if (match === null) throw invalid(loc, 'Input should be a valid decimal', 'decimal_parsing');
    const [, sign = '', intPart = '', frac] = match;
    const integer = intPart.replace(/^0+(?=\d)/, '') || '0';
    const fraction = frac !== undefined && frac.length > 0 ? `.${frac}` : '';
    text = `${sign === '-' ? '-' : ''}${integer}${fraction}`;
  }
  if (text.length > TEST_SCORE_MAX_LENGTH) {
    throw invalid(loc, `Decimal input should have no more than ${TEST_SCORE_MAX_LENGTH} characters written out in full`, 'decimal_max_digits');
  }
  return text;
}

type Json = Record<string, unknown>;

/** The value a property of a reference model has when it was never set: its default, null, or an empty list. */
function unsetValue(schema: TSchema): (() => unknown) | undefined {
  const s = schema as { default?: unknown; anyOf?: Array<{ type?: unknown }>; type?: unknown };
  if ('default' in s) return () => structuredClone(s.default);
  if (s.anyOf?.some((branch) => branch.type === 'null') === true) return () => null;
  if (s.type === 'array') return () => [];
  return undefined; // a required field: it is always stored
}

/**
 * A stored nested object answered with every key of its reference model, as the reference
 * service (pydantic) answers it: what was never set is null, or the model's default (false,
 * an empty list). Keys outside the model (a free-form capabilities object) stay as stored.
 */
function completer(model: TSchema): (value: unknown) => unknown {
  const properties = (model as { properties: Record<string, TSchema> }).properties;
  const fields = Object.entries(properties).map(([key, schema]) => [key, unsetValue(schema)] as const);
  const known = new Set(fields.map(([key]) => key));
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const stored = value as Json;
    const out: Json = {};
    for (const [key, unset] of fields) {
      const v = stored[key];
      if (v !== undefined) out[key] = v;
      else if (unset !== undefined) out[key] = unset();
    }
    for (const key of Object.keys(stored)) {
      // defineProperty: a stored key named `__proto__` stays a plain property.
      if (!known.has(key)) Object.defineProperty(out, key, { value: stored[key], enumerable: true, writable: true, configurable: true });
    }
    return out;
  };
}

const completeParams = completer(AgentParams);
const completeMcp = completer(MCPConfig);
const completeDelegated = completer(DelegatedAgent);
const completeWhiteBox = completer(WhiteBoxConfig);
const completeMetadata = completer(AgentMetadata);
const completeImport = completer(ImportMetadata);
const completeCapabilities = completer(AgentCapabilities);
const completeSkill = completer(AgentSkill);

const completeList = (list: unknown, complete: (value: unknown) => unknown) => (Array.isArray(list) ? list.map(complete) : []);

/** `evidence` of an agent (docs/evaluations.md, "The agent's evidence"). */
export function toEvidence(evidence: readonly PillarEvidence[]): NonNullable<AgentOut['evidence']> {
  const overall = overallOfEvidence(evidence);
  const byPillar = new Map(evidence.map((e) => [e.pillar, e]));
  const pillar = (p: Pillar) => {
    const e = byPillar.get(p);
    if (e === undefined) return null;
    return { ...e.score, harnesses: e.harnesses, evaluation_id: e.evaluationId, measured_at: e.measuredAt };
  };
  return {
    test_score: overall?.score ?? null,
    measured_at: overall?.measuredAt ?? null,
    pillars: { reliability: pillar('reliability'), security: pillar('security'), safety: pillar('safety') },
    missing_pillars: PILLARS.filter((p) => !byPillar.has(p)),
  };
}

export function toAgent(row: AgentRow, latest?: LatestEvaluationRow | null, evidence?: readonly PillarEvidence[]): AgentOut {
  const agent: AgentOut = {
    id: row.id,
    agent_name: row.agent_name,
    model_name: row.model_name,
    agent_url: row.agent_url,
    hub: row.hub,
    api_key: maskedApiKey(row),
    agent_system_prompt: row.agent_system_prompt,
    rate_limit_requests_per_minute: row.rate_limit_requests_per_minute,
    team_id: row.team_id,
    created_by: row.created_by,
    status: row.status as AgentOut['status'],
    created_at: row.created_at,
    updated_at: row.updated_at,
    access_level: row.access_level as AgentOut['access_level'],
    agent_params: completeParams(decodeJsonValue(row.agent_params, 'agents.agent_params')) as AgentOut['agent_params'],
    mcp_config: completeMcp(decodeJsonValue(row.mcp_config, 'agents.mcp_config')) as AgentOut['mcp_config'],
    delegated_agents: completeList(decodeJsonValue(row.delegated_agents, 'agents.delegated_agents'), completeDelegated) as AgentOut['delegated_agents'],
    white_box_config: completeWhiteBox(decodeJsonValue(row.white_box_config, 'agents.white_box_config')) as AgentOut['white_box_config'],
    agent_metadata: completeMetadata(decodeJsonValue(row.agent_metadata, 'agents.agent_metadata')) as AgentOut['agent_metadata'],
    purpose: row.purpose,
    protocol: row.protocol as AgentOut['protocol'],
    test_score: row.test_score,
    last_tested_by: row.last_tested_by,
    evaluated_harnesses: decodeStringList(row.evaluated_harnesses, 'agents.evaluated_harnesses'),
    last_evaluated_at: row.last_evaluated_at,
    protection_status: row.protection_status as AgentOut['protection_status'],
    trust_stage: row.trust_stage as AgentOut['trust_stage'],
    trusted_at: row.trusted_at,
    ttt_days: row.ttt_days,
    dome_config_id: row.dome_config_id,
    dome_manually_configured: row.dome_manually_configured === 1,
    import_metadata: completeImport(decodeJsonValue(row.import_metadata, 'agents.import_metadata')) as AgentOut['import_metadata'],
    capabilities: completeCapabilities(decodeJsonValue(row.capabilities, 'agents.capabilities')) as AgentOut['capabilities'],
    skills: completeList(decodeJsonValue(row.skills, 'agents.skills'), completeSkill) as AgentOut['skills'],
  };
  if (latest !== undefined) {
    agent.latest_evaluation =
      latest === null
        ? null
        : {
            evaluation_id: latest.id,
            overall_score: latest.overall_score,
            reliability_score: latest.reliability_score,
            security_score: latest.security_score,
            safety_score: latest.safety_score,
            completed_at: latest.completed_at,
          };
  }
  if (evidence !== undefined) agent.evidence = toEvidence(evidence);
  return agent;
}

export function toLifecycleEvent(row: LifecycleEventRow): Static<typeof LifecycleEvent> {
  return {
    id: row.id,
    agent_id: row.agent_id,
    from_stage: row.from_stage as TrustStage | null,
    to_stage: row.to_stage as TrustStage,
    changed_by: row.changed_by,
    changed_at: row.changed_at,
  };
}
