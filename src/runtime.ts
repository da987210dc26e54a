import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { workerReportRenderer } from './evaluation/report/renderer.js';
import { sql } from 'kysely';
import { ConfigError, type Config } from './config.js';
import { deriveKeys, loadOrCreateSecret } from './crypto/keys.js';
import { openDatabase, type Database } from './db/database.js';
import { createRecorder, fanOut } from './telemetry/recorder.js';
import { pruneTelemetry, writeTelemetry } from './telemetry/store.js';
import { noTelemetry, type Telemetry } from './telemetry/types.js';
import { migrateToLatest } from './db/migrations/index.js';
import { DatabaseInUseError, lockSqliteFile, type ProcessLock } from './db/process-lock.js';
import { TABLE_CACHING } from './modules/tables.js';

/**
 * The console's build: `dist/console` of the package, found from this file whether it runs
 * compiled (dist/runtime.js) or from source (src/runtime.ts, in tests).
 */
export const CONSOLE_DIR = fileURLToPath(new URL('../dist/console/', import.meta.url));

/** The reason of a failed system call, without the stack or the value of any secret. */
const reason = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Opens the database named by WARDEN_DATABASE_URL; a file that cannot be created or a server
 * that cannot be reached is a configuration error naming the variable (no 20-line stack).
 */
async function openConfiguredDatabase(config: Config) {
  let database: ReturnType<typeof openDatabase>;
  try {
    database = openDatabase(config.database, { tables: TABLE_CACHING });
  } catch (error) {
    throw new ConfigError('WARDEN_DATABASE_URL', `cannot open the database: ${reason(error)}`);
  }
  try {
    await sql`select 1`.execute(database.db);
  } catch (error) {
    await database.close().catch(() => undefined);
    throw new ConfigError('WARDEN_DATABASE_URL', `cannot connect to the database: ${reason(error)}`);
  }
  return database;
}

function serviceSecret(config: Config): string {
  try {
    return loadOrCreateSecret(config.secretKey, config.dataDir);
  } catch (error) {
    throw new ConfigError('WARDEN_DATA_DIR', `cannot read or create the secret key in ${config.dataDir}: ${reason(error)}`);
  }
}

/**
 * The service's claim on its SQLite file (none on PostgreSQL, where several processes share a
 * database): a second service on the same file stops at start, naming the variable. The
 * command-line tasks do not take it: they run beside a started service (docs/getting-started.md).
 */
export function lockDatabaseForService(config: Config): ProcessLock | undefined {
  if (config.database.dialect !== 'sqlite' || config.database.filename === ':memory:') return undefined;
  try {
    return lockSqliteFile(config.database.filename);
  } catch (error) {
    if (error instanceof DatabaseInUseError) {
      throw new ConfigError(
        'WARDEN_DATABASE_URL',
        `${config.database.filename} is in use by another Warden process: one SQLite file serves one process (stop the other, or use PostgreSQL to run several)`,
      );
    }
    throw new ConfigError('WARDEN_DATABASE_URL', `cannot open the database: ${reason(error)}`);
  }
}

/**
 * Telemetry of the service (docs/telemetry.md): the batched recorder into the database, pruned
 * hourly past WARDEN_TELEMETRY_RETENTION_DAYS, and, with OTEL_EXPORTER_OTLP_ENDPOINT set, the
 * OpenTelemetry SDK's exporter beside it (imported only then: a start without it loads no SDK).
 */
async function startTelemetry(config: Config, db: Database['db'], dialect: Database['dialect']) {
  const handle = {
    log: (_message: string) => {},
    sink: noTelemetry as Telemetry,
    close: async () => {},
  };
  const recorder = createRecorder({
    write: (batch) => writeTelemetry(db, dialect, batch),
    prune: () => pruneTelemetry(db, Date.now(), config.telemetryRetentionDays),
    onError: (error) => handle.log(`telemetry: a batch could not be written: ${reason(error)}`),
  });
  const exporter = config.otlpExportEndpoint === undefined ? undefined : (await import('./telemetry/export.js')).createOtlpExport();
  handle.sink = exporter === undefined ? recorder : fanOut(recorder, exporter);
  handle.close = async () => {
    await recorder.close();
    await exporter?.close();
  };
  return handle;
}

/** Opens the database, migrates it and builds the app from a parsed Config (shared by main and the CLI). */
export async function startFromConfig(config: Config) {
  const database = await openConfiguredDatabase(config);
  try {
    await migrateToLatest(database.db, database.dialect, database.schema);
    const keys = deriveKeys(serviceSecret(config));
    const telemetry = await startTelemetry(config, database.db, database.dialect);
    const app = await buildApp({
      database,
      keys,
      dataDir: config.dataDir,
      passwordHashCost: config.passwordHashCost,
      tokenTtlSeconds: config.tokenTtlSeconds,
      llm: config.llm,
      logger: { level: config.logLevel },
      rateLimitPerMinute: config.rateLimitPerMinute,
      corsOrigins: config.corsOrigins,
      trustProxyHops: config.trustProxyHops,
      jobs: config.jobs,
      evaluationConcurrency: config.evaluationConcurrency,
      redteamConcurrency: config.redteamConcurrency,
      outbound: config.outbound,
      gateway: config.gateway,
      // Reports are built off the event loop (docs/evaluations.md, "Reports").
      reportRenderer: workerReportRenderer(),
      consoleDir: CONSOLE_DIR,
      telemetry: telemetry.sink,
    });
    telemetry.log = (message) => app.log.warn(message);
    // Before the database closes: what the recorder still holds is written.
    app.addHook('preClose', async () => telemetry.close());
    app.addHook('onClose', async () => database.close());
    return app;
  } catch (error) {
    await database.close();
    throw error;
  }
}
