import { Readable } from 'node:stream';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import type { Deps } from '../../deps.js';
import type { DB } from '../../db/schema.js';
import type { Principal } from '../auth/permissions.js';
import { readBoundedPage } from '../bounded-page.js';
import { loadCampaign } from './access.js';
import { TOOL, toFinding } from './redteam.mapping.js';
import { conflict } from '../../http/errors.js';
import { ACTIVE_STATUSES, campaignResultColumns, findingOutcomes, listErroredAttacks, listFindings, type CampaignRow } from './redteam.repo.js';
import { buildCampaignReportModel } from './report-model.js';
import type { FindingOut, RedteamResultOut } from './redteam.schemas.js';
import { campaignNumbers } from './run/outcome.js';

type ResultDeps = Pick<Deps, 'db' | 'reportRenderer'>;

/** Errored attacks listed in raw_output (each is counted in `summary.errors`). */
const MAX_LISTED_ERRORS = 50;

/** How to save and apply a suggested configuration (docs/redteam.md, "Closing the loop"). */
const HOW_TO_APPLY =
  'Review it, then save it with POST /v1/dome-configs {"config_body": <config_body>, "agent_id": "<agent id>"} and apply it with ' +
  'POST /v1/dome-configs/{config_id}/apply. A campaign against the agent then sends its attacks through it.';

type ErroredAttack = Awaited<ReturnType<typeof listErroredAttacks>>[number];

/** The result's parts other than its findings, from the stored outcomes (no texts) and the first errored attacks. */
async function resultParts(db: Kysely<DB>, campaign: CampaignRow) {
  const [outcomes, errors] = await Promise.all([findingOutcomes(db, campaign.id), listErroredAttacks(db, campaign.id, MAX_LISTED_ERRORS)]);
  const numbers = campaignNumbers(campaign, outcomes);
  const judged = outcomes.filter((r) => r.passed !== null).length;
  return { summary: numbers.summary, rawOutput: rawOutput(campaign, numbers.attack_success_rate, errors), judged };
}

function rawOutput(campaign: CampaignRow, successRate: unknown, errors: readonly ErroredAttack[]): Record<string, unknown> {
  const { summary: stored, suggestion, ...columns } = campaignResultColumns(campaign);
  return {
    engine: 'warden',
    campaign_id: campaign.id,
    status: campaign.status,
    purpose: campaign.purpose,
    access_level: campaign.access_level,
    categories: columns.categories,
    custom_plugins: columns.customPlugins,
    strategies: columns.strategies,
    num_tests: campaign.num_tests,
    seed: campaign.seed,
    options: columns.options,
    through_dome_config: campaign.dome_config_id,
    attack_success_rate: successRate,
    white_box: stored.white_box ?? null,
    errors: errors.map((r) => ({ attack_id: r.attack_id, category: r.category, strategy: r.strategy, error: r.error })),
    suggested_dome_config: suggestion === null ? null : { ...suggestion, how_to_apply: HOW_TO_APPLY },
  };
}

/** Every judged finding, a page of rows at a time (a download streams them). */
async function* allFindings(db: Kysely<DB>, campaignId: string): AsyncGenerator<FindingOut> {
  for (let offset = 0; ; offset += DOWNLOAD_CHUNK) {
    const rows = await listFindings(db, campaignId, offset, DOWNLOAD_CHUNK);
    for (const row of rows) yield toFinding(row);
    if (rows.length < DOWNLOAD_CHUNK) return;
  }
}

/** Findings read per query while a download streams. */
const DOWNLOAD_CHUNK = 100;

/** `text` (pretty-printed JSON) with every line after the first indented by `pad`. */
const indentTail = (text: string, pad: string) => text.replaceAll('\n', `\n${pad}`);

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

/** The report's file name: the campaign's id. */
export const campaignReportFileName = (id: string, format: 'html' | 'pdf') => `warden-redteam-report-${id}.${format}`;

