import { AsyncLocalStorage } from 'node:async_hooks';

/** What a log line learns about the request that caused it. */
export interface RequestLogContext {
  readonly requestId: string;
}

/**
 * Entered once per request, in the adapter's first hook (app.factory.ts): everything the request causes
 * afterwards (guards, services, upstream clients, the error filter) runs inside it, so each log line
 * carries the request id without anyone passing it along.
 */
export const requestContext = new AsyncLocalStorage<RequestLogContext>();
