import type { Deps } from '../../deps.js';
import type { DetectorContext, PolicyRuleText } from '../../guard/types.js';
import { configuredModel } from '../../llm/client.js';
import { createVersionedMemo } from '../../db/versioned-memo.js';
import { approvedRules } from '../rules/rules.repo.js';

/** `policy-sections` checks a text against at most this many approved rules of the team. */
const MAX_POLICY_RULES = 200;

/**
 * What a scan gives the detectors beyond the text: the configured language model (only when
 * WARDEN_LLM_* is set) and, for configurations that use `policy-sections`, the team's approved
 * policy rules, as of the scan, so that a rule approved a moment ago counts: kept per team
 * until a commit writes `policy_rules` (docs/caching.md; SQLite only), read at every scan
 * where there is no version (PostgreSQL).
 */
export function createGuardContexts(deps: Pick<Deps, 'db' | 'llm'> & Partial<Pick<Deps, 'readVersion'>>) {
  const llm = configuredModel(deps.llm);
  const readVersion = deps.readVersion;
  const rulesOf = createVersionedMemo<readonly PolicyRuleText[]>(readVersion && (() => readVersion(POLICY_RULE_READS)), 1_000);
  const read = async (teamId: string): Promise<readonly PolicyRuleText[]> =>
    (await approvedRules(deps.db, teamId, MAX_POLICY_RULES)).map((r) => ({ id: r.id, policyId: r.policy_id, text: r.natural_language, kind: r.rule_type }));
  return {
    async forScan(teamId: string, usesPolicyRules: boolean): Promise<DetectorContext> {
      if (!usesPolicyRules) return { llm };
      const policyRules = rulesOf === undefined ? await read(teamId) : await rulesOf.get(teamId, () => read(teamId));
      return { llm, policyRules };
    },
  };
}

/** The tables approvedRules reads. */
const POLICY_RULE_READS = ['policy_rules'] as const;
