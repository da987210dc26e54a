import { useState } from 'preact/hooks';
import { api, get, itemsOf, session } from '../api';
import { navigate } from '../router';
import { useApp } from '../context';
import { ChangePassword } from './signin';
import { Badge, Card, ErrorBox, Field, Note, Page, Pager, fmtDate, useAction, useLoad, valueOf, TableWrap } from '../ui';

const ROLES = ['MEMBER', 'ADMIN', 'OWNER'];
const PAGE = 20;

function Members({ teamId, manager }: { teamId: string; manager: boolean }) {
  const members = useLoad(() => get(`/v1/teams/${teamId}/users`), [teamId]);
  const [offset, setOffset] = useState(0);
  const action = useAction();
  const rows = itemsOf(members.data);
  const setRole = (userId: string, role: string) =>
    action.run(async () => {
      await api('PATCH', `/v1/teams/${teamId}/users/${userId}`, { role });
      members.reload();
      return 'Role changed.';
    });
  const remove = (userId: string) =>
    action.run(async () => {
      await api('DELETE', `/v1/teams/${teamId}/users/${userId}`);
      members.reload();
      return 'Removed from the team.';
    });
  return (
    <>
      <ErrorBox error={members.error ?? action.error} />
      <Note note={action.note} />
      <TableWrap label="Members">
        <table>
          <caption class="sr-only">Members</caption>
          <thead>
            <tr>
              <th scope="col">Email</th>
              <th scope="col">Role</th>
              <th scope="col">Joined</th>
              {manager ? <th scope="col">Actions</th> : null}
            </tr>
          </thead>
          <tbody>
            {rows.slice(offset, offset + PAGE).map((m) => (
              <tr key={m.id}>
                <td>{m.email}</td>
                <td>
                  {manager ? (
                    <select aria-label={`Role of ${m.email}`} value={m.role} onChange={(e) => setRole(m.id, valueOf(e))}>
                      {ROLES.map((r) => (
                        <option key={r}>{r}</option>
                      ))}
                    </select>
                  ) : (
                    <Badge>{m.role}</Badge>
                  )}
                </td>
                <td>{fmtDate(m.joined_at)}</td>
                {manager ? (
                  <td>
                    <button type="button" class="small" onClick={() => remove(m.id)} aria-label={`Remove ${m.email}`}>
                      Remove
                    </button>
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <Pager offset={offset} limit={PAGE} shown={Math.min(PAGE, Math.max(0, rows.length - offset))} total={rows.length} onChange={setOffset} />
    </>
  );
}

function Invitations({ teamId }: { teamId: string }) {
  const invites = useLoad(() => get(`/v1/teams/${teamId}/invites`), [teamId]);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('MEMBER');
  const [offset, setOffset] = useState(0);
  const action = useAction();
  const rows = itemsOf(invites.data);
  const invite = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', `/v1/teams/${teamId}/invites`, { email, role });
      setEmail('');
      invites.reload();
      return `Invited ${email}: send them the link below; they accept it signed in to their account.`;
    });
  };
  return (
    <>
      <form onSubmit={invite} class="row">
        <Field label="Email">{(id) => <input id={id} type="email" required value={email} onInput={(e) => setEmail(valueOf(e))} />}</Field>
        <Field label="Role">
          {(id) => (
            <select id={id} value={role} onChange={(e) => setRole(valueOf(e))}>
              {ROLES.map((r) => (
                <option key={r}>{r}</option>
              ))}
            </select>
          )}
        </Field>
        <button type="submit" disabled={action.busy}>
          Invite
        </button>
      </form>
      <ErrorBox error={invites.error ?? action.error} />
      <Note note={action.note} />
      <ul class="plain">
        {rows.slice(offset, offset + PAGE).map((i) => (
          <li key={i.id}>
            {i.email} <Badge>{i.role}</Badge> <span class="muted">{i.status} · expires {fmtDate(i.expires_at)}</span>
            <div class="small">
              Link to send: <code class="secret-value">{`${location.origin}/invitations/${i.id}`}</code>
            </div>
          </li>
        ))}
        {invites.data && rows.length === 0 ? <li class="muted">No pending invitation.</li> : null}
      </ul>
      <Pager offset={offset} limit={PAGE} shown={Math.min(PAGE, Math.max(0, rows.length - offset))} total={rows.length} onChange={setOffset} />
    </>
  );
}

function AddUser({ teamId }: { teamId: string }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      await api('POST', '/v1/users/', { email, password, team_id: teamId });
      setEmail('');
      setPassword('');
      return `Account made for ${email}: they choose their own password at first sign-in.`;
    });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Email">{(id) => <input id={id} type="email" required value={email} onInput={(e) => setEmail(valueOf(e))} />}</Field>
      <Field label="First password">
        {(id) => <input id={id} type="password" autoComplete="new-password" required value={password} onInput={(e) => setPassword(valueOf(e))} />}
      </Field>
      <ErrorBox error={action.error} />
      <Note note={action.note} />
      <button type="submit" disabled={action.busy}>
        Create account
      </button>
    </form>
  );
}

