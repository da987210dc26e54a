import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import './styles.css';
import { api, get, session } from './api';
import { Link, match, navigate, useLocation } from './router';
import { AppContext, type Me } from './context';
import { SignIn, ChangePassword } from './pages/signin';
import { Dashboard } from './pages/dashboard';
import { AgentList, AgentRegister } from './pages/agents';
import { AgentPage } from './pages/agent';
import { PolicyList, PolicyPage, RuleQueue } from './pages/policies';
import { EvaluationList, EvaluationPage } from './pages/evaluations';
import { Guardrails } from './pages/guardrails';
import { RedteamList, CampaignPage } from './pages/redteam';
import { InvitationPage, TeamPage } from './pages/team';
import { PersonasPage } from './pages/personas';
import { TelemetryPage } from './pages/telemetry';
import { ErrorBox, Loading, valueOf } from './ui';

const NAV: { href: string; label: string }[] = [
  { href: '/', label: 'Dashboard' },
  { href: '/agents', label: 'Agents' },
  { href: '/policies', label: 'Policies' },
  { href: '/evaluations', label: 'Evaluations' },
  { href: '/guardrails', label: 'Guardrails' },
  { href: '/redteam', label: 'Red team' },
  { href: '/telemetry', label: 'Telemetry' },
  { href: '/personas', label: 'Personas' },
  { href: '/team', label: 'Team' },
];

type Theme = 'light' | 'dark' | 'system';
function applyTheme(theme: Theme) {
  if (theme === 'system') delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = theme;
}

function Routes() {
  const { path } = useLocation();
  let params: Record<string, string> | null;
  if (path === '/' || path === '/dashboard') return <Dashboard />;
  if (path === '/agents') return <AgentList />;
  if (path === '/agents/new') return <AgentRegister />;
  if ((params = match('/agents/:id', path))) return <AgentPage id={params.id as string} />;
  if (path === '/policies') return <PolicyList />;
  if (path === '/policies/review') return <RuleQueue />;
  if ((params = match('/policies/:id', path))) return <PolicyPage id={params.id as string} />;
  if (path === '/evaluations') return <EvaluationList />;
  if ((params = match('/evaluations/:id', path))) return <EvaluationPage id={params.id as string} />;
  if (path === '/guardrails') return <Guardrails />;
  if (path === '/redteam') return <RedteamList />;
  if ((params = match('/redteam/:id', path))) return <CampaignPage id={params.id as string} />;
  if (path === '/team') return <TeamPage />;
  if ((params = match('/invitations/:id', path))) return <InvitationPage id={params.id as string} />;
  if (path === '/personas') return <PersonasPage />;
  if (path === '/telemetry') return <TelemetryPage />;
  return (
    <section class="page">
      <h1>Not found</h1>
      <p>
        The console has no page at <code>{path}</code>. <Link href="/">Back to the dashboard</Link>.
      </p>
    </section>
  );
}

function App() {
  const { path } = useLocation();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [teams, setTeams] = useState<{ team_id: string; team_name: string; role: string }[]>([]);
  const [team, setTeam] = useState<string | null>(session.team());
  const [error, setError] = useState<string | null>(null);
  const [theme, setTheme] = useState<Theme>((sessionStorage.getItem('warden.theme') as Theme | null) ?? 'system');
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => applyTheme(theme), [theme]);
  useEffect(() => setMenuOpen(false), [path]);

  const loadMe = async () => {
    if (!session.token()) {
      setMe(null);
      return;
    }
    try {
      const user = await get<Me>('/v1/users/me');
      const memberships = await get<{ team_id: string; team_name: string; role: string }[]>('/v1/users/me/teams');
      setTeams(memberships);
      const chosen = memberships.find((m) => m.team_id === session.team()) ?? memberships[0];
      session.setTeam(chosen?.team_id ?? null);
      setTeam(chosen?.team_id ?? null);
      setMe(user);
      setError(null);
    } catch (err) {
      setError(err instanceof Error ? err.message : String(err));
      setMe(null);
    }
  };

  useEffect(() => {
    session.onUnauthorized(() => {
      session.setToken(null);
      setMe(null);
      if (location.pathname !== '/sign-in') navigate(`/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`, true);
    });
    void loadMe();
  }, []);

  const signOut = async () => {
    try {
      await api('POST', '/v1/auth/jwt/logout');
    } catch {
      // Signing out locally is what matters; the token is dropped either way.
    }
    session.setToken(null);
    session.setTeam(null);
    setMe(null);
    navigate('/sign-in', true);
  };

  if (me === undefined) return <Loading what="Opening the console" />;
  if (me === null || path === '/sign-in') {
    return (
      <main id="main" class="signin-shell">
        <ErrorBox error={error} />
        <SignIn onSignedIn={loadMe} />
      </main>
    );
  }
  if (me.password_change_required) {
    return (
      <main id="main" class="signin-shell">
        <ChangePassword first onChanged={loadMe} onSignOut={signOut} />
      </main>
    );
  }

  return (
    <AppContext.Provider value={{ me, team, teams, reloadMe: loadMe }}>
      <a href="#main" class="skip">
        Skip to content
      </a>
      <header class="topbar">
        <button type="button" class="menu-toggle" aria-expanded={menuOpen} aria-controls="nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <Link href="/" class="brand">
          Warden
        </Link>
        <div class="topbar-tools">
          {teams.length > 1 ? (
            <label class="inline">
              <span>Team</span>
              <select
                value={team ?? ''}
                onChange={(e) => {
                  const value = valueOf(e);
                  session.setTeam(value);
                  setTeam(value);
                }}
              >
                {teams.map((t) => (
                  <option key={t.team_id} value={t.team_id}>
                    {t.team_name}
                  </option>
                ))}
              </select>
            </label>
          ) : (
            <span class="muted">{teams[0]?.team_name}</span>
          )}
          <label class="inline">
            <span>Theme</span>
            <select
              value={theme}
              onChange={(e) => {
                const value = valueOf(e) as Theme;
                sessionStorage.setItem('warden.theme', value);
                setTheme(value);
              }}
            >
              <option value="system">System</option>
              <option value="light">Light</option>
              <option value="dark">Dark</option>
            </select>
          </label>
          <span class="muted who">{me.email}</span>
          <button type="button" onClick={signOut}>
            Sign out
          </button>
        </div>
      </header>
      <div class="layout">
        <nav id="nav" aria-label="Main" class={menuOpen ? 'open' : ''}>
          <ul>
            {NAV.map((item) => (
              <li key={item.href}>
                <Link href={item.href} current={item.href === '/' ? path === '/' : path.startsWith(item.href)}>
                  {item.label}
                </Link>
              </li>
            ))}
            <li>
              <a href="/docs">API docs</a>
            </li>
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {team || path.startsWith('/invitations/') ? (
            <Routes />
          ) : (
            <p class="error" role="alert">
              You belong to no team yet: ask an administrator to add you to one.
            </p>
          )}
        </main>
      </div>
    </AppContext.Provider>
  );
}

render(<App />, document.getElementById('app') as HTMLElement);
