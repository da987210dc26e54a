import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { startFromConfig } from '../runtime.js';

/**
 * The service's own tasks (`warden migrate`, `warden create-admin`): they open the database
 * with the same WARDEN_* settings as the service, so they are run where it runs.
 */
export async function migrate(): Promise<number> {
  const app = await startFromConfig(loadConfig());
  await app.close();
  console.log('database is up to date');
  return 0;
}

export async function createAdmin(rest: string[]): Promise<number> {
  const config = loadConfig();
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
