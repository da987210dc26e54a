import { describe, expect, it } from 'vitest';
import { average, countByStage, recoveryAverageDays, SECONDS_PER_DAY, timeInStageHours, tttTrendPct } from './dashboard.metrics.js';

const DAY = SECONDS_PER_DAY;
const ev = (agent_id: string, from_stage: string | null, to_stage: string, changed_at: number) => ({ agent_id, from_stage, to_stage, changed_at });

describe('dashboard metrics', () => {
  it('averages, or null for nothing', () => {
    expect(average([])).toBeNull();
    expect(average([1, 2, 6])).toBe(3);
  });

  it('counts every stage, zeros included', () => {
    expect(countByStage(['tested', 'tested', 'hardened'])).toEqual({ registered: 0, tested: 2, hardened: 1, trusted: 0, optimized: 0, adapted: 0 });
  });

  it('measures time in stage from the last move into the current stage, else from registration', () => {
    const agent = { trust_stage: 'tested', created_at: 1000 };
    expect(timeInStageHours(agent, [], 1000 + 5 * 3600 + 59)).toBe(5);
    const events = [
      ev('a', null, 'registered', 1000),
      ev('a', 'registered', 'tested', 2000),
      ev('a', 'tested', 'hardened', 3000),
      ev('a', 'hardened', 'tested', 4000),
    ];
    expect(timeInStageHours(agent, events, 4000 + 2 * 3600)).toBe(2);
  });

  it('ignores events that leave the stage as it was', () => {
    const agent = { trust_stage: 'hardened', created_at: 0 };
    const events = [
      ev('a', null, 'registered', 0),
      ev('a', 'registered', 'hardened', 10 * 3600),
      ev('a', 'hardened', 'hardened', 30 * 3600),
      ev('a', 'hardened', 'hardened', 40 * 3600),
    ];
    expect(timeInStageHours(agent, events, 50 * 3600)).toBe(40);
    // Same-stage events before a real move out and back do not count either.
    const back = [...events, ev('a', 'hardened', 'tested', 60 * 3600), ev('a', 'tested', 'hardened', 70 * 3600), ev('a', 'hardened', 'hardened', 80 * 3600)];
    expect(timeInStageHours(agent, back, 90 * 3600)).toBe(20);
    // Only same-stage events into the registered stage: counted from registration.
    expect(timeInStageHours({ trust_stage: 'registered', created_at: 0 }, [ev('a', 'registered', 'registered', 5 * 3600)], 7 * 3600)).toBe(7);
  });

  it('computes the trend of time to trust between the last 30 days and the 30 before', () => {
    const now = 100 * DAY;
    const agents = [
      { ttt_days: 4, trusted_at: now - 1 * DAY },
      { ttt_days: 2, trusted_at: now - 10 * DAY },
      { ttt_days: 6, trusted_at: now - 40 * DAY },
      { ttt_days: 100, trusted_at: now - 90 * DAY }, // older than both windows
      { ttt_days: null, trusted_at: null },
    ];
    expect(tttTrendPct(agents, now)).toBe(-50);
    expect(tttTrendPct(agents.slice(0, 2), now)).toBeNull();
  });

  it('averages the days taken to get back to hardened after falling below it', () => {
    const events = [
      ev('a', 'tested', 'hardened', 0),
      ev('a', 'hardened', 'tested', 1 * DAY),
      ev('a', 'tested', 'registered', 2 * DAY),
      ev('a', 'registered', 'trusted', 4 * DAY), // 3 days after the fall
      ev('b', 'trusted', 'registered', 10 * DAY), // never recovers
      ev('c', 'optimized', 'tested', 0),
      ev('c', 'tested', 'hardened', 1 * DAY), // 1 day
    ];
    expect(recoveryAverageDays(events)).toBe(2);
    expect(recoveryAverageDays(events.slice(4, 5))).toBeNull();
  });
});
