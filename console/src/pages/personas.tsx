import { useState } from 'preact/hooks';
import { api, get, itemsOf, totalOf } from '../api';
import { useApp } from '../context';
import { Badge, Card, ErrorBox, Field, Note, Page, Pager, useAction, useLoad, valueOf, checkedOf } from '../ui';

const PAGE = 10;
const INTENTS = ['benign', 'curious', 'adversarial', 'malicious'];
const KNOWLEDGE_LEVELS = ['beginner', 'intermediate', 'advanced', 'expert'];

function Personas() {
  const { team } = useApp();
  const [offset, setOffset] = useState(0);
  const [search, setSearch] = useState('');
  const list = useLoad(() => get('/v1/personas/', { team_id: team, limit: PAGE, offset, search: search || undefined }), [team, offset, search]);
  const [presetOffset, setPresetOffset] = useState(0);
  const presets = useLoad(() => get('/v1/personas/presets/', { limit: 5, offset: presetOffset }), [presetOffset]);
  const blank = { name: '', role: '', description: '', intent: 'benign', knowledge_level: 'intermediate' };
  const [form, setForm] = useState(blank);
  const action = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', '/v1/personas/', { ...form, description: form.description || null, team_id: team });
      setForm(blank);
      list.reload();
      return 'Persona created.';
    });
  };
  const fromPreset = (id: string) =>
    action.run(async () => {
      await api('POST', `/v1/personas/from-preset/${id}`, null, { team_id: team });
      list.reload();
      return 'Persona copied from the preset.';
    });
  const remove = (id: string) =>
    action.run(async () => {
      await api('DELETE', `/v1/personas/${id}`);
      list.reload();
      return 'Persona deleted.';
    });
  return (
    <>
      <Field label="Search personas">
        {(id) => <input id={id} type="search" value={search} onInput={(e) => (setSearch(valueOf(e)), setOffset(0))} />}
      </Field>
      <ErrorBox error={list.error ?? action.error} />
      <Note note={action.note} />
      <ul class="plain">
        {itemsOf(list.data).map((p) => (
          <li key={p.id}>
            <strong>{p.name}</strong> <span class="muted">{p.role}</span> <Badge>{p.intent}</Badge> <Badge>{p.knowledge_level}</Badge>{' '}
            {p.is_preset ? null : (
              <button type="button" class="small" onClick={() => remove(p.id)} aria-label={`Delete ${p.name}`}>
                Delete
              </button>
            )}
          </li>
        ))}
        {list.data && itemsOf(list.data).length === 0 ? <li class="muted">No persona yet.</li> : null}
      </ul>
      <Pager offset={offset} limit={PAGE} shown={itemsOf(list.data).length} total={totalOf(list.data)} onChange={setOffset} />
      <h3>New persona</h3>
      <form onSubmit={create}>
        <Field label="Name">{(id) => <input id={id} required value={form.name} onInput={(e) => setForm({ ...form, name: valueOf(e) })} />}</Field>
        <Field label="Role">{(id) => <input id={id} required value={form.role} onInput={(e) => setForm({ ...form, role: valueOf(e) })} />}</Field>
        <Field label="Description">
          {(id) => <input id={id} value={form.description} onInput={(e) => setForm({ ...form, description: valueOf(e) })} />}
        </Field>
        <div class="filters">
          <Field label="Intent">
            {(id) => (
              <select id={id} value={form.intent} onChange={(e) => setForm({ ...form, intent: valueOf(e) })}>
                {INTENTS.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label="Knowledge">
            {(id) => (
              <select id={id} value={form.knowledge_level} onChange={(e) => setForm({ ...form, knowledge_level: valueOf(e) })}>
                {KNOWLEDGE_LEVELS.map((v) => (
                  <option key={v}>{v}</option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <button type="submit" disabled={action.busy}>
          Create persona
        </button>
      </form>
      <h3>Presets</h3>
      <ErrorBox error={presets.error} />
      <ul class="plain">
        {itemsOf(presets.data).map((p) => (
          <li key={p.id}>
            {p.name} <span class="muted">{p.role}</span>{' '}
            <button type="button" class="small" onClick={() => fromPreset(p.id)} aria-label={`Copy preset ${p.name}`}>
              Copy
            </button>
          </li>
        ))}
      </ul>
      <Pager offset={presetOffset} limit={5} shown={itemsOf(presets.data).length} total={totalOf(presets.data)} onChange={setPresetOffset} />
    </>
  );
}

const VALUES_PAGE = 20;

function Dimensions() {
  const [offset, setOffset] = useState(0);
  const list = useLoad(() => get('/v1/dimensions/', { limit: PAGE, offset }), [offset]);
  const [open, setOpen] = useState<string | null>(null);
  const [valueOffset, setValueOffset] = useState(0);
  const values = useLoad(
    () => (open ? get(`/v1/dimensions/${open}/values`, { limit: VALUES_PAGE, offset: valueOffset }) : Promise.resolve(null)),
    [open, valueOffset],
  );
  const [form, setForm] = useState({ name: '', display_name: '', protected_class: false });
  const [value, setValue] = useState('');
  const action = useAction();
  const create = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', '/v1/dimensions/', form);
      setForm({ name: '', display_name: '', protected_class: false });
      list.reload();
      return 'Dimension created.';
    });
  };
  const addValue = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', `/v1/dimensions/${open}/values`, { value, display_name: value });
      setValue('');
      values.reload();
      return 'Value added.';
    });
  };
  return (
    <>
      <ErrorBox error={list.error ?? action.error} />
      <Note note={action.note} />
      <ul class="plain">
        {itemsOf(list.data).map((d) => (
          <li key={d.id}>
            <button type="button" class="link" aria-expanded={open === d.id} onClick={() => (setOpen(open === d.id ? null : d.id), setValueOffset(0))}>
              {d.display_name}
            </button>{' '}
            <span class="muted">{d.name}</span> {d.protected_class ? <Badge tone="warn">protected class</Badge> : null}
            {open === d.id ? (
              <div class="nested">
                <ErrorBox error={values.error} />
                <p>{itemsOf(values.data).map((v) => v.display_name ?? v.value).join(', ') || <span class="muted">No value yet.</span>}</p>
                <Pager
                  offset={valueOffset}
                  limit={VALUES_PAGE}
                  shown={itemsOf(values.data).length}
                  total={totalOf(values.data)}
                  onChange={setValueOffset}
                />
                <form onSubmit={addValue} class="row">
                  <Field label="New value">{(id) => <input id={id} required value={value} onInput={(e) => setValue(valueOf(e))} />}</Field>
                  <button type="submit" class="small">
                    Add
                  </button>
                </form>
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} shown={itemsOf(list.data).length} total={totalOf(list.data)} onChange={setOffset} />
      <h3>New dimension</h3>
      <form onSubmit={create}>
        <Field label="Name (identifier)">
          {(id) => <input id={id} required pattern="[a-z0-9_]+" value={form.name} onInput={(e) => setForm({ ...form, name: valueOf(e) })} />}
        </Field>
        <Field label="Display name">
          {(id) => <input id={id} required value={form.display_name} onInput={(e) => setForm({ ...form, display_name: valueOf(e) })} />}
        </Field>
        <label class="check">
          <input type="checkbox" checked={form.protected_class} onChange={(e) => setForm({ ...form, protected_class: checkedOf(e) })} /> Protected class
        </label>
        <button type="submit" disabled={action.busy}>
          Create dimension
        </button>
      </form>
    </>
  );
}

export function PersonasPage() {
  return (
    <Page title="Personas and demographics">
      <div class="grid2">
        <Card title="Personas">
          <Personas />
        </Card>
        <Card title="Demographic dimensions">
          <Dimensions />
        </Card>
      </div>
    </Page>
  );
}
