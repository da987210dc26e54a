import { useState } from 'preact/hooks';
import { api, download, get, itemsOf, totalOf } from '../api';
import { useApp } from '../context';
import { Link, navigate } from '../router';
import { Badge, Card, ErrorBox, Field, Loading, Note, Page, Pager, fmtDate, useAction, useLoad, valueOf, TableWrap } from '../ui';

const CATEGORIES = ['privacy', 'ethics', 'security', 'compliance', 'operational', 'brand', 'custom'];
const PAGE = 20;

function CreatePolicy() {
  const { team } = useApp();
  const [name, setName] = useState('');
  const [category, setCategory] = useState('security');
  const [description, setDescription] = useState('');
  const [text, setText] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const policy = await api('POST', '/v1/policies/', { name, category, description: description || null, source_text: text || null }, { team_id: team });
      navigate(`/policies/${policy.id}`);
    });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Name">{(id) => <input id={id} required value={name} onInput={(e) => setName(valueOf(e))} />}</Field>
      <Field label="Category">
        {(id) => (
          <select id={id} value={category} onChange={(e) => setCategory(valueOf(e))}>
            {CATEGORIES.map((c) => (
              <option key={c}>{c}</option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Description">{(id) => <input id={id} value={description} onInput={(e) => setDescription(valueOf(e))} />}</Field>
      <Field label="Policy text" hint="or upload a document on the policy's page">
        {(id) => <textarea id={id} rows={4} value={text} onInput={(e) => setText(valueOf(e))} />}
      </Field>
      <ErrorBox error={action.error} />
      <button type="submit" class="primary" disabled={action.busy}>
        Create policy
      </button>
    </form>
  );
}

function Presets() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const presets = useLoad(() => get('/v1/policies/presets/', { limit: 10, offset }), [offset]);
  const action = useAction();
  const copy = (id: string) =>
    action.run(async () => {
      const policy = await api('POST', `/v1/policies/presets/${id}/copy`, undefined, { team_id: team });
      navigate(`/policies/${policy.id}`);
    });
  return (
    <div>
      <ErrorBox error={presets.error ?? action.error} />
      <ul class="plain">
        {itemsOf(presets.data).map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> <Badge>{p.category}</Badge>{' '}
            <button type="button" class="small" disabled={action.busy} onClick={() => copy(p.id)}>
              Copy to my team
            </button>
            {p.description ? <div class="muted small">{p.description}</div> : null}
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={10} shown={itemsOf(presets.data).length} total={totalOf(presets.data)} onChange={setOffset} />
    </div>
  );
}

export function PolicyList() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState('');
  const [status, setStatus] = useState('');
  const list = useLoad(
    () => get('/v1/policies/', { team_id: team, limit: PAGE, offset, search: search || undefined, status: status || undefined }),
    [team, offset, search, status],
  );
  const queue = useLoad(() => get('/v1/rules/', { team_id: team, status: 'draft', limit: 1 }), [team]);
  return (
    <Page title="Policies">
      <p>
        Rules waiting for review: <strong>{totalOf(queue.data) ?? '—'}</strong>
        {totalOf(queue.data) ? (
          <>
            {' '}
            · <Link href="/policies/review">Review them</Link>
          </>
        ) : null}
      </p>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <Field label="Search">{(id) => <input id={id} type="search" value={search} onInput={(e) => (setSearch(valueOf(e)), setOffset(0))} />}</Field>
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => (setStatus(valueOf(e)), setOffset(0))}>
              <option value="">Any</option>
              <option>draft</option>
              <option>active</option>
              <option>archived</option>
            </select>
          )}
        </Field>
      </form>
      <ErrorBox error={list.error} />
      {list.loading && !list.data ? (
        <Loading />
      ) : (
        <TableWrap label="Policies of the team">
          <table>
            <caption class="sr-only">Policies of the team</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Category</th>
                <th scope="col">Status</th>
                <th scope="col">Document</th>
                <th scope="col">Updated</th>
              </tr>
            </thead>
            <tbody>
              {itemsOf(list.data).map((p) => (
                <tr key={p.id}>
                  <td>
                    <Link href={`/policies/${p.id}`}>{p.name}</Link>
                  </td>
                  <td>{p.category}</td>
                  <td>
                    <Badge tone={p.status === 'active' ? 'good' : undefined}>{p.status}</Badge>
                  </td>
                  <td>{p.file_name ?? '—'}</td>
                  <td>{fmtDate(p.updated_at)}</td>
                </tr>
              ))}
              {list.data && itemsOf(list.data).length === 0 ? (
                <tr>
                  <td colSpan={5} class="muted">
                    No policy yet.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </TableWrap>
      )}
      <Pager offset={offset} limit={PAGE} shown={itemsOf(list.data).length} total={totalOf(list.data)} onChange={setOffset} />
      <div class="grid2">
        <Card title="New policy">
          <CreatePolicy />
        </Card>
        <Card title="Presets">
          <Presets />
        </Card>
      </div>
    </Page>
  );
}

function RuleRow({ rule, onChanged, policyName }: { rule: any; onChanged: () => void; policyName?: string | undefined }) {
  const action = useAction();
  const [mode, setMode] = useState<'none' | 'reject' | 'modify'>('none');
  const [reason, setReason] = useState('');
  const [text, setText] = useState(rule.natural_language);
  const approve = () =>
    action.run(async () => {
      await api('POST', `/v1/rules/${rule.id}/approve`, undefined, { notes: 'approved in the console' });
      onChanged();
      return 'Approved.';
    });
  const reject = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', `/v1/rules/${rule.id}/reject`, undefined, { reason });
      setMode('none');
      onChanged();
      return 'Rejected.';
    });
  };
  const remove = () =>
    action.run(async () => {
      if (!confirm(`Delete rule ${rule.rule_id}? This cannot be undone.`)) return;
      await api('DELETE', `/v1/rules/${rule.id}`);
      onChanged();
    });
  const modify = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('PATCH', `/v1/rules/${rule.id}`, { natural_language: text });
      setMode('none');
      onChanged();
      return 'Modified.';
    });
  };
  return (
    <li class="rule">
      <div>
        <strong>{rule.rule_id}</strong>{' '}
        <Badge tone={rule.status === 'approved' ? 'good' : rule.status === 'rejected' ? 'bad' : 'warn'}>{rule.status}</Badge>{' '}
        <span class="muted">
          {rule.rule_type} · {rule.action}
        </span>
        {policyName ? (
          <>
            {' '}
            · <Link href={`/policies/${rule.policy_id}`}>{policyName}</Link>
          </>
        ) : null}
      </div>
      <p>{rule.natural_language}</p>
      {rule.review_notes ? <p class="muted small">Review: {rule.review_notes}</p> : null}
      <div class="row">
        <button
          type="button"
          class="primary small"
          disabled={action.busy || rule.status === 'approved'}
          onClick={approve}
          aria-label={`Approve rule ${rule.rule_id}`}
        >
          Approve
        </button>
        <button type="button" class="small" onClick={() => setMode(mode === 'reject' ? 'none' : 'reject')} aria-label={`Reject rule ${rule.rule_id}`}>
          Reject…
        </button>
        <button type="button" class="small" onClick={() => setMode(mode === 'modify' ? 'none' : 'modify')} aria-label={`Modify rule ${rule.rule_id}`}>
          Modify…
        </button>
        <button type="button" class="small" disabled={action.busy} onClick={remove} aria-label={`Delete rule ${rule.rule_id}`}>
          Delete
        </button>
      </div>
      {mode === 'reject' ? (
        <form onSubmit={reject} class="row">
          <Field label="Reason">{(id) => <input id={id} required value={reason} onInput={(e) => setReason(valueOf(e))} />}</Field>
          <button type="submit" class="small">
            Reject
          </button>
        </form>
      ) : null}
      {mode === 'modify' ? (
        <form onSubmit={modify}>
          <Field label="Rule text">{(id) => <textarea id={id} rows={3} value={text} onInput={(e) => setText(valueOf(e))} />}</Field>
          <button type="submit" class="small">
            Save
          </button>
        </form>
      ) : null}
      <ErrorBox error={action.error} />
      <Note note={action.note} />
    </li>
  );
}

