/**
 * Per-request loggers created on first use. Fastify gives every request a pino child logger bound to
 * its request id; creating one runs pino's redaction over the bindings (the redact paths include
 * leading wildcards, so every binding goes through the redacting stringifier) and rebuilds the child's
 * formatters: about 4% of the CPU of a single-log ingestion request, for a logger that most requests
 * never write to below info level. The lazy logger answers disabled levels itself and creates the real
 * child (same bindings, same options, same redaction) only when a line is actually written.
 */
import type { FastifyBaseLogger } from 'fastify';
import { levels } from 'pino';
import type { Bindings, ChildLoggerOptions, LogFn } from 'pino';

type LevelName = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export class LazyChildLogger implements FastifyBaseLogger {
  readonly #parent: FastifyBaseLogger;
  readonly #bindings: Bindings;
  readonly #options: ChildLoggerOptions;
  #child: FastifyBaseLogger | undefined;

  constructor(parent: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) {
    this.#parent = parent;
    this.#bindings = bindings;
    this.#options = options;
  }

  /** The child's level: its own once created, else the route's level option, else the parent's (live). */
  get level(): string {
    return this.#child?.level ?? this.#options.level ?? this.#parent.level;
  }

  set level(level: string) {
    this.#real().level = level;
  }

  readonly fatal: LogFn = (...args: unknown[]) => this.#write('fatal', args);
  readonly error: LogFn = (...args: unknown[]) => this.#write('error', args);
  readonly warn: LogFn = (...args: unknown[]) => this.#write('warn', args);
  readonly info: LogFn = (...args: unknown[]) => this.#write('info', args);
  readonly debug: LogFn = (...args: unknown[]) => this.#write('debug', args);
  readonly trace: LogFn = (...args: unknown[]) => this.#write('trace', args);
  readonly silent: LogFn = () => undefined;

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.#real().child(bindings, options);
  }

  #real(): FastifyBaseLogger {
    this.#child ??= this.#parent.child(this.#bindings, this.#options);
    return this.#child;
  }

  #write(level: LevelName, args: unknown[]): void {
    // 'silent' (and any unknown level) has no numeric value: nothing is enabled.
    const threshold = levels.values[this.level];
    if (threshold === undefined || levels.values[level]! < threshold) return;
    const real = this.#real();
    Reflect.apply(real[level], real, args);
  }
}

/** Fastify `childLoggerFactory`: same arguments as pino's child(), created lazily. */
export function lazyChildLoggerFactory(logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions): FastifyBaseLogger {
  return new LazyChildLogger(logger, bindings, options);
}
