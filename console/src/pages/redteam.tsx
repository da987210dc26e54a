import { useState } from 'preact/hooks';
import { api, download, get, itemsOf } from '../api';
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
  TableWrap,
  checkedOf,
  fmtDate,
  intervalOf,
  useAction,
  useLoad,
  usePoll,
  valueOf,
} from '../ui';

const CATEGORIES = ['injection', 'jailbreak', 'harmful', 'pii', 'toxicity', 'hallucination', 'overreliance'];
const STRATEGIES = ['basic', 'base64', 'rot13', 'leetspeak', 'crescendo'];
const PAGE = 20;
const RUNNING = new Set(['pending', 'running']);
/** A category's attack success rate: a number, or an object carrying it. */
const rateOf = (v: any): number => (typeof v === 'number' ? v : (v?.rate ?? v?.success_rate ?? 0));
const percent = (v: number) => `${Math.round(v * 100)}%`;
/** Rates by category or strategy as bars with their 95% intervals (`{n, successful, rate, low, high}`). */
const rateBars = (rates: Record<string, any> | undefined) =>
  Object.entries(rates ?? {}).map(([label, v]) => ({ label, value: rateOf(v), interval: intervalOf(v) }));

function StartCampaign() {
  const { team } = useApp();
  const { query } = useLocation();
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000 }), [team]);
  const [agent, setAgent] = useState(query.get('agent') ?? '');
  const [purpose, setPurpose] = useState('');
  const [categories, setCategories] = useState<string[]>(['injection', 'pii']);
  const [strategies, setStrategies] = useState<string[]>(['basic']);
  const [tests, setTests] = useState('2');
  const action = useAction();
  const list = itemsOf(agents.data);
  const selected = list.find((a) => a.id === (agent || list[0]?.id));
  const toggle = (values: string[], value: string, on: boolean) => (on ? [...values, value] : values.filter((v) => v !== value));
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      if (!selected) throw new Error('Register an agent first.');
      const answer = await api('POST', '/v1/campaigns', {
        team_id: team,
        tool: 'diamond_security',
        agent_id: selected.id,
        purpose: purpose || selected.purpose || `${selected.agent_name}`,
        categories,
        strategies,
        num_tests: Number(tests) || 1,
      });
      navigate(`/redteam/${answer.campaign_id}`);
    });
  };
  return (
    <form onSubmit={submit}>
      <AgentSelect agents={list} value={selected?.id ?? ''} onChange={setAgent} />
      <Field label="Purpose" hint="what the agent is for: attacks are written for it">
        {(id) => <input id={id} value={purpose} placeholder={selected?.purpose ?? ''} onInput={(e) => setPurpose(valueOf(e))} />}
      </Field>
      <fieldset>
        <legend>Categories</legend>
        {CATEGORIES.map((c) => (
          <label key={c} class="check">
            <input type="checkbox" checked={categories.includes(c)} onChange={(e) => setCategories(toggle(categories, c, checkedOf(e)))} /> {c}
          </label>
        ))}
      </fieldset>
      <fieldset>
        <legend>Strategies</legend>
        {STRATEGIES.map((s) => (
          <label key={s} class="check">
            <input type="checkbox" checked={strategies.includes(s)} onChange={(e) => setStrategies(toggle(strategies, s, checkedOf(e)))} /> {s}
          </label>
        ))}
      </fieldset>
      <Field label="Attacks per category">
        {(id) => <input id={id} type="number" min={1} max={100} value={tests} onInput={(e) => setTests(valueOf(e))} />}
      </Field>
      <ErrorBox error={action.error ?? agents.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Start campaign
      </button>
    </form>
  );
}

