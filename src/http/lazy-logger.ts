import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
type Bindings = Record<string, unknown>;
type ChildOptions = Parameters<FastifyBaseLogger['child']>[1];

/** pino's logger as the parent of request loggers: it can say whether a level would write. */
interface LevelAware extends FastifyBaseLogger {
  isLevelEnabled(level: string): boolean;
}

const isLevelAware = (logger: FastifyBaseLogger): logger is LevelAware => typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';

/**
 * A request's logger (`request.log`), made only when it first writes a line.
 *
 * Fastify makes a pino child logger (`{ reqId }`) for every request. With the wildcard
 * redaction paths of issue 7 (`*.password`, …), pino passes each binding through its redaction
 * to build the child: measured at ~2.4 KB of garbage and ~1.5 µs per request, for a logger that
 * writes nothing on most requests when the level is `warn` (bench/README.md). This stands in
 * for the child and makes it, with the same bindings and options, on the first call at a level
 * that is enabled: every line it writes is the line the child would have written.
 */
class LazyRequestLogger {
  readonly #parent: LevelAware;
  readonly #bindings: Bindings;
  readonly #options: ChildOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: LevelAware, bindings: Bindings, options: ChildOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  #real(): FastifyBaseLogger {
    return (this.#child ??= this.#parent.child(this.#bindings, this.#options));
  }

  #write(level: Level, args: unknown[]): void {
    if (this.#child === undefined && !this.#parent.isLevelEnabled(level)) return;
    (this.#real()[level] as (...a: unknown[]) => void)(...args);
  }

  get level(): string {
    return this.#child?.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  fatal(...args: unknown[]): void {
    this.#write('fatal', args);
  }
  error(...args: unknown[]): void {
    this.#write('error', args);
  }
  warn(...args: unknown[]): void {
    this.#write('warn', args);
  }
  info(...args: unknown[]): void {
    this.#write('info', args);
  }
  debug(...args: unknown[]): void {
    this.#write('debug', args);
  }
  trace(...args: unknown[]): void {
    this.#write('trace', args);
  }
  silent(): void {}

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  isLevelEnabled(level: string): boolean {
    return this.#child !== undefined ? (this.#child as LevelAware).isLevelEnabled(level) : this.#parent.isLevelEnabled(level);
  }
}

/**
 * Fastify's `childLoggerFactory`: a lazy request logger under pino. A route with its own log
 * level or serializers, or a logger that cannot tell its levels, gets the child at once.
 */
export const lazyChildLoggerFactory: ChildLoggerFactory = function (logger, bindings, options) {
  if (!isLevelAware(logger) || Object.keys(options).length > 0) return logger.child(bindings, options);
  return new LazyRequestLogger(logger, bindings, options) as unknown as FastifyBaseLogger;
};