export function createResultService(deps: ResultDeps) {
  const { db, reportRenderer } = deps;

  return {
    /**
     * The campaign's report (docs/redteam.md, "Reports"), rendered on request from what it stored:
     * once it has ended (completed, failed or cancelled; the latter two say what they cover).
     */
    async report(principal: Principal, id: string, teamId: string | undefined, format: 'html' | 'pdf') {
      const campaign = await loadCampaign(db, principal, id, teamId, 'redteam:read');
      if (ACTIVE_STATUSES.includes(campaign.status as (typeof ACTIVE_STATUSES)[number])) {
        throw conflict(`The campaign is ${campaign.status}: its report is made once it has ended`);
      }
      const model = await buildCampaignReportModel(db, campaign, HOW_TO_APPLY);
      const body = await reportRenderer.renderCampaign(model, format);
      return { body, fileName: campaignReportFileName(campaign.id, format) };
    },

    /**
     * The findings from `offset`, as many as fit the page's size bound (docs/api.md, "Bounds"),
     * with the summary and rates of all of them; `raw_output` says where the page stops.
     */
    async results(principal: Principal, id: string, teamId: string | undefined, offset = 0): Promise<RedteamResultOut> {
      const campaign = await loadCampaign(db, principal, id, teamId, 'redteam:read');
      const parts = await resultParts(db, campaign);
      const page = await readBoundedPage({
        offset,
        limit: Math.max(0, parts.judged - offset),
        read: (from, limit) => listFindings(db, campaign.id, from, limit),
        map: toFinding,
      });
      return {
        job_id: campaign.id,
        tool: TOOL,
        findings: page.items,
        summary: parts.summary,
        raw_output: {
          ...parts.rawOutput,
          findings_total: parts.judged,
          findings_offset: offset,
          next_offset: page.end < parts.judged ? page.end : null,
          size_limited: page.sizeLimited,
        },
      };
    },

    /**
     * The results as a file: the whole result (json), one finding a line (jsonl), or a table of
     * findings (csv); streamed, findings read from the database a page at a time.
     */
    async download(principal: Principal, id: string, teamId: string | undefined, format: DownloadFormat) {
      const campaign = await loadCampaign(db, principal, id, teamId, 'redteam:read');
      const fileName = `results_${TOOL}_${campaign.id}.${format}`;
      if (format === 'json') {
        const parts = await resultParts(db, campaign);
        return { fileName, contentType: 'application/json; charset=utf-8', body: Readable.from(jsonFile(db, campaign, parts)) };
      }
      if (format === 'jsonl') return { fileName, contentType: 'application/x-ndjson; charset=utf-8', body: Readable.from(jsonlFile(db, campaign.id)) };
      return { fileName, contentType: 'text/csv; charset=utf-8', body: Readable.from(csvFile(db, campaign.id)) };
    },
  };
}

/** As JSON.stringify(result, null, 2) of the whole result would write it, a finding at a time. */
async function* jsonFile(db: Kysely<DB>, campaign: CampaignRow, parts: Awaited<ReturnType<typeof resultParts>>): AsyncGenerator<string> {
  yield `{\n  "job_id": ${JSON.stringify(campaign.id)},\n  "tool": ${JSON.stringify(TOOL)},\n  "findings": [`;
  let count = 0;
  for await (const finding of allFindings(db, campaign.id)) {
    yield `${count++ === 0 ? '' : ','}\n    ${indentTail(JSON.stringify(finding, null, 2), '    ')}`;
  }
  // The whole result as one page that was not cut: the same fields as GET …/results answers.
  const rawOutput = { ...parts.rawOutput, findings_total: parts.judged, findings_offset: 0, next_offset: null, size_limited: false };
  const summary = indentTail(JSON.stringify(parts.summary, null, 2), '  ');
  yield `${count === 0 ? ']' : '\n  ]'},\n  "summary": ${summary},\n  "raw_output": ${indentTail(JSON.stringify(rawOutput, null, 2), '  ')}\n}\n`;
}

async function* jsonlFile(db: Kysely<DB>, campaignId: string): AsyncGenerator<string> {
  for await (const finding of allFindings(db, campaignId)) yield `${JSON.stringify(finding)}\n`;
}

// Rows end in CRLF (RFC 4180); a cell holding a bare LF or CR is quoted too, or spreadsheets and most CSV readers split the row there.
const CSV_OPTIONS = { record_delimiter: '\r\n', quoted_match: /[\r\n]/ } as const;

/**
 * Every CSV Warden writes starts with the UTF-8 byte-order mark: without it, spreadsheet programs
 * (Excel) read the file in the machine's legacy code page and garble non-ASCII text; CSV readers
 * that know UTF-8 skip it (docs/redteam.md, "Downloads").
 */
export const CSV_BOM = '\uFEFF';

async function* csvFile(db: Kysely<DB>, campaignId: string): AsyncGenerator<string> {
  yield CSV_BOM + stringify([[...CSV_COLUMNS]], CSV_OPTIONS);
  for await (const finding of allFindings(db, campaignId)) yield stringify([csvRow(finding)], CSV_OPTIONS);
}

export type ResultService = ReturnType<typeof createResultService>;
