import { Type, type Static } from 'typebox';
import { Nullable, Uuid } from '../../http/schemas.js';
import { TRUST_STAGES } from '../agents/agents.schemas.js';

export const TrustStage = Type.Unsafe<(typeof TRUST_STAGES)[number]>({ type: 'string', enum: [...TRUST_STAGES], title: 'TrustStage' });

export const PillarBreakdown = Type.Object(
  { overall: Type.Number(), detectors: Type.Object({}, { additionalProperties: true }) },
  { title: 'PillarBreakdown' },
);

export const AgentTrustCard = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    stage: TrustStage,
    trust_scores: Type.Record(Type.String(), Type.Number()),
    trust_breakdown: Type.Record(Type.String(), PillarBreakdown),
    redteam_findings_by_category: Type.Record(Type.String(), Type.Integer()),
    under_attack: Type.Boolean(),
    pending_prs: Type.Integer(),
    evaluating: Type.Boolean(),
    darwin_cycles: Type.Integer(),
    time_in_stage_hours: Type.Integer(),
    ttt_days: Nullable(Type.Number()),
    dome_protected: Type.Boolean(),
    owner_name: Nullable(Type.String()),
  },
  { title: 'AgentTrustCard' },
);
export type AgentTrustCardOut = Static<typeof AgentTrustCard>;

export const TimeToTrustMetrics = Type.Object(
  { average_days: Nullable(Type.Number()), trend_pct: Nullable(Type.Number()), recovery_avg_days: Nullable(Type.Number()) },
  { title: 'TimeToTrustMetrics' },
);

export const FleetHealthMetrics = Type.Object(
  { by_stage: Type.Record(Type.String(), Type.Integer()), under_attack: Type.Integer() },
  { title: 'FleetHealthMetrics' },
);

export const AdaptivityMetrics = Type.Object(
  { acceptance_rate: Nullable(Type.Number()), proposed: Type.Integer(), merged: Type.Integer(), trend_pct: Nullable(Type.Number()) },
  { title: 'AdaptivityMetrics' },
);

export const DashboardResponse = Type.Object(
  { time_to_trust: TimeToTrustMetrics, fleet_health: FleetHealthMetrics, adaptivity: AdaptivityMetrics, agents: Type.Array(AgentTrustCard) },
  { title: 'DashboardResponse' },
);
export type DashboardOut = Static<typeof DashboardResponse>;

export const DashboardQuery = Type.Object({ team_id: Type.Optional(Uuid({ description: 'Act on this team (default: your primary team)' })) });
