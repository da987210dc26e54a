import { useState } from 'preact/hooks';
import { api, session } from '../api';
import { navigate } from '../router';
import { ErrorBox, Field, useAction, valueOf } from '../ui';

export function SignIn({ onSignedIn }: { onSignedIn: () => Promise<void> }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await api<{ access_token: string }>('POST', '/v1/auth/jwt/login', { email, password });
      session.setToken(answer.access_token);
      // Back to the page asked for: `next` after a 401, else the address the user opened.
      const here = location.pathname === '/sign-in' ? '/' : location.pathname + location.search;
      const next = new URLSearchParams(location.search).get('next') ?? here;
      navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', true);
      await onSignedIn();
    });
  };
  return (
    <section class="card signin" aria-labelledby="signin-title">
      <h1 id="signin-title">Sign in to Warden</h1>
      <p class="muted">
        On a first start the account is <code>admin@warden.local</code>, its password in <code>data/initial-admin.txt</code>.
      </p>
      <form onSubmit={submit}>
        <Field label="Email">
          {(id) => (
            <input id={id} type="email" autoComplete="username" required value={email} onInput={(e) => setEmail(valueOf(e))} />
          )}
        </Field>
        <Field label="Password">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={password}
              onInput={(e) => setPassword(valueOf(e))}
            />
          )}
        </Field>
        <ErrorBox error={action.error} />
        <button type="submit" class="primary" disabled={action.busy}>
          {action.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </section>
  );
}

export function ChangePassword({ first, onChanged, onSignOut }: { first?: boolean; onChanged: () => Promise<void>; onSignOut?: () => Promise<void> }) {
  const Heading = first ? 'h1' : 'h2';
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [again, setAgain] = useState('');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      if (next !== again) throw new Error('The two new passwords differ.');
      const answer = await api<{ access_token?: string }>('POST', '/v1/auth/change-password', { current_password: current, new_password: next });
      if (answer?.access_token) session.setToken(answer.access_token);
      await onChanged();
      return 'Password changed.';
    });
  };
  return (
    <section class="card signin" aria-labelledby="password-title">
      <Heading id="password-title">{first ? 'Choose your own password' : 'Change your password'}</Heading>
      {first ? <p>Your account was made with a password someone else set: choose yours before going on.</p> : null}
      <form onSubmit={submit}>
        <Field label="Current password">
          {(id) => (
            <input
              id={id}
              type="password"
              autoComplete="current-password"
              required
              value={current}
              onInput={(e) => setCurrent(valueOf(e))}
            />
          )}
        </Field>
        <Field label="New password">
          {(id) => (
            <input id={id} type="password" autoComplete="new-password" required value={next} onInput={(e) => setNext(valueOf(e))} />
          )}
        </Field>
        <Field label="New password again">
          {(id) => (
            <input id={id} type="password" autoComplete="new-password" required value={again} onInput={(e) => setAgain(valueOf(e))} />
          )}
        </Field>
        <ErrorBox error={action.error} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.busy}>
            Change password
          </button>
          {onSignOut ? (
            <button type="button" onClick={() => void onSignOut()}>
              Sign out
            </button>
          ) : null}
        </div>
      </form>
    </section>
  );
}
