import type { Deps } from '../../deps.js';
import type { Principal } from '../auth/permissions.js';
import { authorize, requireAnywhere, resolveTeam } from '../auth/permissions.js';
import type { TrustStage } from '../agents/agents.schemas.js';
import { findEvidenceOf } from '../evaluations/evaluations.repo.js';
import { overallOfEvidence, type PillarEvidence } from '../../evaluation/evidence.js';
import { average, countByStage, recoveryAverageDays, timeInStageHours, tttTrendPct, type StageEvent } from './dashboard.metrics.js';
import * as repo from './dashboard.repo.js';
import type { AgentTrustCardOut, DashboardOut } from './dashboard.schemas.js';

type DashboardDeps = Pick<Deps, 'db' | 'now'>;

/**
 * The agent's scores from its evidence (docs/evaluations.md, "The agent's evidence"): each
 * pillar's latest measurement, whichever run made it, and `overall` their mean (the agent's
 * `test_score`, unrounded). A narrower later run leaves the pillars it did not measure as they
 * were. Pillars never measured are left out; an agent without evidence has no scores.
 */
function scoresOf(evidence: readonly PillarEvidence[]) {
  const trust_scores: Record<string, number> = {};
  const trust_breakdown: Record<string, { overall: number; detectors: Record<string, unknown> }> = {};
  const overall = overallOfEvidence(evidence);
  if (overall !== null) trust_scores.overall = overall.score;
  for (const e of evidence) {
    trust_scores[e.pillar] = e.score.score;
    trust_breakdown[e.pillar] = { overall: e.score.score, detectors: {} };
  }
  return { trust_scores, trust_breakdown };
}

const displayName = (user: { given_name: string | null; family_name: string | null; email: string } | undefined): string | null => {
  if (user === undefined) return null;
  const name = [user.given_name, user.family_name].filter((p) => p !== null && p !== '').join(' ');
  return name !== '' ? name : user.email;
};

export function createDashboardService(deps: DashboardDeps) {
  const { db, now } = deps;

  return {
    async trust(principal: Principal, teamIdParam: string | undefined): Promise<DashboardOut> {
      requireAnywhere(principal, 'agent:read');
      const teamId = resolveTeam(principal, teamIdParam);
      authorize(principal, 'agent:read', teamId, 'Team');
      const at = now();
      const [agents, events, evaluating] = await Promise.all([
        repo.boardAgents(db, teamId),
        repo.teamLifecycleEvents(db, teamId),
        repo.evaluatingAgentIds(db, teamId),
      ]);
      const [evidence, owners] = await Promise.all([
        findEvidenceOf(db, agents.map((a) => a.id)),
        repo.userNames(db, agents.map((a) => a.created_by)),
      ]);
      const onBoard = new Set(agents.map((a) => a.id));
      const eventsByAgent = new Map<string, StageEvent[]>();
      for (const e of events) {
        if (!onBoard.has(e.agent_id)) continue;
        const list = eventsByAgent.get(e.agent_id) ?? [];
        list.push(e);
        eventsByAgent.set(e.agent_id, list);
      }

      const cards: AgentTrustCardOut[] = agents.map((a) => ({
        id: a.id,
        name: a.agent_name,
        stage: a.trust_stage as TrustStage,
        ...scoresOf(evidence.get(a.id) ?? []),
        redteam_findings_by_category: {},
        under_attack: false,
        pending_prs: 0,
        evaluating: evaluating.has(a.id),
        darwin_cycles: 0,
        time_in_stage_hours: timeInStageHours(a, eventsByAgent.get(a.id) ?? [], at),
        ttt_days: a.ttt_days,
        dome_protected: a.protection_status === 'domed',
        owner_name: displayName(owners.get(a.created_by)),
      }));

      return {
        time_to_trust: {
          average_days: average(agents.flatMap((a) => (a.ttt_days === null ? [] : [a.ttt_days]))),
          trend_pct: tttTrendPct(agents, at),
          recovery_avg_days: recoveryAverageDays(events.filter((e) => onBoard.has(e.agent_id))),
        },
        fleet_health: { by_stage: countByStage(agents.map((a) => a.trust_stage)), under_attack: cards.filter((c) => c.under_attack).length },
        // Darwin proposals are outside Warden's scope (CONTRACT.md): nothing proposed, nothing merged.
        adaptivity: { acceptance_rate: null, proposed: 0, merged: 0, trend_pct: null },
        agents: cards,
      };
    },
  };
}

export type DashboardService = ReturnType<typeof createDashboardService>;
