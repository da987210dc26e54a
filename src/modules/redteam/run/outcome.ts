import type { Kysely, Updateable } from 'kysely';
import type { DB, RedteamCampaignsTable } from '../../../db/schema.js';
import { compileDomeConfig } from '../../../guard/engine.js';
import { suggestConfig, type Catch, type SuggestedConfig } from '../../../redteam/guard.js';
import { successRates, summarize, type TestRecord } from '../../../redteam/summary.js';
import { campaignCategories, findingCatches, findingOutcomes, type CampaignRow } from '../redteam.repo.js';

/** The category of white-box findings (not an attack category: left out of the success rates). */
export const SOURCE_CODE = 'source_code';

type OutcomeRow = Awaited<ReturnType<typeof findingOutcomes>>[number];

const recordOf = (row: OutcomeRow): TestRecord => ({
  category: row.category,
  strategy: row.strategy,
  severity: row.severity,
  passed: row.passed === null ? null : row.passed === 1,
});

/** The campaign's numbers from its stored attacks: the reference's summary and Warden's success rates. */
export function campaignNumbers(campaign: CampaignRow, rows: readonly OutcomeRow[]) {
  const records = rows.map(recordOf);
  const categories: string[] = campaignCategories(campaign);
  const tested = rows.some((r) => r.category === SOURCE_CODE) ? [...categories, SOURCE_CODE] : categories;
  return {
    summary: summarize(records, tested),
    attack_success_rate: successRates(records.filter((r) => r.category !== SOURCE_CODE)),
    white_box_findings: records.filter((r) => r.category === SOURCE_CODE && r.passed === false).length,
  };
}

/** The successful attacks' catches, in plan order (what the suggestion is made of). */
function catchesOf(rows: readonly OutcomeRow[]): Catch[][] {
  return rows
    .filter((r) => r.passed === 0 && r.category !== SOURCE_CODE)
    .map((r) => findingCatches(r.metadata));
}

/**
 * Ends the campaign `completed` with its numbers and the suggested Dome configuration (validated
 * by the guard engine: one that does not compile is left out, with a line in the log).
 * False when the campaign had ended meanwhile (cancelled, deleted) or the run lost its job:
 * `update` is the run's fenced write.
 */
export async function completeCampaign(
  db: Kysely<DB>,
  campaign: CampaignRow,
  input: {
    at: number;
    applied: Record<string, unknown> | null;
    llmAvailable: boolean;
    extra: Record<string, unknown>;
    log: (line: string) => void;
    update: (patch: Updateable<RedteamCampaignsTable>) => Promise<boolean>;
  },
): Promise<boolean> {
  const rows = await findingOutcomes(db, campaign.id);
  const numbers = campaignNumbers(campaign, rows);
  let suggestion: SuggestedConfig | null = suggestConfig(catchesOf(rows), input.applied);
  if (suggestion !== null) {
    try {
      compileDomeConfig(suggestion.config_body, { llmAvailable: input.llmAvailable });
    } catch (error) {
      input.log(`The suggested Dome configuration does not compile and is left out: ${error instanceof Error ? error.message : String(error)}`);
      suggestion = null;
    }
  }
  const { summary } = numbers;
  const percent = (value: number | null) => (value === null ? '–' : `${Math.round(value * 100)} %`);
  for (const [category, rate] of Object.entries(numbers.attack_success_rate.by_category)) {
    const interval = `${percent(rate.low)}–${percent(rate.high)}`;
    input.log(`${category}: ${rate.successful} of ${rate.n} attacks succeeded (${percent(rate.rate)}, 95 % interval ${interval})`);
  }
  if (suggestion !== null) {
    const names = suggestion.added_guards.map((g) => g.guard).join(', ');
    const stops = `it would have stopped ${suggestion.would_stop} of ${suggestion.successful_attacks} successful attacks`;
    input.log(`Suggested Dome configuration (results' raw_output.suggested_dome_config): adds ${names}; ${stops}`);
  }
  const errors = summary.errors ? `, ${summary.errors} errors` : '';
  const message = `Completed: ${summary.failed} of ${summary.total_tests - summary.errors} attacks succeeded${errors}`;
  return input.update({
    status: 'completed',
    status_message: message,
    completed_at: input.at,
    updated_at: input.at,
    summary: JSON.stringify({ ...numbers, ...input.extra }),
    suggestion: suggestion === null ? null : JSON.stringify(suggestion),
  });
}
