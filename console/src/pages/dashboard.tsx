import { useState } from 'preact/hooks';
import { get, itemsOf } from '../api';
import { useApp } from '../context';
import { Link } from '../router';
import { STAGES } from '../stages';
import { Badge, BarChart, Card, ErrorBox, Loading, Page, Pager, Score, TableWrap, fmtDays, intervalOf, useLoad } from '../ui';

const BOARD_PAGE = 10;
const PILLARS = ['reliability', 'security', 'safety'];

interface TrustCard {
  id: string;
  name: string;
  stage: string;
  trust_scores?: Record<string, number>;
  ttt_days?: number | null;
  dome_protected?: boolean;
  under_attack?: boolean;
  evaluating?: boolean;
  time_in_stage_hours?: number | null;
}

export function Dashboard() {
  const { team } = useApp();
  const board = useLoad(() => get('/v1/dashboard/trust', { team_id: team }), [team]);
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000, include_scores: true }), [team]);
  const [offset, setOffset] = useState(0);
  if (board.loading && !board.data) return <Loading what="Loading the trust dashboard" />;
  const data = board.data ?? {};
  const cards = (data.agents ?? []) as TrustCard[];
  const days: unknown = data.time_to_trust?.average_days;
  const byStage: Record<string, number> = data.fleet_health?.by_stage ?? {};
  const agentRows = itemsOf(agents.data);
  const evidence = new Map<string, Record<string, any>>(agentRows.map((a) => [a.id as string, (a.evidence?.pillars ?? {}) as Record<string, any>]));
  const protection: Record<string, number> = {};
  for (const agent of agentRows) protection[agent.protection_status ?? 'unprotected'] = (protection[agent.protection_status ?? 'unprotected'] ?? 0) + 1;
  const scored = agentRows
    .filter((a) => a.latest_evaluation?.overall_score !== null && a.latest_evaluation?.overall_score !== undefined)
    .slice(0, 12)
    .map((a) => ({ label: a.agent_name as string, value: a.latest_evaluation.overall_score as number }));
  return (
    <Page
      title="Trust dashboard"
      actions={
        <Link href="/agents/new" class="button primary">
          Register an agent
        </Link>
      }
    >
      <ErrorBox error={board.error ?? agents.error} />
      <div class="metrics">
        <Card title="Time to trust">
          <p class="metric">{typeof days === 'number' ? fmtDays(days) : '—'}</p>
          <p class="muted">average, from registration to hardened</p>
        </Card>
        <Card title="Agents">
          <p class="metric">{agents.data ? (agents.data.count ?? agentRows.length) : '—'}</p>
          <p class="muted">{data.fleet_health?.under_attack ?? 0} under attack</p>
        </Card>
        <Card title="Protected">
          <p class="metric">{(protection.configured ?? 0) + (protection.domed ?? 0)}</p>
          <p class="muted">with guards configured or a Dome in front</p>
        </Card>
      </div>
      <div class="grid2">
        <Card title="Agents by stage">
          <BarChart title="Agents by trust stage" bars={STAGES.map((stage) => ({ label: stage, value: byStage[stage] ?? 0 }))} format={(v) => String(v)} />
        </Card>
        <Card title="Protection">
          <BarChart
            title="Agents by protection status"
            bars={['unprotected', 'configured', 'domed'].map((s) => ({ label: s, value: protection[s] ?? 0 }))}
            format={(v) => String(v)}
          />
        </Card>
        <Card title="Latest scores">
          <BarChart title="Overall score of each agent's latest evaluation" bars={scored} max={1} format={(v) => v.toFixed(2)} />
        </Card>
      </div>
      <Card title="Agents on the board">
        <p class="muted small">Overall: the trust score over all of the agent's evidence; each pillar: its latest measurement, with its 95% interval.</p>
        {cards.length === 0 ? (
          <p class="muted">
            No agent yet. <Link href="/agents/new">Register one</Link>.
          </p>
        ) : (
          <TableWrap label="Agents with their stage and scores">
            <table>
              <caption class="sr-only">Agents with their stage and scores</caption>
              <thead>
                <tr>
                  <th scope="col">Agent</th>
                  <th scope="col">Stage</th>
                  <th scope="col">Overall</th>
                  {PILLARS.map((p) => (
                    <th key={p} scope="col">
                      {p[0]!.toUpperCase() + p.slice(1)}
                    </th>
                  ))}
                  <th scope="col">State</th>
                </tr>
              </thead>
              <tbody>
                {cards.slice(offset, offset + BOARD_PAGE).map((card) => (
                  <tr key={card.id}>
                    <td>
                      <Link href={`/agents/${card.id}`}>{card.name}</Link>
                    </td>
                    <td>{card.stage}</td>
                    <td>
                      <Score value={card.trust_scores?.overall ?? null} />
                    </td>
                    {PILLARS.map((p) => {
                      const measured = evidence.get(card.id)?.[p];
                      return (
                        <td key={p}>
                          <Score value={measured?.score ?? card.trust_scores?.[p] ?? null} interval={intervalOf(measured)} />
                        </td>
                      );
                    })}
                    <td>
                      {card.dome_protected ? <Badge tone="good">guarded</Badge> : null}{' '}
                      {card.under_attack ? <Badge tone="bad">under attack</Badge> : null}{' '}
                      {card.evaluating ? <Badge tone="info">evaluating</Badge> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
        <Pager offset={offset} limit={BOARD_PAGE} shown={Math.min(BOARD_PAGE, Math.max(0, cards.length - offset))} total={cards.length} onChange={setOffset} />
      </Card>
    </Page>
  );
}
