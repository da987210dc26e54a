import { bootstrapFirstAdmin } from './bootstrap.js';
import { ConfigError, loadConfig } from './config.js';
import { startFromConfig } from './runtime.js';

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await startFromConfig(config);
  await bootstrapFirstAdmin(config, app.services.identity, app.log);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`Warden is ready: API docs at http://${config.host}:${config.port}/docs`);
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`warden: configuration error: ${error.message}`);
  } else {
    console.error('warden: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
