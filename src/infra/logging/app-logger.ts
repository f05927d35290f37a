import { LoggerService, LogLevel } from '@nestjs/common';
import pino, { DestinationStream, Level, Logger } from 'pino';
import pretty from 'pino-pretty';
import { AppConfig } from '../../config/app.config';
import { requestContext } from './request-context';

const PINO_LEVEL: Record<LogLevel, Level> = { fatal: 'fatal', error: 'error', warn: 'warn', log: 'info', debug: 'debug', verbose: 'trace' };

/**
 * Nest's logger (every `new Logger(context)`) written by pino: JSON lines (`level`, `time`, `context`,
 * `msg`, `requestId` for any line a request caused, `err` with the stack) or, for a person at a terminal,
 * one readable line each. `destination` is stdout unless given (tests capture it).
 */
export function createAppLogger({ logLevel, logFormat }: Pick<AppConfig, 'logLevel' | 'logFormat'>, destination?: DestinationStream): AppLogger {
  const options = {
    level: PINO_LEVEL[logLevel],
    // Labels, not pino's numbers: readable in a collector's query and in a grep.
    formatters: { level: (label: string) => ({ level: label }) },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin: () => {
      const request = requestContext.getStore();
      return request ? { requestId: request.requestId } : {};
    },
  };
  // Synchronous writes: the service leaves through process.exit once its shutdown hooks ran, and the
  // last lines (what stopped) must not be lost; logs are a handful of lines outside requests.
  const stream =
    logFormat === 'json'
      ? (destination ?? pino.destination({ dest: 1, sync: true }))
      : pretty({
          sync: true,
          singleLine: true,
          translateTime: 'SYS:HH:MM:ss.l',
          ignore: 'pid,hostname,context',
          messageFormat: '{if context}[{context}] {end}{msg}',
          ...(destination ? { destination, colorize: false } : {}),
        });
  return new AppLogger(pino(options, stream));
}

/** The LoggerService Nest calls with (message, ...params, context) and, for errors, (message, stack, context). */
export class AppLogger implements LoggerService {
  constructor(readonly pino: Logger) {}

  log(message: unknown, ...params: unknown[]): void {
    this.write('info', message, params);
  }

  error(message: unknown, ...params: unknown[]): void {
    this.write('error', message, params);
  }

  warn(message: unknown, ...params: unknown[]): void {
    this.write('warn', message, params);
  }

  debug(message: unknown, ...params: unknown[]): void {
    this.write('debug', message, params);
  }

  verbose(message: unknown, ...params: unknown[]): void {
    this.write('trace', message, params);
  }

  fatal(message: unknown, ...params: unknown[]): void {
    this.write('fatal', message, params);
  }

  private write(level: Level, message: unknown, params: unknown[]): void {
    if (!this.pino.isLevelEnabled(level)) return;
    const fields: Record<string, unknown> = {};
    // Nest's Logger passes its context last; an error's stack comes before it.
    const last = params.length > 0 ? params[params.length - 1] : undefined;
    const rest = typeof last === 'string' ? params.slice(0, -1) : params;
    if (typeof last === 'string') fields.context = last;
    const stack = level === 'error' && typeof rest[0] === 'string' ? rest.shift() : undefined;
    if (rest.some((param) => param !== undefined)) fields.params = rest;
    if (message instanceof Error) {
      fields.err = message;
      this.pino[level](fields, message.message);
      return;
    }
    if (stack) fields.err = { stack };
    if (typeof message === 'object' && message !== null) {
      // { msg, ...fields }: the caller's own fields (a requestId it has at hand, say) go on the line as they are.
      const { msg, ...own } = message as { msg?: unknown };
      if (typeof msg === 'string') this.pino[level]({ ...fields, ...own }, msg);
      else this.pino[level]({ ...fields, data: message });
      return;
    }
    this.pino[level](fields, String(message));
  }
}
