import Fastify from 'fastify';
import { pino, type Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyChildLoggerFactory } from './lazy-logger.js';

/** A pino logger writing JSON lines into an array, with its `child` calls counted. */
function recordingLogger(level: string) {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level, redact: { paths: ['*.password'], censor: '[redacted]' } }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  const counts = { children: 0 };
  const child = logger.child;
  // On the root: its children inherit it, so grandchildren are counted too.
  logger.child = function (this: Logger, bindings, options) {
    counts.children++;
    return child.call(this, bindings, options);
  } as Logger['child'];
  return { logger, lines, counts };
}

async function appWith(logger: Logger) {
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: lazyChildLoggerFactory });
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/info', async (request) => {
    request.log.info('an info line');
    return { ok: true };
  });
  app.get('/warn', async (request) => {
    request.log.warn({ body: { password: 's3cret', name: 'n' } }, 'a warning');
    request.log.child({ step: 'inner' }).error('from a grandchild');
    return { ok: true };
  });
  app.get('/debug', { logLevel: 'debug' }, async (request) => {
    request.log.debug('a debug line');
    return { ok: true };
  });
  await app.ready();
  return app;
}

/** The app, with the child loggers Fastify makes while starting left out of the count. */
async function started(recording: ReturnType<typeof recordingLogger>) {
  const app = await appWith(recording.logger);
  recording.counts.children = 0;
  return app;
}

describe('lazy request logger', () => {
  it('makes no child logger for a request that writes no line at an enabled level', async () => {
    const recording = recordingLogger('warn');
    const { lines, counts } = recording;
    const app = await started(recording);
    try {
      for (const url of ['/quiet', '/info', '/quiet']) expect((await app.inject({ url })).statusCode).toBe(200);
      expect(counts.children).toBe(0);
      expect(lines).toEqual([]);
    } finally {
      await app.close();
    }
  });

  it('writes the lines the child would: its bindings, redaction, grandchildren', async () => {
    const recording = recordingLogger('warn');
    const { lines, counts } = recording;
    const app = await started(recording);
    try {
      const res = await app.inject({ url: '/warn' });
      expect(res.statusCode).toBe(200);
      // The request's child, then the grandchild it was asked for.
      expect(counts.children).toBe(2);
      expect(lines).toHaveLength(2);
      const [warning, inner] = lines;
      expect(warning).toMatchObject({ level: 40, msg: 'a warning', reqId: 'req-1', body: { password: '[redacted]', name: 'n' } });
      expect(JSON.stringify(lines)).not.toContain('s3cret');
      expect(inner).toMatchObject({ level: 50, msg: 'from a grandchild', reqId: 'req-1', step: 'inner' });
    } finally {
      await app.close();
    }
  });

  it("keeps Fastify's request lines at info, one reqId per request", async () => {
    const recording = recordingLogger('info');
    const { lines } = recording;
    const app = await started(recording);
    try {
      await app.inject({ url: '/info' });
      await app.inject({ url: '/quiet' });
      const byRequest = lines.map((l) => `${String(l.reqId)} ${String(l.msg)}`);
      expect(byRequest).toEqual([
        'req-1 incoming request',
        'req-1 an info line',
        'req-1 request completed',
        'req-2 incoming request',
        'req-2 request completed',
      ]);
    } finally {
      await app.close();
    }
  });

  it("honours a route's own log level (the child is made at once)", async () => {
    const recording = recordingLogger('warn');
    const { lines, counts } = recording;
    const app = await started(recording);
    try {
      await app.inject({ url: '/debug' });
      expect(counts.children).toBe(1);
      // At debug, Fastify's own request lines (info) are written too.
      expect(lines.map((l) => l.msg)).toEqual(['incoming request', 'a debug line', 'request completed']);
      expect(app.log.level).toBe('warn');
    } finally {
      await app.close();
    }
  });
});