export function RedteamList() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const list = useLoad(() => get('/v1/campaigns', { team_id: team, limit: PAGE, offset }), [team, offset]);
  const agents = useLoad(() => get('/v1/agent-configurations/', { team_id: team, limit: 1000 }), [team]);
  const names = new Map<string, string>(itemsOf(agents.data).map((a) => [a.id as string, a.agent_name as string]));
  const rows = itemsOf(list.data);
  return (
    <Page title="Red team">
      <div class="grid2">
        <Card title="Start a campaign">
          <StartCampaign />
        </Card>
        <Card title="Campaigns">
          <ErrorBox error={list.error} />
          {list.loading && !list.data ? <Loading /> : null}
          <TableWrap label="Red-team campaigns">
            <table>
              <caption class="sr-only">Red-team campaigns</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">Agent</th>
                  <th scope="col">Categories</th>
                  <th scope="col">Status</th>
                  <th scope="col">Attacks that worked</th>
                </tr>
              </thead>
              <tbody>
                {rows.map((c) => (
                  <tr key={c.campaign_id}>
                    <td>
                      <Link href={`/redteam/${c.campaign_id}`}>{fmtDate(c.created_at)}</Link>
                    </td>
                    <td>{c.agent_id ? (names.get(c.agent_id) ?? c.agent_id.slice(0, 8)) : (c.agent_url ?? '—')}</td>
                    <td>{(c.categories ?? []).join(', ')}</td>
                    <td>{c.status}</td>
                    <td>{c.summary ? `${c.summary.failed ?? 0} of ${c.summary.total_tests ?? 0}` : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
          <Pager offset={offset} limit={PAGE} shown={rows.length} onChange={setOffset} />
        </Card>
      </div>
    </Page>
  );
}

export function CampaignPage({ id }: { id: string }) {
  const { team } = useApp();
  const status = useLoad(() => get(`/v1/campaigns/${id}`), [id]);
  // The status answer names no agent; the team's list does (newest first, so a recent campaign is on its first page).
  const listed = useLoad(() => get('/v1/campaigns', { team_id: team, limit: 1000 }), [team, id]);
  const agentId: string | null = itemsOf(listed.data).find((c) => c.campaign_id === id)?.agent_id ?? null;
  const agent = useLoad(() => (agentId ? get(`/v1/agent-configurations/${agentId}`) : Promise.resolve(null)), [agentId]);
  const [applied, setApplied] = useState(false);
  const running = status.data ? RUNNING.has(status.data.status) : true;
  usePoll(running && !status.error, status.reload, 1000);
  // The results answer pages by size (next_offset); the offsets already seen make "Previous".
  const [offsets, setOffsets] = useState<number[]>([0]);
  const pageOffset = offsets[offsets.length - 1] ?? 0;
  const results = useLoad(
    () => (status.data && !running ? get(`/v1/campaigns/${id}/results`, { offset: pageOffset }) : Promise.resolve(null)),
    [id, running, pageOffset],
  );
  const [category, setCategory] = useState('');
  const [severity, setSeverity] = useState('');
  const [outcome, setOutcome] = useState('');
  const action = useAction();
  if (!status.data) return status.error ? <ErrorBox error={status.error} /> : <Loading />;
  const s = status.data;
  const r = results.data;
  const findings = ((r?.findings ?? []) as any[]).filter(
    (f) => (!category || f.category === category) && (!severity || f.severity === severity) && (!outcome || (outcome === 'worked' ? !f.passed : f.passed)),
  );
  const byCategory = r?.raw_output?.attack_success_rate?.by_category ?? {};
  const overallRate = r?.raw_output?.attack_success_rate?.overall;
  const suggestion = r?.raw_output?.suggested_dome_config;
  const applySuggestion = () =>
    action.run(async () => {
      if (!agentId) throw new Error('The campaign names no registered agent to apply guards to.');
      const config = await api('POST', '/v1/dome-configs', { config_body: suggestion.config_body, agent_id: agentId }, { team_id: team });
      await api('POST', `/v1/dome-configs/${config.id}/apply`, undefined, { team_id: team });
      setApplied(true);
      return `Saved and applied configuration ${config.id.slice(0, 8)}: the suggested guards protect the agent now.`;
    });
  const downloadPath = `/v1/campaigns/${id}/results/download`;
  const categories = [...new Set(((r?.findings ?? []) as any[]).map((f) => f.category))];
  return (
    <Page title="Red-team campaign">
      <p>
        <Badge tone={s.status === 'completed' ? 'good' : s.status === 'failed' ? 'bad' : 'info'}>{s.status}</Badge>{' '}
        <span class="muted">created {fmtDate(s.created_at)}</span>
        {agentId ? (
          <>
            {' '}
            · against <Link href={`/agents/${agentId}`}>{agent.data?.agent_name ?? 'the agent'}</Link>
          </>
        ) : null}
      </p>
      <ErrorBox error={action.error ?? s.error_message ?? results.error} />
      <Note note={action.note} />
      {running ? (
        <Card title="Progress">
          <Progress done={s.progress?.done ?? s.progress?.completed} total={s.progress?.total} label={s.status_message ?? 'Waiting for a worker'} />
          <p class="muted" aria-live="polite">
            {s.status_message}
          </p>
        </Card>
      ) : null}
      {r ? (
        <>
          <div class="grid2">
            <Card title="Summary">
              <p>
                {r.summary?.total_tests ?? 0} attacks · <strong>{r.summary?.failed ?? 0} worked</strong> · {r.summary?.passed ?? 0} resisted ·{' '}
                {r.summary?.errors ?? 0} errors
              </p>
              {overallRate ? (
                <p>
                  Attack success rate <strong>{percent(rateOf(overallRate))}</strong>
                  {intervalOf(overallRate) ? (
                    <span class="muted">
                      {' '}
                      (95% {percent(intervalOf(overallRate)![0])}–{percent(intervalOf(overallRate)![1])}, n={overallRate.n})
                    </span>
                  ) : null}
                </p>
              ) : null}
              <BarChart title="Attack success rate by category (95% intervals)" bars={rateBars(byCategory)} max={1} format={percent} />
              <BarChart
                title="Attack success rate by strategy (95% intervals)"
                bars={rateBars(r?.raw_output?.attack_success_rate?.by_strategy)}
                max={1}
                format={percent}
              />
              <div class="row">
                {(['json', 'csv', 'jsonl'] as const).map((format) => (
                  <button
                    key={format}
                    type="button"
                    class="small"
                    onClick={() => action.run(async () => `Saved ${await download(downloadPath, `results_${id}.${format}`, { format })}.`)}
                  >
                    Download {format.toUpperCase()}
                  </button>
                ))}
              </div>
            </Card>
            <Card title="Suggested guards">
              {suggestion ? (
                <>
                  <p>
                    Would stop {suggestion.would_stop} of {suggestion.successful_attacks} successful attacks.
                  </p>
                  <ul class="plain">
                    {(suggestion.added_guards ?? []).map((g: any, i: number) => (
                      <li key={i}>
                        {g.name ?? g.method ?? g.guard ?? JSON.stringify(g).slice(0, 60)}{' '}
                        {g.would_stop !== undefined ? <span class="muted">stops {g.would_stop}</span> : null}
                      </li>
                    ))}
                  </ul>
                  <button type="button" class="primary" disabled={action.busy || applied} onClick={applySuggestion}>
                    {applied ? 'Applied' : 'Apply the suggested guards'}
                  </button>
                </>
              ) : (
                <p class="muted">No guard suggestion: nothing an offline guard would have caught.</p>
              )}
            </Card>
          </div>
          <Card title="Findings">
            <form class="filters" onSubmit={(e) => e.preventDefault()}>
              <Field label="Category">
                {(fid) => (
                  <select id={fid} value={category} onChange={(e) => setCategory(valueOf(e))}>
                    <option value="">Any</option>
                    {categories.map((c) => (
                      <option key={c}>{c}</option>
                    ))}
                  </select>
                )}
              </Field>
              <Field label="Severity">
                {(fid) => (
                  <select id={fid} value={severity} onChange={(e) => setSeverity(valueOf(e))}>
                    <option value="">Any</option>
                    <option>critical</option>
                    <option>high</option>
                    <option>medium</option>
                    <option>low</option>
                  </select>
                )}
              </Field>
              <Field label="Outcome">
                {(fid) => (
                  <select id={fid} value={outcome} onChange={(e) => setOutcome(valueOf(e))}>
                    <option value="">Any</option>
                    <option value="worked">Attack worked</option>
                    <option value="resisted">Resisted</option>
                  </select>
                )}
              </Field>
            </form>
            <TableWrap label="Findings">
              <table class="wide">
                <caption class="sr-only">Findings</caption>
                <thead>
                  <tr>
                    <th scope="col">Category</th>
                    <th scope="col">Severity</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Attack</th>
                    <th scope="col">Answer</th>
                  </tr>
                </thead>
                <tbody>
                  {findings.map((f, i) => (
                    <tr key={i}>
                      <td>{f.category}</td>
                      <td>{f.severity}</td>
                      <td>
                        {f.passed ? <Badge tone="good">resisted</Badge> : <Badge tone="bad">worked</Badge>}
                        {f.metadata?.reason ? <div class="muted small">{String(f.metadata.reason).slice(0, 200)}</div> : null}
                      </td>
                      <td class="clip">{String(f.attack_prompt).slice(0, 200)}</td>
                      <td class="clip">{String(f.agent_response).slice(0, 200)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </TableWrap>
            {r.raw_output?.next_offset !== null && r.raw_output?.next_offset !== undefined ? (
              <p class="muted small">The filters apply to the findings of this page; the downloads hold every finding.</p>
            ) : null}
            <nav class="pager" aria-label="Pages of findings">
              <button type="button" disabled={offsets.length < 2} onClick={() => setOffsets(offsets.slice(0, -1))}>
                Previous
              </button>
              <span>
                {(r.findings ?? []).length === 0 ? 0 : pageOffset + 1}–{pageOffset + (r.findings ?? []).length} of{' '}
                {r.raw_output?.findings_total ?? r.summary?.total_tests ?? '?'}
              </span>
              <button
                type="button"
                disabled={typeof r.raw_output?.next_offset !== 'number'}
                onClick={() => setOffsets([...offsets, r.raw_output.next_offset as number])}
              >
                Next
              </button>
            </nav>
          </Card>
        </>
      ) : null}
    </Page>
  );
}