function ApiKeys() {
  const keys = useLoad(() => get('/v1/api-keys/'), []);
  const [name, setName] = useState('');
  const [permissions, setPermissions] = useState('');
  const [secret, setSecret] = useState<string | null>(null);
  const [offset, setOffset] = useState(0);
  const action = useAction();
  const rows = itemsOf(keys.data);
  const create = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const list = permissions
        .split(/[\s,]+/)
        .map((p) => p.trim())
        .filter(Boolean);
      const created = await api('POST', '/v1/api-keys/', { name, permissions: list.length ? list : null });
      setSecret(created.key);
      setName('');
      keys.reload();
    });
  };
  const revoke = (id: string) =>
    action.run(async () => {
      await api('DELETE', `/v1/api-keys/${id}`);
      keys.reload();
      return 'Key revoked.';
    });
  return (
    <>
      <form onSubmit={create}>
        <Field label="Key name">{(id) => <input id={id} required value={name} onInput={(e) => setName(valueOf(e))} />}</Field>
        <Field label="Permissions" hint="e.g. agent:read evaluation:write; empty: all of yours">
          {(id) => <input id={id} value={permissions} onInput={(e) => setPermissions(valueOf(e))} />}
        </Field>
        <button type="submit" disabled={action.busy}>
          Create key
        </button>
      </form>
      {secret ? (
        <div class="secret" role="status">
          <p>
            <strong>Copy this key now: it is shown once.</strong>
          </p>
          <code class="secret-value">{secret}</code>{' '}
          <button type="button" class="small" onClick={() => setSecret(null)}>
            I have copied it
          </button>
        </div>
      ) : null}
      <ErrorBox error={keys.error ?? action.error} />
      <Note note={action.note} />
      <ul class="plain">
        {rows.slice(offset, offset + PAGE).map((k) => (
          <li key={k.id}>
            <strong>{k.name}</strong> <span class="muted">{(k.permissions ?? ['all of yours']).join(', ')} · made {fmtDate(k.created_at)}</span>{' '}
            {k.revoked_at ? (
              <Badge tone="bad">revoked</Badge>
            ) : (
              <button type="button" class="small" onClick={() => revoke(k.id)} aria-label={`Revoke ${k.name}`}>
                Revoke
              </button>
            )}
          </li>
        ))}
      </ul>
      <Pager offset={offset} limit={PAGE} shown={Math.min(PAGE, Math.max(0, rows.length - offset))} total={rows.length} onChange={setOffset} />
    </>
  );
}

/** A super admin's new team, owned by them at first (they invite its people and may hand it over). */
function NewTeam() {
  const { me, reloadMe } = useApp();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const action = useAction();
  const submit = (e: Event) => {
    e.preventDefault();
    void action.run(async () => {
      const team = await api('POST', '/v1/teams/', { name, description: description || null }, { owner_id: me.id });
      session.setTeam(team.id);
      await reloadMe();
      setName('');
      setDescription('');
      return `Team ${team.name} made, and chosen in the top bar: invite its people here.`;
    });
  };
  return (
    <form onSubmit={submit}>
      <Field label="Team name">{(id) => <input id={id} required maxLength={255} value={name} onInput={(e) => setName(valueOf(e))} />}</Field>
      <Field label="Description">
        {(id) => <input id={id} maxLength={1000} value={description} onInput={(e) => setDescription(valueOf(e))} />}
      </Field>
      <ErrorBox error={action.error} />
      <Note note={action.note} />
      <button type="submit" disabled={action.busy}>
        Create team
      </button>
    </form>
  );
}

/** An invitation's link, opened by the person invited (signed in to their own account): accepting it makes them a member. */
export function InvitationPage({ id }: { id: string }) {
  const { reloadMe } = useApp();
  const action = useAction();
  const accept = () =>
    action.run(async () => {
      const membership = await api('POST', `/v1/teams/invites/${id}/accept`);
      // Into the team just joined.
      if (membership?.team_id) session.setTeam(membership.team_id);
      await reloadMe();
      navigate('/team');
    });
  return (
    <Page title="An invitation to a team">
      <p>Someone invited you to their team in Warden. Accepting makes you a member with the role they chose; you can switch teams in the top bar.</p>
      <ErrorBox error={action.error} />
      <button type="button" class="primary" disabled={action.busy} onClick={accept}>
        Accept the invitation
      </button>
    </Page>
  );
}

export function TeamPage() {
  const { team, teams, me, reloadMe } = useApp();
  const info = useLoad(() => get(`/v1/teams/${team}`), [team]);
  const role = teams.find((t) => t.team_id === team)?.role;
  const manager = me.is_super_admin || role === 'OWNER' || role === 'ADMIN';
  return (
    <Page title={info.data?.name ?? 'Team'}>
      <ErrorBox error={info.error} />
      {info.data?.description ? <p>{info.data.description}</p> : null}
      <p class="muted">Your role: {role ?? '—'}</p>
      <div class="grid2">
        <Card title="Members">
          <Members teamId={team as string} manager={manager} />
        </Card>
        {manager ? (
          <Card title="Invitations">
            <Invitations teamId={team as string} />
          </Card>
        ) : null}
        {manager ? (
          <Card title="Add a person">
            <AddUser teamId={team as string} />
          </Card>
        ) : null}
        <Card title="API keys">
          <ApiKeys />
        </Card>
        <ChangePassword onChanged={reloadMe} />
        {me.is_super_admin ? (
          <Card title="New team (super admins)">
            <NewTeam />
          </Card>
        ) : null}
      </div>
    </Page>
  );
}
