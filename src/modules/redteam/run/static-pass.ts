import { runDetection } from '../../../guard/engine.js';
import { analyseSource, type StaticFinding } from '../../../redteam/static-analysis.js';
import type { NewFinding } from '../redteam.repo.js';
import { staticPassRow, staticRow } from './findings.js';

const RULES: ReadonlyArray<StaticFinding['rule']> = ['hardcoded-secret', 'prompt-concatenation', 'unrestricted-tool'];

/** What the white-box pass reports in the results' raw_output. */
export interface WhiteBoxReport {
  files: number;
  lines: number;
  findings: number;
  not_checked: Array<{ rule: string; reason: string }>;
}

/**
 * White box: the static pass over the agent's source (src/redteam/static-analysis.ts), stored
 * as findings of the `source_code` category after the attacks (once: a resumed run that stored
 * them skips it). Hard-coded secrets are found by the catalogue's `detect-secrets`.
 */
export async function runStaticPass(
  /** Stores the findings while the run still holds its job and the campaign runs it (the job's fenced write). */
  save: (rows: NewFinding[], at: number) => Promise<boolean>,
  campaignId: string,
  source: { code: string; entryPoint: string | null },
  seqBase: number,
  stored: ReadonlySet<string>,
  now: () => number,
  log: (line: string, level?: 'info' | 'warn') => void,
): Promise<WhiteBoxReport> {
  const report = await analyseSource(source.code, source.entryPoint, (text) => runDetection('detect-secrets', text, { censor: false }, {}));
  const notChecked = new Set(report.notChecked.map((n) => n.rule));
  for (const skipped of report.notChecked) log(`White box: ${skipped.rule} not checked (${skipped.reason})`, 'warn');
  if (![...stored].some((id) => id.startsWith('static:'))) {
    const at = now();
    const rows: NewFinding[] = report.findings.map((finding, i) => staticRow(campaignId, seqBase + i, finding, i, at));
    for (const rule of RULES) {
      if (notChecked.has(rule) || report.findings.some((f) => f.rule === rule)) continue;
      rows.push(staticPassRow(campaignId, seqBase + rows.length, rule, report.files, at));
    }
    // Only while the campaign is still going (cancelled or deleted meanwhile: nothing is written).
    await save(rows, at);
  }
  log(`White box: ${report.findings.length} findings in ${report.files} file(s), ${report.lines} lines`);
  return { files: report.files, lines: report.lines, findings: report.findings.length, not_checked: report.notChecked };
}
