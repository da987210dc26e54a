import { useState } from 'preact/hooks';
import { api, get, itemsOf, totalOf } from '../api';
import { useApp } from '../context';
import { Link, navigate, useLocation } from '../router';
import { AGENT_STATUSES, STAGES } from '../stages';
import { Badge, Card, ErrorBox, Field, Loading, Note, Page, Pager, Score, fmtDate, useAction, useLoad, valueOf, TableWrap } from '../ui';

const PAGE = 25;

export function AgentList() {
  const { team } = useApp();
  const { query } = useLocation();
  const [offset, setOffset] = useState(Number(query.get('offset') ?? 0) || 0);
  const [status, setStatus] = useState('');
  const [stage, setStage] = useState('');
  const [search, setSearch] = useState('');
  // Every filter is the API's (name or id search, status, stage): the pages and the total are of the matches.
  const list = useLoad(
    () =>
      get('/v1/agent-configurations/', {
        team_id: team,
        limit: PAGE,
        offset,
        include_scores: true,
        statuses: status ? [status] : undefined,
        trust_stage: stage || undefined,
        search: search || undefined,
      }),
    [team, offset, status, stage, search],
  );
  const rows = itemsOf(list.data);
  return (
    <Page
      title="Agents"
      actions={
        <Link href="/agents/new" class="button primary">
          Register an agent
        </Link>
      }
    >
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search">
          {(id) => (
            <input id={id} type="search" value={search} maxLength={255} placeholder="name or id" onInput={(e) => (setSearch(valueOf(e)), setOffset(0))} />
          )}
        </Field>
        <Field label="Status">
          {(id) => (
            <select
              id={id}
              value={status}
              onChange={(e) => {
                setStatus(valueOf(e));
                setOffset(0);
              }}
            >
              <option value="">All but archived</option>
              {AGENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Stage">
          {(id) => (
            <select
              id={id}
              value={stage}
              onChange={(e) => {
                setStage(valueOf(e));
                setOffset(0);
              }}
            >
              <option value="">Any stage</option>
              {STAGES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
          )}
        </Field>
      </form>
      <ErrorBox error={list.error} />
      {list.loading && !list.data ? (
        <Loading />
      ) : (
        <TableWrap label="Agents of the team">
          <table>
            <caption class="sr-only">Agents of the team</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Model</th>
                <th scope="col">Status</th>
                <th scope="col">Stage</th>
                <th scope="col">Protection</th>
                <th scope="col">Trust score</th>
                <th scope="col">Latest evaluation</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {rows.length === 0 ? (
                <tr>
                  <td colSpan={8} class="muted">
                    No agent matches.
                  </td>
                </tr>
              ) : (
                rows.map((agent) => (
                  <tr key={agent.id}>
                    <td>
                      <Link href={`/agents/${agent.id}`}>{agent.agent_name}</Link>
                    </td>
                    <td>{agent.model_name}</td>
                    <td>{agent.status}</td>
                    <td>
                      <Badge>{agent.trust_stage}</Badge>
                    </td>
                    <td>{agent.protection_status}</td>
                    <td>
                      <Score value={agent.test_score} />
                    </td>
                    <td>
                      <Score value={agent.latest_evaluation?.overall_score} />
                    </td>
                    <td>{fmtDate(agent.updated_at)}</td>
                  </tr>
                ))
              )}
            </tbody>
          </table>
        </TableWrap>
      )}
      <Pager offset={offset} limit={PAGE} shown={rows.length} total={totalOf(list.data)} onChange={setOffset} />
    </Page>
  );
}

function RegisterForm() {
  const { team } = useApp();
  const [form, setForm] = useState({
    agent_name: '',
    model_name: '',
    agent_url: '',
    protocol: 'chat_completions',
    api_key: '',
    agent_system_prompt: '',
    purpose: '',
    rate_limit_requests_per_minute: '100',
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
        protocol: form.protocol,
        rate_limit_requests_per_minute: Number(form.rate_limit_requests_per_minute) || 100,
      };
      if (form.api_key) body.api_key = form.api_key;
      if (form.agent_system_prompt) body.agent_system_prompt = form.agent_system_prompt;
      if (form.purpose) body.purpose = form.purpose;
      const agent = await api('POST', '/v1/agent-configurations/', body, { team_id: team });
      navigate(`/agents/${agent.id}`);
    });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Name">{(id) => <input id={id} required value={form.agent_name} onInput={set('agent_name')} />}</Field>
      <Field label="Model">{(id) => <input id={id} required value={form.model_name} onInput={set('model_name')} />}</Field>
      <Field label="Agent URL" hint="chat completions: Warden posts to {url}/chat/completions">
        {(id) => <input id={id} type="url" value={form.agent_url} onInput={set('agent_url')} placeholder="http://127.0.0.1:10000/v1" />}
      </Field>
      <Field label="Protocol">
        {(id) => (
          <select id={id} value={form.protocol} onChange={set('protocol')}>
            <option value="chat_completions">chat completions</option>
            <option value="a2a">A2A</option>
          </select>
        )}
      </Field>
      <Field label="Agent API key" hint="stored encrypted, never shown again">
        {(id) => <input id={id} type="password" autoComplete="off" value={form.api_key} onInput={set('api_key')} />}
      </Field>
      <Field label="System prompt">{(id) => <textarea id={id} rows={3} value={form.agent_system_prompt} onInput={set('agent_system_prompt')} />}</Field>
      <Field label="Purpose" hint="red-team attacks are written for it">
        {(id) => <input id={id} value={form.purpose} onInput={set('purpose')} />}
      </Field>
      <Field label="Requests per minute">
        {(id) => <input id={id} type="number" min={1} value={form.rate_limit_requests_per_minute} onInput={set('rate_limit_requests_per_minute')} />}
      </Field>
      <ErrorBox error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Register
      </button>
    </form>
  );
}

function ImportForm() {
  const { team } = useApp();
  const [mode, setMode] = useState<'url' | 'card' | 'source'>('url');
  const [url, setUrl] = useState('');
  const [card, setCard] = useState('');
  const [source, setSource] = useState('');
  const [name, setName] = useState('');
  const action = useAction();
  const [warnings, setWarnings] = useState<string[]>([]);
  const body = (): Record<string, unknown> => {
    const base: Record<string, unknown> = { override_name: name || null };
    if (mode === 'url') return { ...base, agent_url: url };
    if (mode === 'card') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(card);
      } catch {
        throw new Error('The AgentCard is not valid JSON.');
      }
      return { ...base, agent_card: parsed };
    }
    return { ...base, source_code: { files: { 'main.py': source }, entry_point: 'main.py' } };
  };
  const validate = () =>
    action.run(async () => {
      const answer = await api('POST', '/v1/agent-configurations/import/validate', body(), { team_id: team });
      setWarnings(answer.warnings ?? []);
      if (answer.valid === false) throw new Error(`Not importable: ${(answer.errors ?? []).join('; ')}`);
      const card = answer.agent_card?.name ? `, as "${answer.agent_card.name}"` : '';
      return `It can be imported${card}, with ${String(answer.access_level ?? 'black_box').replace('_', '-')} access.`;
    });
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const answer = await api('POST', '/v1/agent-configurations/import', body(), { team_id: team });
      setWarnings(answer.warnings ?? []);
      navigate(`/agents/${answer.agent.id}`);
    });
  };
  return (
    <form onSubmit={submit}>
      <fieldset>
        <legend>Import from</legend>
        {(['url', 'card', 'source'] as const).map((m) => (
          <label key={m} class="inline">
            <input type="radio" name="import-mode" checked={mode === m} onChange={() => setMode(m)} />{' '}
            {m === 'url' ? 'URL' : m === 'card' ? 'AgentCard (JSON)' : 'Source code'}
          </label>
        ))}
      </fieldset>
      {mode === 'url' ? (
        <Field label="Agent URL">{(id) => <input id={id} type="url" required value={url} onInput={(e) => setUrl(valueOf(e))} />}</Field>
      ) : mode === 'card' ? (
        <Field label="AgentCard">
          {(id) => <textarea id={id} rows={8} required value={card} onInput={(e) => setCard(valueOf(e))} />}
        </Field>
      ) : (
        <Field label="main.py">
          {(id) => <textarea id={id} rows={8} required value={source} onInput={(e) => setSource(valueOf(e))} />}
        </Field>
      )}
      <Field label="Name (optional)">{(id) => <input id={id} value={name} onInput={(e) => setName(valueOf(e))} />}</Field>
      <ErrorBox error={action.error} />
      <Note note={action.note} />
      {warnings.length ? (
        <ul class="warnings" aria-label="Warnings">
          {warnings.map((w) => (
            <li key={w}>{w}</li>
          ))}
        </ul>
      ) : null}
      <div class="row">
        <button type="button" onClick={validate} disabled={action.busy}>
          Check
        </button>
        <button type="submit" class="primary" disabled={action.busy}>
          Import
        </button>
      </div>
    </form>
  );
}

export function AgentRegister() {
  return (
    <Page title="Register an agent">
      <div class="grid2">
        <Card title="By form">
          <RegisterForm />
        </Card>
        <Card title="Import">
          <ImportForm />
        </Card>
      </div>
    </Page>
  );
}
