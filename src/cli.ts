import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { startFromConfig } from './runtime.js';

const USAGE = `usage: npm run warden -- <command>

Reads the same WARDEN_* settings as the service (WARDEN_DATABASE_URL, WARDEN_DATA_DIR, …):
run it with the environment the service runs with.

commands:
  create-admin
      Create a super admin from WARDEN_ADMIN_EMAIL and WARDEN_ADMIN_PASSWORD
      (or --email EMAIL --password PASSWORD, which leaves the password in shell history).
      On an empty database this also creates a first team, as the first start does.
  migrate
      Bring the database schema up to date and exit.`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === 'help' || command === '--help') {
    console.log(USAGE);
    return 0;
  }
  if (command !== 'migrate' && command !== 'create-admin') {
    console.error(`warden: unknown command "${command}"\n\n${USAGE}`);
    return 2;
  }
  const config = loadConfig();
  if (command === 'migrate') {
    const app = await startFromConfig(config);
    await app.close();
    console.log('database is up to date');
    return 0;
  }
  const { values } = parseArgs({ args: rest, options: { email: { type: 'string' }, password: { type: 'string' } } });
  const email = values.email ?? config.admin?.email;
  const password = values.password ?? config.admin?.password;
  if (!email || !password) {
    console.error('create-admin needs WARDEN_ADMIN_EMAIL and WARDEN_ADMIN_PASSWORD (or --email and --password)');
    return 2;
  }
  if (password.length < 8) {
    console.error('the password must be at least 8 characters long');
    return 2;
  }
  const app = await startFromConfig(config);
  try {
    if (await app.services.identity.bootstrapAdmin({ email, password })) {
      console.log(`created super admin ${email} and a first team`);
    } else {
      const user = await app.services.identity.createSuperAdmin({ email, password });
      console.log(`created super admin ${user.email} (id ${user.id})`);
      console.log(joinOrCreateATeam(user));
    }
  } finally {
    await app.close();
  }
  return 0;
}

/**
 * A super admin made on a database that already has users belongs to no team: every team's
 * resources are theirs to act on, but what acts on "your team" (an agent created without
 * team_id, …) has none. Say how to get one (issue 17).
 */
function joinOrCreateATeam(user: { id: string; email: string }): string {
  return [
    'This account is in no team yet. Log in with it (POST /v1/auth/jwt/login), then either',
    `  - create a team it owns:  POST /v1/teams/?owner_id=${user.id}  with {"name": "…"}`,
    `  - or join a team: a team owner or admin sends POST /v1/teams/{team_id}/invites with {"email": "${user.email}"},`,
    '    and this account accepts it with POST /v1/teams/invites/{invitation_id}/accept',
    '    (GET /v1/teams/ lists every team, to a super admin).',
  ].join('\n');
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.message : String(error);
    console.error(`warden: ${message}`);
    process.exit(1);
  },
);
