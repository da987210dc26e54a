import { bootstrapFirstAdmin } from './bootstrap.js';
import type { AddressInfo } from 'node:net';
import { ConfigError, loadConfig, type Config } from './config.js';
import { startUpLine } from './listen-url.js';
import { lockDatabaseForService, startFromConfig } from './runtime.js';

/** A failed listen, named by the variable to change (PORT or HOST) where the cause is clear. */
function listenError(error: unknown, config: Config): unknown {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new ConfigError('PORT', `port ${config.port} is already in use on ${config.host}`);
  if (code === 'EACCES') return new ConfigError('PORT', `no permission to listen on port ${config.port} (ports below 1024 need privileges)`);
  if (code === 'EADDRNOTAVAIL') return new ConfigError('HOST', `${config.host} is not an address of this machine`);
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new ConfigError('HOST', `${config.host} does not resolve to an address`);
  return error;
}

/** How long a stop waits for the requests in flight (docs/deployment.md, "Health and shutdown"). */
const GRACEFUL_CLOSE_MS = 10_000;

async function main(): Promise<void> {
  const config = loadConfig();
  // Released by the operating system when the process ends, whichever way it ends.
  const lock = lockDatabaseForService(config);
  const app = await startFromConfig(config);
  app.addHook('onClose', async () => lock?.release());
  await bootstrapFirstAdmin(config, app.services.identity, app.log);
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ signal }, 'shutting down');
    // Requests in flight get this long to finish; then the process goes anyway, so that a
    // stop (systemd, Docker, `kill`) frees the port in a bounded time.
    setTimeout(() => {
      app.log.warn(`requests still running ${GRACEFUL_CLOSE_MS / 1000} s after ${signal}: exiting without them`);
      process.exit(1);
    }, GRACEFUL_CLOSE_MS).unref();
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    await app.close();
    throw listenError(error, config);
  }
  // Background jobs (evaluations, red-team campaigns…) start once the service answers: a job left running by the
  // previous process is resumed or failed now (docs/jobs.md).
  await app.jobs.start();
  app.log.info(startUpLine(config.host, (app.server.address() as AddressInfo).port, undefined, app.consoleServed));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(`warden: configuration error: ${error.message}`);
  } else {
    console.error('warden: failed to start:', error instanceof Error ? error.message : error);
  }
  process.exit(1);
});
