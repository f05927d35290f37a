import { Logger as NestLogger } from '@nestjs/common';
import type { Logger as TypeOrmLogger } from 'typeorm';

/** Enough of a statement to recognise it; the rest (and every value) stays out of the log. */
export const QUERY_TEXT_MAX_CHARS = 200;
const ERROR_TEXT_MAX_CHARS = 500;

/**
 * TypeORM's logger for the service: a failed query is one line with the error and the start of the
 * statement's text, never its parameters. Parameters carry wallet lists hundreds of rows long and, in
 * other tables, key hashes and balances: TypeORM's own logger prints them all. Successful queries are not
 * logged (TypeORM calls logQuery for every one, so it must cost nothing); migrations and schema notes go
 * to debug.
 */
export class TypeOrmQueryLogger implements TypeOrmLogger {
  constructor(private readonly logger = new NestLogger('TypeORM')) {}

  logQuery(): void {
    // Every query passes here: deliberately nothing.
  }

  logQueryError(error: string | Error, query: string, parameters?: unknown[] | object): void {
    const message = truncate(oneLine(error instanceof Error ? error.message : String(error)), ERROR_TEXT_MAX_CHARS);
    this.logger.error(`query failed: ${message}; query: ${truncate(oneLine(query), QUERY_TEXT_MAX_CHARS)}${parameterNote(parameters)}`);
  }

  logQuerySlow(time: number, query: string, parameters?: unknown[] | object): void {
    this.logger.warn(`slow query (${time} ms): ${truncate(oneLine(query), QUERY_TEXT_MAX_CHARS)}${parameterNote(parameters)}`);
  }

  logSchemaBuild(message: string): void {
    this.logger.debug(message);
  }

  logMigration(message: string): void {
    this.logger.debug(message);
  }

  log(level: 'log' | 'info' | 'warn', message: unknown): void {
    if (level === 'warn') this.logger.warn(String(message));
    else this.logger.debug(String(message));
  }
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} chars)`;
}

/** How many parameters there were, so a reader knows values exist that were left out on purpose. */
function parameterNote(parameters: unknown[] | object | undefined): string {
  const count = Array.isArray(parameters) ? parameters.length : parameters ? Object.keys(parameters).length : 0;
  return count > 0 ? ` (${count} parameter${count === 1 ? '' : 's'} not logged)` : '';
}
