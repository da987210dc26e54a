import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from './config.js';
import { startFromConfig } from './runtime.js';

const USAGE = `usage: npm run warden -- <command>

commands:
  create-admin
      Create a super admin from WARDEN_ADMIN_EMAIL and WARDEN_ADMIN_PASSWORD
      (or --email EMAIL --password PASSWORD, which leaves the password in shell history).
      On an empty database this also creates a first team, as the first start does.
  migrate
      Bring the database schema up to date and exit.`;

async function run(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const config = loadConfig();
  if (command === 'migrate') {
    const app = await startFromConfig(config);
    await app.close();
    console.log('database is up to date');
    return 0;
  }
  if (command === 'create-admin') {
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
        console.log(`created super admin ${user.email}`);
      }
    } finally {
      await app.close();
    }
    return 0;
  }
  console.error(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

run(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = error instanceof ConfigError ? `configuration error: ${error.message}` : error instanceof Error ? error.message : String(error);
    console.error(`warden: ${message}`);
    process.exit(1);
  },
);