export function PolicyPage({ id }: { id: string }) {
  const policy = useLoad(() => get(`/v1/policies/${id}`), [id]);
  const [offset, setOffset] = useState(0);
  const [status, setStatus] = useState('');
  const rules = useLoad(() => get('/v1/rules/', { policy_id: id, status: status || undefined, limit: PAGE, offset }), [id, offset, status]);
  const action = useAction();
  const [file, setFile] = useState<File | null>(null);
  if (policy.loading && !policy.data) return <Loading />;
  if (!policy.data) return <ErrorBox error={policy.error} />;
  const p = policy.data;
  const refresh = () => {
    policy.reload();
    rules.reload();
  };
  const upload = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      if (!file) throw new Error('Choose a file first.');
      const form = new FormData();
      form.append('file', file);
      await api('POST', `/v1/policies/${id}/upload`, form);
      refresh();
      return `Uploaded ${file.name}.`;
    });
  };
  const extract = () =>
    action.run(async () => {
      const answer = await api('POST', `/v1/policies/${id}/extract-rules`);
      refresh();
      const skipped = answer?.skipped ? ` (${answer.skipped} proposals dropped: see docs/policies.md)` : '';
      return `Extracted ${answer?.total ?? itemsOf(answer).length} draft rules${skipped}: review them below.`;
    });
  const activate = () =>
    action.run(async () => {
      await api('POST', `/v1/policies/${id}/activate`);
      refresh();
      return 'The policy is active.';
    });
  return (
    <Page
      title={p.name}
      actions={
        <button type="button" class="primary" onClick={activate} disabled={action.busy || p.status === 'active'}>
          {p.status === 'active' ? 'Active' : 'Activate'}
        </button>
      }
    >
      <p>
        <Badge>{p.category}</Badge> <Badge tone={p.status === 'active' ? 'good' : undefined}>{p.status}</Badge>{' '}
        <span class="muted">updated {fmtDate(p.updated_at)}</span>
      </p>
      {p.description ? <p>{p.description}</p> : null}
      <ErrorBox error={action.error} />
      <Note note={action.note} />
      <div class="grid2">
        <Card title="Document">
          {p.file_name ? (
            <p>
              {p.file_name} ({p.file_type}){' '}
              <button type="button" class="small" onClick={() => action.run(async () => `Saved ${await download(`/v1/policies/${id}/file`, p.file_name)}.`)}>
                Download
              </button>
            </p>
          ) : (
            <p class="muted">No document uploaded.</p>
          )}
          <form onSubmit={upload} class="row">
            <Field label="Upload PDF, DOCX, Markdown or text">
              {(fid) => <input id={fid} type="file" onChange={(e) => setFile((e.target as HTMLInputElement).files?.[0] ?? null)} />}
            </Field>
            <button type="submit" disabled={action.busy}>
              Upload
            </button>
          </form>
          <button type="button" onClick={extract} disabled={action.busy}>
            {action.busy ? 'Working…' : 'Extract rules'}
          </button>
          <p class="muted small">Extraction uses the configured language model; without one the API says so.</p>
        </Card>
        <Card title="Rule review queue">
          <Field label="Show">
            {(fid) => (
              <select id={fid} value={status} onChange={(e) => (setStatus(valueOf(e)), setOffset(0))}>
                <option value="">All rules</option>
                <option value="draft">To review (draft)</option>
                <option value="approved">Approved</option>
                <option value="rejected">Rejected</option>
                <option value="modified">Modified</option>
              </select>
            )}
          </Field>
          <ErrorBox error={rules.error} />
          <ul class="plain rules">
            {itemsOf(rules.data).map((rule) => (
              <RuleRow key={rule.id} rule={rule} onChanged={refresh} />
            ))}
            {rules.data && itemsOf(rules.data).length === 0 ? <li class="muted">No rule here.</li> : null}
          </ul>
          <Pager offset={offset} limit={PAGE} shown={itemsOf(rules.data).length} total={totalOf(rules.data)} onChange={setOffset} />
        </Card>
      </div>
    </Page>
  );
}

