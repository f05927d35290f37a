import { HttpServer } from '@nestjs/common';

/**
 * The names of the headers the pipeline sets, in lower case: HTTP header names are case-insensitive,
 * Fastify lower-cases every name it is handed (a new string per header and request otherwise), and both
 * adapters then send what they were given, so a client sees the same names from either.
 */
export const HEADER = {
  requestId: 'x-request-id',
  rateLimitLimit: 'x-ratelimit-limit',
  rateLimitRemaining: 'x-ratelimit-remaining',
  rateLimitReset: 'x-ratelimit-reset',
  rateLimitPolicy: 'ratelimit-policy',
  rateLimit: 'ratelimit',
  retryAfter: 'retry-after',
  creditsCost: 'x-credits-cost',
  creditsRemaining: 'x-credits-remaining',
  age: 'age',
} as const;

/**
 * Headers go through the adapter: Fastify keeps them on its reply and writes them with the status line in
 * one pass (node's raw setHeader would make it merge two header sets on every response); Express sets
 * them on its response. Nothing is set once the response has gone.
 */
export function setResponseHeaders(adapter: HttpServer, res: unknown, headers: Readonly<Record<string, string | number>>): void {
  if (adapter.isHeadersSent(res)) return;
  for (const name in headers) adapter.setHeader(res, name, String(headers[name]));
}
