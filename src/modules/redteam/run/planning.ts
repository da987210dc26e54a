import { canaryFor, planCases } from '../../../redteam/plan.js';
import { generateCases } from '../../../redteam/llm.js';
import { llmProbeId } from '../../../redteam/probes/index.js';
import { purposeProfile } from '../../../redteam/purpose.js';
import type { AccessLevel, AgentKnowledge, AttackCase, AttackCategory, ProbeCategory, RedteamLlm } from '../../../redteam/types.js';
import type { CampaignRow } from '../redteam.repo.js';

/** Attacks the language model adds per category: half the templates' number, at most this many. */
const MAX_LLM_CASES = 10;

/**
 * The campaign's cases: the catalogue's (./plan.ts) and, with a language model, up to half as
 * many again written by it for the purpose. A model that fails adds nothing (a line in the log).
 */
export async function planCampaign(
  campaign: CampaignRow,
  knowledge: AgentKnowledge,
  llm: RedteamLlm | undefined,
  signal: AbortSignal,
  log: (line: string, level?: 'info' | 'warn') => void,
): Promise<AttackCase[]> {
  const categories = JSON.parse(campaign.categories) as AttackCategory[];
  const input = {
    purpose: campaign.purpose,
    categories,
    customPlugins: (JSON.parse(campaign.custom_plugins ?? '[]') as string[]) ?? [],
    numTests: campaign.num_tests,
    accessLevel: campaign.access_level as AccessLevel,
    knowledge,
    seed: campaign.seed,
  };
  const cases = planCases(input);
  if (llm === undefined) return cases;
  const profile = purposeProfile(campaign.purpose);
  const count = Math.min(MAX_LLM_CASES, Math.ceil(campaign.num_tests / 2));
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
