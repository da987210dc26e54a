import { useState } from 'preact/hooks';
import { api, get, itemsOf, totalOf } from '../api';
import { useApp } from '../context';
import { Link } from '../router';
import { STAGES, nextStage } from '../stages';
import {
  Badge,
  BarChart,
  Card,
  ErrorBox,
  Field,
  Loading,
  Note,
  Page,
  Pager,
  Score,
  fmtDate,
  fmtDays,
  fmtNumber,
  intervalOf,
  useAction,
  useLoad,
  valueOf,
} from '../ui';

const HISTORY_PAGE = 20;
const EVALUATIONS_PAGE = 5;

function ConfigForm({ agent, onSaved }: { agent: any; onSaved: () => void }) {
  const [form, setForm] = useState({
    agent_name: agent.agent_name ?? '',
    model_name: agent.model_name ?? '',
    agent_url: agent.agent_url ?? '',
    agent_system_prompt: agent.agent_system_prompt ?? '',
    purpose: agent.purpose ?? '',
    rate_limit_requests_per_minute: String(agent.rate_limit_requests_per_minute ?? 100),
    api_key: '',
  });
  const action = useAction();
  const set = (key: keyof typeof form) => (e: Event) => setForm({ ...form, [key]: valueOf(e) });
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const body: Record<string, unknown> = {
        agent_name: form.agent_name,
        model_name: form.model_name,
        agent_url: form.agent_url || null,
        agent_system_prompt: form.agent_system_prompt || null,
        purpose: form.purpose || null,
        rate_limit_requests_per_minute: Number(form.rate_limit_requests_per_minute) || 100,
      };
      if (form.api_key) body.api_key = form.api_key;
      await api('PUT', `/v1/agent-configurations/${agent.id}`, body);
      setForm({ ...form, api_key: '' });
      // The page reloads the agent and this form starts again from what was stored; the page says it was saved.
      onSaved();
    });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Name">{(id) => <input id={id} required value={form.agent_name} onInput={set('agent_name')} />}</Field>
      <Field label="Model">{(id) => <input id={id} required value={form.model_name} onInput={set('model_name')} />}</Field>
      <Field label="Agent URL">{(id) => <input id={id} value={form.agent_url} onInput={set('agent_url')} />}</Field>
      <Field label="System prompt">{(id) => <textarea id={id} rows={3} value={form.agent_system_prompt} onInput={set('agent_system_prompt')} />}</Field>
      <Field label="Purpose">{(id) => <input id={id} value={form.purpose} onInput={set('purpose')} />}</Field>
      <Field label="Requests per minute">
        {(id) => <input id={id} type="number" min={1} value={form.rate_limit_requests_per_minute} onInput={set('rate_limit_requests_per_minute')} />}
      </Field>
      <Field label="API key" hint={agent.api_key ? `stored: ${agent.api_key} (type a new one to replace it)` : 'none stored'}>
        {(id) => <input id={id} type="password" autoComplete="off" placeholder="••••••••" value={form.api_key} onInput={set('api_key')} />}
      </Field>
      <ErrorBox error={action.error} />
      <Note note={action.note} />
      <button type="submit" class="primary" disabled={action.busy}>
        Save configuration
      </button>
    </form>
  );
}

