/**
 * The content of a red-team campaign's HTML and PDF reports (docs/redteam.md, "Reports"), and
 * what both say of it: the verdict, the top risks (categories attacks got through), the success
 * rate per category with its interval, and what to do next (the suggested Dome configuration).
 */
import { attackMapping, coverage, type CoverageRow, type FrameworkMapping } from './frameworks.js';
import { nextSteps, rankRisks, riskSeverity, type Risk, type RiskSeverity } from './risks.js';
import { formatCount, formatPercent } from './text.js';

export interface CampaignRate {
  n: number;
  successful: number;
  /** 0..1; null when nothing was judged. */
  rate: number | null;
  low: number | null;
  high: number | null;
}

export interface CampaignReportModel {
  campaignId: string;
  agent: { id: string | null; name: string; modelName: string | null; url: string | null };
  teamName: string | null;
  status: string;
  createdAt: number;
  completedAt: number | null;
  purpose: string | null;
  accessLevel: string;
  seed: number | null;
  categories: string[];
  strategies: string[];
  /** The Dome configuration the attacks went through (null: straight to the agent). */
  throughDomeConfig: string | null;
  /** A note the first page shows (a campaign that did not complete says what it covers). */
  note: string | null;
  totals: { attacks: number; judged: number; successful: number; errors: number };
  overall: CampaignRate;
  byCategory: Array<{ category: string; rate: CampaignRate; severity: RiskSeverity }>;
  byStrategy: Array<{ strategy: string; rate: CampaignRate }>;
  /** The successful attacks, in plan order, at most a bounded number (`successfulShown` of `totals.successful`). */
  successes: Array<{
    attackId: string;
    category: string;
    probe: string | null;
    strategy: string;
    severity: string;
    prompt: string;
    response: string;
    reason: string;
    detector: string | null;
  }>;
  suggestion: {
    guards: Array<{ guard: string; direction: string; methods: string[]; wouldStop: number }>;
    wouldStop: number;
    successfulAttacks: number;
    /** The configuration as pretty JSON. */
    configBody: string;
    howToApply: string;
  } | null;
  provenance: { wardenVersion: string; catalogueVersion: string };
}

export type CampaignVerdict = 'pass' | 'fail' | 'not-measured';

export const CAMPAIGN_VERDICT_LABEL: Record<CampaignVerdict, string> = { pass: 'RESISTED', fail: 'VULNERABLE', 'not-measured': 'NOT MEASURED' };

export function campaignVerdict(model: CampaignReportModel): CampaignVerdict {
  if (model.overall.n === 0) return 'not-measured';
  return model.overall.successful > 0 ? 'fail' : 'pass';
}

export const rateText = (rate: CampaignRate) =>
  rate.rate === null
    ? 'not measured'
    : `${formatPercent(rate.rate)} (${formatCount(rate.successful)} of ${formatCount(rate.n)}; ` +
      `95\u00a0% interval ${formatPercent(rate.low ?? 0)}–${formatPercent(rate.high ?? 1)})`;

export function campaignVerdictSentence(model: CampaignReportModel): string {
  const verdict = campaignVerdict(model);
  if (verdict === 'not-measured') return 'No attack could be judged (the agent answered none), so there is no verdict.';
  if (verdict === 'pass') return `The agent resisted all ${formatCount(model.overall.n)} attacks judged.`;
  const { successful, n } = model.overall;
  return `${formatCount(successful)} of ${formatCount(n)} attacks judged succeeded: attack success rate ${rateText(model.overall)}.`;
}

/** The campaign's top risks: the categories attacks got through, by severity and success rate. */
export function campaignRisks(model: CampaignReportModel): Risk[] {
  const candidates = model.byCategory
    .filter((c) => c.rate.successful > 0 && c.rate.rate !== null)
    .map((c) => {
      const example = model.successes.find((s) => s.category === c.category);
      const mapping = mergeAttackMappings(model.successes.filter((s) => s.category === c.category), c.category);
      const share = c.rate.rate ?? 0;
      return {
        share,
        severity: riskSeverity(c.severity, share),
        title: categoryName(c.category),
        detail: `${formatCount(c.rate.successful)} of ${formatCount(c.rate.n)} attacks succeeded (${formatPercent(share)})`,
        mapping,
        example: example === undefined ? null : { id: example.attackId, prompt: example.prompt, response: example.response },
      };
    });
  return rankRisks(candidates);
}

function mergeAttackMappings(successes: CampaignReportModel['successes'], category: string): FrameworkMapping {
  const mappings = [attackMapping(category, null), ...successes.map((s) => attackMapping(s.category, s.probe, s.strategy))];
  return { owasp: [...new Set(mappings.flatMap((m) => m.owasp))], atlas: [...new Set(mappings.flatMap((m) => m.atlas))] };
}

/** Categories whose name is an abbreviation a reader knows in capitals. */
const CATEGORY_NAMES: Record<string, string> = { pii: 'Personal data (PII)' };

export const categoryName = (category: string) => CATEGORY_NAMES[category] ?? category.charAt(0).toUpperCase() + category.slice(1).replace(/_/g, ' ');

/** What to do next: apply the suggested configuration (and what it would stop), then the OWASP advice. */
export function campaignNextSteps(model: CampaignReportModel, risks: readonly Risk[]): string[] {
  const first: string[] = [];
  const s = model.suggestion;
  if (s !== null) {
    const guards = s.guards.map((g) => `${g.guard} (${g.direction}: ${g.methods.join(', ')}; stops ${formatCount(g.wouldStop)})`).join('; ');
    first.push(
      `Apply the suggested Dome configuration (below): it adds ${guards}, and would have stopped ${formatCount(s.wouldStop)} of the ` +
        `${formatCount(s.successfulAttacks)} successful attacks. ${s.howToApply}`,
    );
  } else if (model.totals.successful > 0) {
    first.push('No guard Warden can suggest would have stopped the successful attacks: the fixes below are in the agent itself.');
  }
  const extra =
    model.totals.successful > 0
      ? ['Then run the campaign again through the new configuration (dome_config_id) and compare the success rates.']
      : ['No attack succeeded: run the campaign again after each change to the agent, its prompt or its tools.'];
  return [...first, ...nextSteps(risks), ...extra];
}

/** Coverage: each category tested (with successes mapped per probe), failing when an attack of it succeeded. */
export function campaignCoverage(model: CampaignReportModel): { owasp: CoverageRow[]; atlas: CoverageRow[] } {
  return coverage(
    model.byCategory.map((c) => ({
      mapping: mergeAttackMappings(model.successes.filter((s) => s.category === c.category), c.category),
      failing: c.rate.successful > 0,
    })),
  );
}
