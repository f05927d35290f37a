import { ServerResponse } from 'node:http';

/**
 * Headers go onto the node response underneath the adapter's (Express' res is one, Fastify's reply
 * keeps it in `.raw`); both adapters merge them into what they finally write.
 */
export function setResponseHeaders(res: unknown, headers: Readonly<Record<string, string | number>>): void {
  const raw = ((res as { raw?: ServerResponse }).raw ?? res) as ServerResponse;
  if (raw.headersSent) return;
  for (const [name, value] of Object.entries(headers)) raw.setHeader(name, String(value));
}