function Lifecycle({ agent, onMoved }: { agent: any; onMoved: () => void }) {
  const [offset, setOffset] = useState(0);
  const history = useLoad(
    () => get(`/v1/agent-configurations/${agent.id}/lifecycle/history`, { limit: HISTORY_PAGE, offset }),
    [agent.id, agent.trust_stage, offset],
  );
  const action = useAction();
  const [target, setTarget] = useState('');
  const next = nextStage(agent.trust_stage);
  const move = (stage: string) =>
    action.run(async () => {
      await api('PUT', `/v1/agent-configurations/${agent.id}/lifecycle`, { trust_stage: stage });
      onMoved();
      return `Moved to ${stage}.`;
    });
  return (
    <div>
      <ol class="stages" aria-label="Trust stages">
        {STAGES.map((stage) => (
          <li key={stage} class={stage === agent.trust_stage ? 'current' : ''} aria-current={stage === agent.trust_stage ? 'step' : undefined}>
            {stage}
          </li>
        ))}
      </ol>
      <div class="row">
        {next ? (
          <button type="button" class="primary" disabled={action.busy} onClick={() => move(next)}>
            Move to {next}
          </button>
        ) : null}
        <label class="inline">
          <span>Or to</span>
          <select value={target} onChange={(e) => setTarget(valueOf(e))}>
            <option value="">choose a stage</option>
            {STAGES.filter((s) => s !== agent.trust_stage).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <button type="button" disabled={!target || action.busy} onClick={() => move(target)}>
          Move
        </button>
      </div>
      <ErrorBox error={action.error ?? history.error} />
      <Note note={action.note} />
      <h3>Timeline</h3>
      <ol class="timeline">
        {itemsOf(history.data).map((event) => (
          <li key={event.id}>
            <time>{fmtDate(event.changed_at)}</time> {event.from_stage ? `${event.from_stage} → ` : ''}
            <strong>{event.to_stage}</strong>
          </li>
        ))}
        {history.data && itemsOf(history.data).length === 0 ? <li class="muted">Registered; no stage change yet.</li> : null}
      </ol>
      <Pager offset={offset} limit={HISTORY_PAGE} shown={itemsOf(history.data).length} total={totalOf(history.data)} onChange={setOffset} />
    </div>
  );
}

export function AgentPage({ id }: { id: string }) {
  const { team } = useApp();
  const agent = useLoad(() => get(`/v1/agent-configurations/${id}`, { include_scores: true }), [id]);
  const [evalOffset, setEvalOffset] = useState(0);
  const [saved, setSaved] = useState<string | null>(null);
  const evaluations = useLoad(
    () => get('/v1/evaluation-summaries/', { team_id: team, agent_id: id, limit: EVALUATIONS_PAGE, offset: evalOffset }),
    [id, team, evalOffset],
  );
  // The agent's saved guard configurations (the list answers an empty page where the agent's own endpoint answers 404).
  const dome = useLoad(() => get('/v1/dome-configs', { team_id: team, agent_id: id, limit: 10 }), [id, team]);
  const campaigns = useLoad(() => get('/v1/campaigns', { team_id: team, limit: 100 }), [team]);
  const scope = { agent_configuration_id: id, time_range: '1h', team_id: team };
  const traffic = useLoad(() => get('/v1/telemetry/logs', { ...scope, limit: 10 }), [id, team]);
  const calls = useLoad(() => get('/v1/telemetry/counters/gateway_requests_total/total', scope), [id, team]);
  const blocked = useLoad(() => get('/v1/telemetry/counters/gateway_blocked_total/total', scope), [id, team]);
  if (agent.loading && !agent.data) return <Loading />;
  if (!agent.data) return <ErrorBox error={agent.error} />;
  const a = agent.data;
  const mine = itemsOf(campaigns.data).filter((c) => c.agent_id === id);
  const configs = itemsOf(dome.data);
  const domeConfig = configs.find((c) => c.id === a.dome_config_id) ?? configs.find((c) => c.status === 'applied') ?? configs[0] ?? null;
  const pillars = Object.entries((a.evidence?.pillars ?? {}) as Record<string, any>)
    .filter(([, v]) => v && typeof v.score === 'number')
    .map(([name, v]) => ({ label: name, value: v.score as number, interval: intervalOf(v) }));
  const lines = ((traffic.data?.streams ?? []) as any[]).flatMap((s) => s.entries ?? []).sort((x: any, y: any) => y.timestamp - x.timestamp);
  return (
    <Page
      title={a.agent_name}
      actions={
        <>
          <Link href={`/evaluations?agent=${id}`} class="button">
            Evaluate
          </Link>
          <Link href={`/redteam?agent=${id}`} class="button">
            Red-team
          </Link>
          <Link href={`/guardrails?agent=${id}`} class="button">
            Configure guards
          </Link>
        </>
      }
    >
      <p>
        <Badge>{a.trust_stage}</Badge>{' '}
        <Badge tone={a.protection_status === 'unprotected' ? 'warn' : 'good'}>{a.protection_status}</Badge>{' '}
        <span class="muted">status {a.status}</span>{' '}
        <span class="muted">· registered {fmtDate(a.created_at)}</span>
        {a.trusted_at && typeof a.ttt_days === 'number' ? (
          <span class="muted">
            {' '}
            · time to trust {fmtDays(a.ttt_days)} (hardened {fmtDate(a.trusted_at)})
          </span>
        ) : null}
      </p>
      <div class="grid2">
        <Card title="Lifecycle">
          <Lifecycle agent={a} onMoved={agent.reload} />
        </Card>
        <Card title="Configuration">
          <ConfigForm
            key={a.updated_at}
            agent={a}
            onSaved={() => {
              setSaved(`Configuration saved ${new Date().toLocaleTimeString()}.`);
              agent.reload();
            }}
          />
          <Note note={saved} />
        </Card>
        <Card title="Evaluations">
          <ErrorBox error={evaluations.error} />
          <p>
            Trust score (the mean of each pillar's latest measurement): <Score value={a.test_score} /> · latest evaluation's overall:{' '}
            <Score value={a.latest_evaluation?.overall_score} />
          </p>
          <BarChart title="Latest measurement of each pillar (95% intervals)" bars={pillars} max={1} format={(v) => v.toFixed(2)} />
          <ul class="plain">
            {itemsOf(evaluations.data).map((e) => (
              <li key={e.id}>
                <Link href={`/evaluations/${e.id}`}>{fmtDate(e.created_at)}</Link> {e.status} · overall{' '}
                <Score value={e.overall_score} interval={intervalOf(e.pillar_details?.overall)} /> · {(e.harness_names ?? []).join(', ')}
              </li>
            ))}
            {evaluations.data && itemsOf(evaluations.data).length === 0 ? <li class="muted">Not evaluated yet.</li> : null}
          </ul>
          <Pager
            offset={evalOffset}
            limit={EVALUATIONS_PAGE}
            shown={itemsOf(evaluations.data).length}
            total={totalOf(evaluations.data)}
            onChange={setEvalOffset}
          />
        </Card>
        <Card title="Guard configuration">
          <ErrorBox error={dome.error} />
          {domeConfig ? (
            <>
              <p>
                <code>{domeConfig.id.slice(0, 8)}</code> <Badge tone={domeConfig.status === 'applied' ? 'good' : undefined}>{domeConfig.status}</Badge>{' '}
                <span class="muted">
                  input: {(domeConfig.config_body?.['input-guards'] ?? []).join(', ') || 'none'} · output:{' '}
                  {(domeConfig.config_body?.['output-guards'] ?? []).join(', ') || 'none'}
                </span>
              </p>
              <details>
                <summary>The whole configuration</summary>
                <pre class="code" tabIndex={0} aria-label="The guard configuration">
                  {JSON.stringify(domeConfig.config_body ?? domeConfig, null, 2).slice(0, 4000)}
                </pre>
              </details>
              <p>
                <Link href={`/guardrails?agent=${id}`}>Edit, apply or try it in the playground</Link>
              </p>
            </>
          ) : dome.data ? (
            <p class="muted">
              No guards configured. <Link href={`/guardrails?agent=${id}`}>Configure them</Link>.
            </p>
          ) : null}
        </Card>
        <Card title="Red-team findings">
          <ErrorBox error={campaigns.error} />
          <ul class="plain">
            {mine.slice(0, 10).map((c) => (
              <li key={c.campaign_id}>
                <Link href={`/redteam/${c.campaign_id}`}>{fmtDate(c.created_at)}</Link> {c.status}
                {c.summary ? (
                  <>
                    {' '}
                    · <strong>{c.summary.failed ?? 0} of {c.summary.total_tests ?? 0} attacks worked</strong>
                  </>
                ) : null}{' '}
                · <span class="muted">{(c.categories ?? []).join(', ')}</span>
              </li>
            ))}
            {campaigns.data && mine.length === 0 ? <li class="muted">No campaign against this agent yet.</li> : null}
          </ul>
        </Card>
        <Card title="Recent traffic">
          {traffic.error ? (
            <ErrorBox error={traffic.error} />
          ) : (
            <>
              <p>
                Gateway calls in the last hour: <strong>{calls.data ? fmtNumber(calls.data.total_count) : '—'}</strong>, blocked by a guard:{' '}
                <strong>{blocked.data ? fmtNumber(blocked.data.total_count) : '—'}</strong>.{' '}
                <Link href={`/telemetry?agent=${id}`}>Telemetry of this agent</Link>
              </p>
              <ul class="plain log">
                {lines.slice(0, 10).map((entry: any, i: number) => (
                  <li key={i}>
                    <time>{fmtDate(entry.timestamp / 1e9)}</time> {entry.line}
                  </li>
                ))}
                {traffic.data && lines.length === 0 ? (
                  <li class="muted">
                    No traffic in the last hour. Calls through <code>POST /v1/gateway/{id}/chat/completions</code> are guarded and show here.
                  </li>
                ) : null}
              </ul>
            </>
          )}
        </Card>
      </div>
    </Page>
  );
}
