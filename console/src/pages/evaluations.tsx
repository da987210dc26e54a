import { useState } from 'preact/hooks';
import { api, download, get, itemsOf, totalOf } from '../api';
import { useApp } from '../context';
import { Link, navigate, useLocation } from '../router';
import {
  AgentSelect,
  Badge,
  BarChart,
  Card,
  ErrorBox,
  Field,
  Loading,
  Note,
  Page,
  Pager,
  Progress,
  Score,
  checkedOf,
  fmtDate,
  intervalOf,
  useAction,
  useLoad,
  usePoll,
  TableWrap,
  valueOf,
} from '../ui';

const PAGE = 20;
const RUNNING = new Set(['running', 'pending', 'queued']);

function StartEvaluation() {
  const { team } = useApp();
  const { query } = useLocation();
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000 }), [team]);
  const harnesses = useLoad(() => get('/v1/harnesses/', { team_id: team }), [team]);
  const custom = useLoad(() => get('/v1/custom-harnesses/', { team_id: team, status: 'active', limit: 100 }), [team]);
  const [agent, setAgent] = useState(query.get('agent') ?? '');
  const [chosen, setChosen] = useState<string[]>([]);
  const [customId, setCustomId] = useState('');
  const [sample, setSample] = useState('10');
  const action = useAction();
  const agentList = itemsOf(agents.data);
  const selectedAgent = agent || agentList[0]?.id || '';
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const useCustom = customId !== '';
      if (!useCustom && chosen.length === 0) throw new Error('Choose at least one harness.');
      const answer = await api('POST', '/v1/evaluations/', {
        agent_id: selectedAgent,
        team_id: team,
        harness_names: useCustom ? [customId] : chosen,
        harness_type: useCustom ? 'custom' : 'standard',
        sample_size: sample ? Number(sample) : null,
      });
      navigate(`/evaluations/${answer.evaluation_id}`);
    });
  };
  return (
    <form onSubmit={submit}>
      <AgentSelect agents={agentList} value={selectedAgent} onChange={setAgent} required />
      <fieldset>
        <legend>Standard harnesses</legend>
        <ErrorBox error={harnesses.error} />
        {(harnesses.data ?? []).map((h: any) => (
          <label key={h.name} class="check">
            <input
              type="checkbox"
              checked={chosen.includes(h.name)}
              onChange={(e) => setChosen(checkedOf(e) ? [...chosen, h.name] : chosen.filter((n) => n !== h.name))}
            />{' '}
            {h.name} <span class="muted small">({h.pillar}, {h.prompt_count} prompts)</span>
          </label>
        ))}
      </fieldset>
      <Field label="Or a custom harness">
        {(id) => (
          <select id={id} value={customId} onChange={(e) => setCustomId(valueOf(e))}>
            <option value="">none</option>
            {itemsOf(custom.data).map((h) => (
              <option key={h.id} value={h.id}>
                {h.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Prompts per harness" hint="empty: all of them">
        {(id) => <input id={id} type="number" min={1} max={1000} value={sample} onInput={(e) => setSample(valueOf(e))} />}
      </Field>
      <ErrorBox error={action.error ?? agents.error} />
      <button type="submit" class="primary" disabled={action.busy || !selectedAgent}>
        Start evaluation
      </button>
    </form>
  );
}

export function EvaluationList() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState('');
  const [agentFilter, setAgentFilter] = useState('');
  const list = useLoad(
    () => get('/v1/evaluation-summaries/', { team_id: team, limit: PAGE, offset, status: status || undefined, agent_id: agentFilter || undefined }),
    [team, offset, status, agentFilter],
  );
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000 }), [team]);
  const names = new Map<string, string>(itemsOf(agents.data).map((a) => [a.id as string, a.agent_name as string]));
  return (
    <Page title="Evaluations">
      <div class="grid2">
        <Card title="Start an evaluation">
          <StartEvaluation />
        </Card>
        <Card title="Runs">
          <div class="filters">
            <AgentSelect agents={itemsOf(agents.data)} value={agentFilter} onChange={(id) => (setAgentFilter(id), setOffset(0))} any="Any" />
            <Field label="Status">
              {(id) => (
                <select id={id} value={status} onChange={(e) => (setStatus(valueOf(e)), setOffset(0))}>
                  <option value="">Any</option>
                  <option>running</option>
                  <option>completed</option>
                  <option>failed</option>
                  <option>cancelled</option>
                </select>
              )}
            </Field>
          </div>
          <ErrorBox error={list.error} />
          {list.loading && !list.data ? <Loading /> : null}
          <TableWrap label="Evaluations of the team">
            <table>
              <caption class="sr-only">Evaluations of the team</caption>
              <thead>
                <tr>
                  <th scope="col">Started</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Harnesses</th>
                  <th scope="col">Status</th>
                  <th scope="col">Overall</th>
                </tr>
              </thead>
              <tbody>
                {itemsOf(list.data).map((e) => (
                  <tr key={e.id}>
                    <td>
                      <Link href={`/evaluations/${e.id}`}>{fmtDate(e.created_at)}</Link>
                    </td>
                    <td>{names.get(e.agent_id) ?? '—'}</td>
                    <td>{(e.harness_names ?? []).join(', ')}</td>
                    <td>{e.status}</td>
                    <td>
                      <Score value={e.overall_score} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager offset={offset} limit={PAGE} shown={itemsOf(list.data).length} total={totalOf(list.data)} onChange={setOffset} />
        </Card>
      </div>
    </Page>
  );
}

export function EvaluationPage({ id }: { id: string }) {
  const status = useLoad(() => get(`/v1/evaluations/${id}`), [id]);
  const running = status.data ? RUNNING.has(status.data.status) : true;
  usePoll(running && !status.error, status.reload, 1000);
  const done = status.data?.status === 'completed';
  // Every ended run (completed, failed, cancelled) has a summary and reports: a stopped run's cover what it measured.
  const ended = status.data !== undefined && !RUNNING.has(status.data.status);
  const summary = useLoad(() => (ended ? get(`/v1/evaluation-summaries/${id}`) : Promise.resolve(null)), [id, ended]);
  const [failOffset, setFailOffset] = useState(0);
  const failures = useLoad(
    () => (status.data && !running ? get(`/v1/evaluation-results/${id}/results`, { passed: false, limit: 5, offset: failOffset }) : Promise.resolve(null)),
    [id, running, failOffset],
  );
  const agentId: string | undefined = status.data?.agent_id;
  const agent = useLoad(() => (agentId ? get(`/v1/agent-configurations/${agentId}`) : Promise.resolve(null)), [agentId]);
  const action = useAction();
  if (!status.data) return status.error ? <ErrorBox error={status.error} /> : <Loading />;
  const s = status.data;
  const details = summary.data?.pillar_details ?? {};
  const pillars = Object.entries((details.pillars ?? {}) as Record<string, any>)
    .filter(([, v]) => v && typeof v.score === 'number')
    .map(([name, v]) => ({ label: name, value: v.score as number, interval: intervalOf(v) }));
  // A harness's score is `{score, n, low, high}` (the Wilson interval of its prompts).
  const harnessBars = ((details.harnesses ?? []) as any[])
    .map((h) => ({ h, score: typeof h.score === 'number' ? h.score : h.score?.score }))
    .filter(({ score }) => typeof score === 'number')
    .map(({ h, score }) => ({ label: String(h.name ?? h.id ?? h.harness), value: score as number, interval: intervalOf(h.score) }));
  const overall = details.overall ?? null;
  const scoreBars = Object.entries((s.scores ?? {}) as Record<string, unknown>)
    .filter((entry): entry is [string, number] => typeof entry[1] === 'number')
    .map(([label, value]) => ({ label, value }));
  return (
    <Page
      title={agent.data?.agent_name ? `Evaluation of ${agent.data.agent_name}` : 'Evaluation'}
      actions={
        ended ? (
          <>
            <button
              type="button"
              disabled={action.busy}
              onClick={() => action.run(async () => `Saved ${await download(`/v1/evaluations/${id}/html`, `evaluation-${id}.html`)}.`)}
            >
              Download HTML report
            </button>
            <button
              type="button"
              disabled={action.busy}
              onClick={() => action.run(async () => `Saved ${await download(`/v1/evaluations/${id}/pdf`, `evaluation-${id}.pdf`)}.`)}
            >
              Download PDF report
            </button>
          </>
        ) : running ? (
          <button
            type="button"
            onClick={() =>
              action.run(async () => {
                await api('POST', `/v1/evaluations/${id}/cancel`);
                // The badge and the Stopped card say the rest.
                status.reload();
              })
            }
          >
            Cancel
          </button>
        ) : null
      }
    >
      <p>
        <Badge tone={done ? 'good' : s.status === 'failed' ? 'bad' : 'info'}>{s.status}</Badge> <span class="muted">created {fmtDate(s.created_at)}</span>
        {s.completed_at ? <span class="muted"> · ended {fmtDate(s.completed_at)}</span> : null}
        {s.agent_id ? (
          <>
            {' '}
            · harnesses {(s.harness_names ?? []).join(', ')} · <Link href={`/agents/${s.agent_id}`}>{agent.data?.agent_name ?? 'the agent'}</Link>
          </>
        ) : null}
      </p>
      <ErrorBox error={action.error ?? s.error_message} />
      <Note note={action.busy && ended ? 'Preparing the report…' : action.note} />
      {ended && !done ? (
        <Card title="Stopped">
          <p>
            {s.status_message ?? s.status}.{' '}
            {details.overall || pillars.length
              ? 'Its scores and reports cover what it measured.'
              : 'It measured too little for a score; its reports say what it did.'}
          </p>
        </Card>
      ) : null}
      {running ? (
        <Card title="Progress">
          <Progress done={s.progress?.done} total={s.progress?.total} label={s.status_message ?? 'Queued'} />
          <p class="muted" aria-live="polite">
            {s.status_message}
          </p>
        </Card>
      ) : null}
      {ended && summary.data && (done || details.overall || pillars.length) ? (
        <div class="grid2">
          <Card title="Scores">
            <p class="big">
              Overall <Score value={summary.data?.overall_score ?? overall?.score} interval={intervalOf(overall)} n={overall?.n} />
            </p>
            <p class="muted small">
              Verdict <strong>{details.verdict ?? (details.passed === true ? 'PASS' : details.passed === false ? 'FAIL' : '—')}</strong> (pass threshold{' '}
              {details.pass_threshold ?? 0.7}
              {(details.missing_pillars ?? []).length ? `; not measured: ${details.missing_pillars.join(', ')}` : ''}) ·{' '}
              {details.prompts ?? '—'} prompts,{' '}
              {details.errors ?? 0} errors
            </p>
            <BarChart title="Pillars (with 95% intervals)" bars={pillars} max={1} format={(v) => v.toFixed(2)} />
          </Card>
          <Card title="Harnesses">
            <BarChart
              title="Score per harness"
              bars={harnessBars.length ? harnessBars : scoreBars}
              max={1}
              format={(v) => v.toFixed(2)}
            />
          </Card>
        </div>
      ) : null}
      {!running ? (
        <Card title="Failure examples">
          <ErrorBox error={failures.error} />
          <ol class="plain examples">
            {itemsOf(failures.data).map((r) => (
              <li key={r.prompt_id}>
                <p>
                  <Badge tone="bad">failed</Badge> <span class="muted">{r.harness} · {r.probe}</span>
                </p>
                <p>
                  <strong>Prompt:</strong> {String(r.prompt).slice(0, 400)}
                </p>
                <p>
                  <strong>Answer:</strong> {String(r.response ?? '').slice(0, 400)}
                </p>
                <p class="muted small">{r.reason}</p>
              </li>
            ))}
            {failures.data && itemsOf(failures.data).length === 0 ? <li class="muted">No failed prompt.</li> : null}
          </ol>
          <Pager offset={failOffset} limit={5} shown={itemsOf(failures.data).length} total={totalOf(failures.data)} onChange={setFailOffset} />
        </Card>
      ) : null}
    </Page>
  );
}
