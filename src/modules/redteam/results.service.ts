import { stringify } from 'csv-stringify/sync';
import type { Deps } from '../../deps.js';
import { fromJsonColumn } from '../../db/json-columns.js';
import type { Principal } from '../auth/permissions.js';
import { loadCampaign } from './access.js';
import { TOOL, toFinding } from './redteam.mapping.js';
import { listFindings, type CampaignRow, type FindingRow } from './redteam.repo.js';
import type { FindingOut, RedteamResultOut } from './redteam.schemas.js';
import { campaignNumbers } from './run/outcome.js';

type ResultDeps = Pick<Deps, 'db'>;

/** Errored attacks listed in raw_output (each is counted in `summary.errors`). */
const MAX_LISTED_ERRORS = 50;

/** How to save and apply a suggested configuration (docs/redteam.md, "Closing the loop"). */
const HOW_TO_APPLY =
  'Review it, then save it with POST /v1/dome-configs {"config_body": <config_body>, "agent_id": "<agent id>"} and apply it with ' +
  'POST /v1/dome-configs/{config_id}/apply. A campaign against the agent then sends its attacks through it.';

/** The results as the reference's RedteamResult: at any status (a running campaign's so far), errored attacks counted apart. */
function buildResult(campaign: CampaignRow, rows: readonly FindingRow[]): RedteamResultOut {
  const numbers = campaignNumbers(campaign, rows);
  const stored = fromJsonColumn<Record<string, unknown>>(campaign.summary) ?? {};
  const suggestion = fromJsonColumn<Record<string, unknown>>(campaign.suggestion);
  const errors = rows.filter((r) => r.passed === null);
  return {
    job_id: campaign.id,
    tool: TOOL,
    findings: rows.filter((r) => r.passed !== null).map(toFinding),
    summary: numbers.summary,
    raw_output: {
      engine: 'warden',
      campaign_id: campaign.id,
      status: campaign.status,
      purpose: campaign.purpose,
      access_level: campaign.access_level,
      categories: fromJsonColumn<string[]>(campaign.categories),
      custom_plugins: fromJsonColumn<string[]>(campaign.custom_plugins),
      strategies: fromJsonColumn<string[]>(campaign.strategies),
      num_tests: campaign.num_tests,
      seed: campaign.seed,
      options: fromJsonColumn<Record<string, unknown>>(campaign.options),
      through_dome_config: campaign.dome_config_id,
      attack_success_rate: numbers.attack_success_rate,
      white_box: stored.white_box ?? null,
      errors: errors.slice(0, MAX_LISTED_ERRORS).map((r) => ({ attack_id: r.attack_id, category: r.category, strategy: r.strategy, error: r.error })),
      suggested_dome_config: suggestion === null ? null : { ...suggestion, how_to_apply: HOW_TO_APPLY },
    },
  };
}

export type DownloadFormat = 'json' | 'jsonl' | 'csv';

const CSV_COLUMNS = [
  'category',
  'severity',
  'passed',
  'attack_type',
  'strategy',
  'phenotype_category',
  'attack_score',
  'detector_id',
  'reason',
  'caught_by',
  'attack_prompt',
  'agent_response',
] as const;

/**
 * A spreadsheet runs a cell that starts with = + - @ (or a tab / carriage return) as a formula;
 * attack prompts may well start so. Such cells get a leading apostrophe (OWASP's advice).
 */
const spreadsheetSafe = (value: string) => (/^[=+\-@\t\r]/.test(value) ? `'${value}` : value);

function csvRow(finding: FindingOut): string[] {
  const metadata = (finding.metadata ?? {}) as Record<string, unknown>;
  const caught = Array.isArray(metadata.caught_by) ? (metadata.caught_by as Array<{ guard: string }>).map((c) => c.guard).join(' ') : '';
  const cells: Record<(typeof CSV_COLUMNS)[number], string> = {
    category: finding.category,
    severity: finding.severity,
    passed: String(finding.passed),
    attack_type: finding.attack_type ?? '',
    strategy: String(metadata.strategy ?? ''),
    phenotype_category: finding.phenotype_category ?? '',
    attack_score: finding.attack_score === null ? '' : String(finding.attack_score),
    detector_id: finding.detector_id ?? '',
    reason: String(metadata.reason ?? ''),
    caught_by: caught,
    attack_prompt: finding.attack_prompt,
    agent_response: finding.agent_response,
  };
  return CSV_COLUMNS.map((column) => spreadsheetSafe(cells[column]));
}

export function createResultService(deps: ResultDeps) {
  const { db } = deps;

  async function results(principal: Principal, id: string, teamId: string | undefined): Promise<RedteamResultOut> {
    const campaign = await loadCampaign(db, principal, id, teamId, 'redteam:read');
    return buildResult(campaign, await listFindings(db, campaign.id));
  }

  return {
    results,

    /** The results as a file: the whole result (json), one finding a line (jsonl), or a table of findings (csv). */
    async download(principal: Principal, id: string, teamId: string | undefined, format: DownloadFormat) {
      const result = await results(principal, id, teamId);
      const fileName = `results_${TOOL}_${result.job_id}.${format}`;
      if (format === 'json') return { fileName, contentType: 'application/json; charset=utf-8', body: `${JSON.stringify(result, null, 2)}\n` };
      if (format === 'jsonl') {
        const lines = result.findings.map((finding) => JSON.stringify(finding));
        return { fileName, contentType: 'application/x-ndjson; charset=utf-8', body: lines.length ? `${lines.join('\n')}\n` : '' };
      }
      // Rows end in CRLF (RFC 4180); a cell holding a bare LF or CR is quoted too, or spreadsheets and most CSV readers split the row there.
      const csv = stringify([[...CSV_COLUMNS], ...result.findings.map(csvRow)], { record_delimiter: '\r\n', quoted_match: /[\r\n]/ });
      return { fileName, contentType: 'text/csv; charset=utf-8', body: csv };
    },
  };
}

export type ResultService = ReturnType<typeof createResultService>;
