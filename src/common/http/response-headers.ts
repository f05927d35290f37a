import { HttpServer } from '@nestjs/common';

/**
 * Headers go through the adapter: Fastify keeps them on its reply and writes them with the status line in
 * one pass (node's raw setHeader would make it merge two header sets on every response); Express sets
 * them on its response. Nothing is set once the response has gone.
 */
export function setResponseHeaders(adapter: HttpServer, res: unknown, headers: Readonly<Record<string, string | number>>): void {
  if (adapter.isHeadersSent(res)) return;
  for (const name in headers) adapter.setHeader(res, name, String(headers[name]));
}
