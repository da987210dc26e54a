import type { Deps } from '../../deps.js';
import { createDocumentService } from './documents.service.js';
import { createExtractionService } from './extraction.service.js';
import { createPolicyService } from './policies.service.js';
import { createRuleService } from './rules.service.js';

/** The services of the policies feature, built together and handed to its routes. */
export function buildPolicyServices(deps: Pick<Deps, 'db' | 'dialect' | 'now' | 'llm' | 'readVersion'>) {
  return {
    policies: createPolicyService(deps),
    rules: createRuleService(deps),
    documents: createDocumentService(deps),
    extraction: createExtractionService(deps),
  };
}

export type PolicyServices = ReturnType<typeof buildPolicyServices>;
