import { ServerResponse } from 'node:http';
import { send } from './http-io';
import { SimRequestError } from './sim-request-error';

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, JSON.stringify(body), 'application/json', headers);
}

/** A refusal with a JSON body, answered by the protocol's handler exactly as given. */
export function jsonError(status: number, body: unknown): SimRequestError {
  return new SimRequestError(status, JSON.stringify(body), 'application/json');
}

/** The query of a request URL (the server routes on the path alone). */
export function queryOf(url: string | undefined): URLSearchParams {
  return new URL(url ?? '/', 'http://simulator').searchParams;
}

/** The client a per-minute budget is kept for: the key it sends, else its address. */
export function clientOf(remoteAddress: string | undefined, key?: string | null): string {
  return key ? `key:${key}` : `ip:${remoteAddress ?? 'unknown'}`;
}
