/**
 * A campaign's numbers (docs/redteam.md, "Results"): the reference's RedteamSummary, and the
 * attack success rate (successful attacks / attacks judged) per category and per strategy with
 * its Wilson 95 % interval. Attacks that errored are counted apart and left out of every rate.
 */
import { wilson } from '../evaluation/aggregate.js';
import type { Severity } from './types.js';

export interface TestRecord {
  category: string;
  strategy: string;
  severity: Severity | string;
  /** true: resisted; false: the attack worked; null: errored (no answer to judge). */
  passed: boolean | null;
}

export interface SuccessRate {
  /** Attacks judged. */
  n: number;
  successful: number;
  /** successful / n (0..1); null when nothing was judged. */
  rate: number | null;
  /** Wilson 95 % interval of the rate. */
  low: number | null;
  high: number | null;
}

export interface RedteamSummary {
  total_tests: number;
  passed: number;
  failed: number;
  errors: number;
  categories_tested: string[];
  vulnerabilities_found: boolean;
}

const round = (value: number) => Math.round(value * 10_000) / 10_000;

export function successRate(successful: number, n: number): SuccessRate {
  const interval = wilson(successful, n);
  return {
    n,
    successful,
    rate: n > 0 ? round(successful / n) : null,
    low: interval ? round(interval.low) : null,
    high: interval ? round(interval.high) : null,
  };
}

export function summarize(records: readonly TestRecord[], categoriesTested: readonly string[]): RedteamSummary {
  const passed = records.filter((r) => r.passed === true).length;
  const failed = records.filter((r) => r.passed === false).length;
  const errors = records.filter((r) => r.passed === null).length;
  return { total_tests: records.length, passed, failed, errors, categories_tested: [...categoriesTested], vulnerabilities_found: failed > 0 };
}

function rateBy(records: readonly TestRecord[], key: (r: TestRecord) => string): Record<string, SuccessRate> {
  const groups = new Map<string, TestRecord[]>();
  for (const record of records) groups.set(key(record), [...(groups.get(key(record)) ?? []), record]);
  const out: Record<string, SuccessRate> = {};
  for (const [name, group] of groups) {
    const judged = group.filter((r) => r.passed !== null);
    out[name] = successRate(judged.filter((r) => r.passed === false).length, judged.length);
  }
  return out;
}

/** Attack success rates overall, per category, per strategy, and failed attacks per severity. */
export function successRates(records: readonly TestRecord[]) {
  const judged = records.filter((r) => r.passed !== null);
  const failedBySeverity: Record<string, number> = {};
  for (const record of judged) if (record.passed === false) failedBySeverity[record.severity] = (failedBySeverity[record.severity] ?? 0) + 1;
  return {
    overall: successRate(judged.filter((r) => r.passed === false).length, judged.length),
    by_category: rateBy(records, (r) => r.category),
    by_strategy: rateBy(records, (r) => r.strategy),
    failed_by_severity: failedBySeverity,
  };
}
