import { TRUST_STAGES, type TrustStage } from '../agents/agents.schemas.js';

/**
 * The trust dashboard's figures, computed from rows. Pure, so they are unit tested beside
 * this file; the service only loads rows and calls these.
 */

export const SECONDS_PER_HOUR = 3_600;
export const SECONDS_PER_DAY = 86_400;
/** The time-to-trust trend compares the agents trusted in the last 30 days with the 30 days before. */
export const TREND_WINDOW_SECONDS = 30 * SECONDS_PER_DAY;

export interface StageEvent {
  agent_id: string;
  from_stage: string | null;
  to_stage: string;
  changed_at: number;
}

const stageRank = (stage: string | null) => (stage === null ? -1 : TRUST_STAGES.indexOf(stage as TrustStage));
const HARDENED = stageRank('hardened');
const isTrusted = (stage: string | null) => stage !== null && stageRank(stage) >= HARDENED;

export const average = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length;

export function countByStage(stages: readonly string[]): Record<TrustStage, number> {
  const counts = Object.fromEntries(TRUST_STAGES.map((s) => [s, 0])) as Record<TrustStage, number>;
  for (const stage of stages) if (stage in counts) counts[stage as TrustStage] += 1;
  return counts;
}

/**
 * Whole hours since the agent entered its current stage: the last recorded move into that
 * stage from another one (the history of agent_lifecycle_events), else its registration.
 * An event that leaves the stage as it was (a second PUT of `hardened`, which renews
 * `trusted_at`) is not a move and does not reset the time.
 */
export function timeInStageHours(agent: { trust_stage: string; created_at: number }, events: readonly StageEvent[], now: number): number {
  let since = agent.created_at;
  for (const event of events) {
    if (event.from_stage === event.to_stage) continue;
    if (event.to_stage === agent.trust_stage && event.changed_at >= since) since = event.changed_at;
  }
  return Math.max(0, Math.floor((now - since) / SECONDS_PER_HOUR));
}

/**
 * Percentage change of the average time-to-trust of agents trusted in the last window
 * against the window before (negative: trust is reached faster). Null without both.
 */
export function tttTrendPct(agents: ReadonlyArray<{ ttt_days: number | null; trusted_at: number | null }>, now: number): number | null {
  const recent: number[] = [];
  const prior: number[] = [];
  for (const a of agents) {
    if (a.ttt_days === null || a.trusted_at === null) continue;
    const age = now - a.trusted_at;
    if (age >= 0 && age < TREND_WINDOW_SECONDS) recent.push(a.ttt_days);
    else if (age >= TREND_WINDOW_SECONDS && age < 2 * TREND_WINDOW_SECONDS) prior.push(a.ttt_days);
  }
  const r = average(recent);
  const p = average(prior);
  if (r === null || p === null || p === 0) return null;
  return ((r - p) / p) * 100;
}

/**
 * Average days an agent took to get back to `hardened` or beyond after falling below it
 * (events of each agent in order). Null when no agent has recovered from such a fall.
 */
export function recoveryAverageDays(events: readonly StageEvent[]): number | null {
  const fellAt = new Map<string, number>();
  const recoveries: number[] = [];
  for (const e of events) {
    const wasTrusted = isTrusted(e.from_stage);
    const nowTrusted = isTrusted(e.to_stage);
    if (wasTrusted && !nowTrusted) {
      if (!fellAt.has(e.agent_id)) fellAt.set(e.agent_id, e.changed_at);
    } else if (nowTrusted && fellAt.has(e.agent_id)) {
      recoveries.push((e.changed_at - (fellAt.get(e.agent_id) as number)) / SECONDS_PER_DAY);
      fellAt.delete(e.agent_id);
    }
  }
  return average(recoveries);
}
