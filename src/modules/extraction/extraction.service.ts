import type { Deps } from '../../deps.js';
import { AppError, notFound } from '../../http/errors.js';
import type { Principal } from '../auth/permissions.js';
import { requireAnywhere } from '../auth/permissions.js';
import { chatJson } from '../../llm/client.js';
import { loadPolicy } from '../policies/policies.access.js';
import { findPolicy } from '../policies/policies.repo.js';
import type { PolicyCategory } from '../policies/policies.schemas.js';
import { buildRuleRow } from '../rules/rules.build.js';
import { toRule } from '../rules/rules.mapping.js';
import { insertRules, type RuleRow } from '../rules/rules.repo.js';
import { EXTRACTION_MAX_CHARS, extractionMessages, normaliseProposals } from './proposals.js';

type ExtractionDeps = Pick<Deps, 'db' | 'now' | 'llm'>;

export function createExtractionService(deps: ExtractionDeps) {
  const { db, now, llm } = deps;

  return {
    /**
     * Asks the configured model for the rules the policy's text states and stores them as
     * drafts. The model is called before the transaction opens: no network call holds a
     * database transaction.
     */
    async extract(principal: Principal, policyId: string) {
      requireAnywhere(principal, 'policy:write');
      const policy = await loadPolicy(db, principal, policyId, 'policy:write');
      if (llm === undefined) {
        throw new AppError(
          'unavailable',
          'Rule extraction needs a language model, and none is configured: set WARDEN_LLM_BASE_URL, WARDEN_LLM_MODEL and WARDEN_LLM_API_KEY (an OpenAI-compatible endpoint)',
        );
      }
      const text = policy.source_text ?? '';
      if (text.trim().length === 0) {
        throw new AppError('bad_request', 'This policy has no text to extract rules from: upload a document or set source_text');
      }
      if (text.length > EXTRACTION_MAX_CHARS) {
        throw new AppError(
          'bad_request',
          `This policy's text is ${text.length} characters long; extraction reads at most ${EXTRACTION_MAX_CHARS}: split it into several policies`,
        );
      }
      const answer = await chatJson(llm, extractionMessages(policy, text));
      const { rules, skipped } = normaliseProposals(answer, text, policy.category as PolicyCategory);
      const at = now();
      const rows = rules.map((r) =>
        buildRuleRow({
          policyId,
          teamId: policy.team_id,
          body: r.body,
          provenance: { extracted_by: 'llm', model_used: llm.model, confidence_score: r.confidence, source_location: r.location },
          reviewerId: principal.userId,
          at,
        }),
      );
      await db.transaction().execute(async (trx) => {
        // The policy may have been deleted while the model was thinking.
        if ((await findPolicy(trx, policyId)) === undefined) throw notFound('Policy');
        await insertRules(trx, rows);
      });
      return { results: rows.map((row) => toRule(row as RuleRow)), total: rows.length, skipped };
    },
  };
}

export type ExtractionService = ReturnType<typeof createExtractionService>;