/** The team's rules waiting for review (draft), across its policies, oldest policy first as the API lists them. */
export function RuleQueue() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const rules = useLoad(() => get('/v1/rules/', { team_id: team, status: 'draft', limit: PAGE, offset }), [team, offset]);
  const policies = useLoad(() => get('/v1/policies/', { team_id: team, limit: 100 }), [team]);
  const names = new Map<string, string>(itemsOf(policies.data).map((p) => [p.id as string, p.name as string]));
  return (
    <Page title="Rules to review">
      <p class="muted">
        Draft rules of every policy of the team. A policy is activated on its own page once each of its rules is approved (or deleted).{' '}
        <Link href="/policies">All policies</Link>
      </p>
      <ErrorBox error={rules.error} />
      <ul class="plain rules">
        {itemsOf(rules.data).map((rule) => (
          <RuleRow key={rule.id} rule={rule} onChanged={rules.reload} policyName={names.get(rule.policy_id) ?? 'its policy'} />
        ))}
        {rules.data && itemsOf(rules.data).length === 0 ? <li class="muted">Nothing to review.</li> : null}
      </ul>
      <Pager offset={offset} limit={PAGE} shown={itemsOf(rules.data).length} total={totalOf(rules.data)} onChange={setOffset} />
    </Page>
  );
}
