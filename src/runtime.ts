import { buildApp } from './app.js';
import type { Config } from './config.js';
import { deriveKeys, loadOrCreateSecret } from './crypto/keys.js';
import { openDatabase } from './db/database.js';
import { migrateToLatest } from './db/migrations/index.js';

/** Opens the database, migrates it and builds the app from a parsed Config (shared by main and the CLI). */
export async function startFromConfig(config: Config) {
  const database = openDatabase(config.database);
  try {
    await migrateToLatest(database.db, database.dialect, database.schema);
    const keys = deriveKeys(loadOrCreateSecret(config.secretKey, config.dataDir));
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
    });
    app.addHook('onClose', async () => database.close());
    return app;
  } catch (error) {
    await database.close();
    throw error;
  }
}
