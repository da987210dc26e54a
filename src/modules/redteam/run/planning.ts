import { canaryFor, planCases } from '../../../redteam/plan.js';
import { generateCases } from '../../../redteam/llm.js';
import { llmProbeId } from '../../../redteam/probes/index.js';
import { purposeProfile } from '../../../redteam/purpose.js';
import { MAX_STATIC_FINDINGS } from '../../../redteam/static-analysis.js';
import type { LanguageModel } from '../../../llm/types.js';
import type { AccessLevel, AgentKnowledge, AttackCase, AttackCategory, ProbeCategory } from '../../../redteam/types.js';
import type { CampaignPlanColumns, CampaignRow } from '../redteam.repo.js';

/** Attacks the language model adds per category: half the templates' number, at most this many. */
const MAX_LLM_CASES = 10;
const llmCaseCount = (numTests: number) => Math.min(MAX_LLM_CASES, Math.ceil(numTests / 2));

/**
 * A campaign plans at most this many attacks, the white-box pass's findings included: its
 * findings are answered and downloaded whole (the reference's result has no paging), so one
 * request must stay a bounded amount of memory.
 */
export const MAX_CAMPAIGN_ATTACKS = 2_000;

export interface PlanSize {
  numTests: number;
  categories: readonly AttackCategory[];
  strategies: number;
  accessLevel: string;
  /** Whether a language model is configured (it writes more cases per category). */
  llm: boolean;
}

/**
 * The most attacks (and white-box findings) a campaign of these settings can plan, and how that
 * number is made, for a person: what planCampaign, planAttacks and the white-box pass can add at most.
 */
export function mostPlanned(size: PlanSize): { total: number; explained: string } {
  const categories = [...new Set(size.categories)];
  const probeCategories = categories.filter((c) => c !== 'custom').length;
  const grey = size.accessLevel === 'grey_box' || size.accessLevel === 'white_box';
  const terms = [`${size.numTests} cases × ${categories.length} categories`];
  let cases = size.numTests * categories.length;
  if (grey && probeCategories > 0) {
    terms.push(`${size.numTests} grey-box cases × ${probeCategories} categories`);
    cases += size.numTests * probeCategories;
  }
  if (size.llm && probeCategories > 0) {
    const written = llmCaseCount(size.numTests);
    terms.push(`${written} cases written by the language model × ${probeCategories} categories`);
    cases += written * probeCategories;
  }
  const white = size.accessLevel === 'white_box' ? MAX_STATIC_FINDINGS : 0;
  const total = cases * size.strategies + white;
  const product = terms.length === 1 ? `${terms[0]} × ${size.strategies} strategies` : `(${terms.join(' + ')}) × ${size.strategies} strategies`;
  return { total, explained: `${product}${white ? ` + ${white} white-box findings at most` : ''} = ${total}` };
}

/**
 * The campaign's cases: the catalogue's (./plan.ts) and, with a language model, up to half as
 * many again written by it for the purpose. A model that fails adds nothing (a line in the log).
 */
export async function planCampaign(
  campaign: CampaignRow,
  columns: Pick<CampaignPlanColumns, 'categories' | 'customPlugins'>,
  knowledge: AgentKnowledge,
  llm: LanguageModel | undefined,
  signal: AbortSignal,
  log: (line: string, level?: 'info' | 'warn') => void,
): Promise<AttackCase[]> {
  const { categories, customPlugins } = columns;
  const input = {
    purpose: campaign.purpose,
    categories,
    customPlugins,
    numTests: campaign.num_tests,
    accessLevel: campaign.access_level as AccessLevel,
    knowledge,
    seed: campaign.seed,
  };
  const cases = planCases(input);
  if (llm === undefined) return cases;
  const profile = purposeProfile(campaign.purpose);
  const count = llmCaseCount(campaign.num_tests);
  for (const category of categories.filter((c): c is ProbeCategory => c !== 'custom')) {
    try {
      const drafts = await generateCases(llm, { profile, category, count, canary: (n) => canaryFor(campaign.seed, `${category}:llm:${n}`), signal });
      const probe = llmProbeId(category);
      cases.push(...drafts.map((draft, n): AttackCase => ({ id: `${category}:${probe}:${n}`, category, probe, source: 'llm', ...draft })));
      log(`The language model wrote ${drafts.length} ${category} attacks`);
    } catch (error) {
      if (signal.aborted) throw error;
      log(`The language model could not write ${category} attacks (${error instanceof Error ? error.message : 'it failed'}): templates only`, 'warn');
    }
  }
  return cases;
}
