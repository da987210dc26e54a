import type { Deps } from '../../deps.js';
import type { DetectorContext, PolicyRuleText } from '../../guard/types.js';
import { configuredModel } from '../../llm/client.js';
import { approvedRules } from '../rules/rules.repo.js';

/** `policy-sections` checks a text against at most this many approved rules of the team. */
const MAX_POLICY_RULES = 200;

/**
 * What a scan gives the detectors beyond the text: the configured language model (only when
 * WARDEN_LLM_* is set) and, for configurations that use `policy-sections`, the team's approved
 * policy rules, read at scan time so that a rule approved a moment ago counts.
 */
export function createGuardContexts(deps: Pick<Deps, 'db' | 'llm'>) {
  const llm = configuredModel(deps.llm);
  return {
    async forScan(teamId: string, usesPolicyRules: boolean): Promise<DetectorContext> {
      if (!usesPolicyRules) return { llm };
      const rows = await approvedRules(deps.db, teamId, MAX_POLICY_RULES);
      const policyRules: PolicyRuleText[] = rows.map((r) => ({ id: r.id, policyId: r.policy_id, text: r.natural_language, kind: r.rule_type }));
      return { llm, policyRules };
    },
  };
}
