import { useState } from 'preact/hooks';
import { api, get, itemsOf } from '../api';
import { useApp } from '../context';
import { Link } from '../router';
import { STAGES, nextStage } from '../stages';
import { Badge, Card, ErrorBox, Field, Loading, Note, Page, Score, fmtDate, useAction, useLoad, valueOf } from '../ui';

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
      onSaved();
      return 'Saved.';
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
  const history = useLoad(() => get(`/v1/agent-configurations/${agent.id}/lifecycle/history`, { limit: 100 }), [agent.id, agent.trust_stage]);
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
    </div>
  );
}

export function AgentPage({ id }: { id: string }) {
  const { team } = useApp();
  const agent = useLoad(() => get(`/v1/agent-configurations/${id}`, { include_scores: true }), [id]);
  const evaluations = useLoad(() => get('/v1/evaluation-summaries/', { agent_id: id, limit: 10 }), [id]);
  const dome = useLoad(() => get(`/v1/agent-configurations/${id}/dome-configs`, { team_id: team }), [id, team]);
  const campaigns = useLoad(() => get('/v1/campaigns', { team_id: team, limit: 100 }), [team]);
  const traffic = useLoad(() => get('/v1/telemetry/logs', { agent_configuration_id: id, time_range: '1h', limit: 20 }), [id]);
  if (agent.loading && !agent.data) return <Loading />;
  if (!agent.data) return <ErrorBox error={agent.error} />;
  const a = agent.data;
  const mine = itemsOf(campaigns.data).filter((c) => c.agent_id === id);
  const domeConfig = dome.data?.dome_config ?? dome.data?.config ?? (dome.data?.id ? dome.data : null);
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
            Guardrails
          </Link>
        </>
      }
    >
      <p>
        <Badge>{a.trust_stage}</Badge>{' '}
        <Badge tone={a.protection_status === 'unprotected' ? 'warn' : 'good'}>{a.protection_status}</Badge>{' '}
        <span class="muted">status {a.status}</span>{' '}
        <span class="muted">· registered {fmtDate(a.created_at)}</span>
        {a.trusted_at && typeof a.ttt_days === 'number' ? <span class="muted"> · trusted in {a.ttt_days.toFixed(1)} days</span> : null}
      </p>
      <div class="grid2">
        <Card title="Lifecycle">
          <Lifecycle agent={a} onMoved={agent.reload} />
        </Card>
        <Card title="Configuration">
          <ConfigForm key={a.updated_at} agent={a} onSaved={agent.reload} />
        </Card>
        <Card title="Evaluations">
          <ErrorBox error={evaluations.error} />
          <p>
            Latest overall: <Score value={a.latest_evaluation?.overall_score ?? a.test_score} />
          </p>
          <ul class="plain">
            {itemsOf(evaluations.data).map((e) => (
              <li key={e.id}>
                <Link href={`/evaluations/${e.id}`}>{fmtDate(e.created_at)}</Link> {e.status} · overall <Score value={e.overall_score} /> ·{' '}
                {(e.harness_names ?? []).join(', ')}
              </li>
            ))}
            {evaluations.data && itemsOf(evaluations.data).length === 0 ? <li class="muted">Not evaluated yet.</li> : null}
          </ul>
        </Card>
        <Card title="Guard configuration">
          <ErrorBox error={dome.error} />
          {domeConfig ? (
            <>
              <p>
                {domeConfig.id ? <code>{domeConfig.id}</code> : null} {domeConfig.status}
              </p>
              <pre class="code" tabIndex={0} aria-label="The guard configuration">
                {JSON.stringify(domeConfig.config_body ?? domeConfig, null, 2).slice(0, 2000)}
              </pre>
            </>
          ) : (
            <p class="muted">No guards configured. <Link href={`/guardrails?agent=${id}`}>Configure them</Link>.</p>
          )}
        </Card>
        <Card title="Red-team findings">
          <ErrorBox error={campaigns.error} />
          <ul class="plain">
            {mine.slice(0, 10).map((c) => (
              <li key={c.campaign_id}>
                <Link href={`/redteam/${c.campaign_id}`}>{fmtDate(c.created_at)}</Link> {c.status} · {(c.categories ?? []).join(', ')}
              </li>
            ))}
            {campaigns.data && mine.length === 0 ? <li class="muted">No campaign against this agent yet.</li> : null}
          </ul>
        </Card>
        <Card title="Recent traffic">
          {traffic.error ? (
            <p class="muted">Telemetry: {traffic.error}</p>
          ) : (
            <ul class="plain log">
              {(traffic.data?.streams ?? []).flatMap((s: any) => s.entries ?? []).slice(0, 20).map((entry: any, i: number) => (
                <li key={i}>
                  <time>{fmtDate(entry.timestamp / 1e9)}</time> {entry.line}
                </li>
              ))}
              {traffic.data && (traffic.data.streams ?? []).length === 0 ? <li class="muted">No traffic in the last hour.</li> : null}
            </ul>
          )}
        </Card>
      </div>
    </Page>
  );
}
