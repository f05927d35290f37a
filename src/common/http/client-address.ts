import { rawRequest } from './request-state';

/**
 * The client's address as the adapter worked it out: its `ip` follows TRUST_PROXY (Express's
 * 'trust proxy' setting, Fastify's trustProxy option), and is the socket's address when no proxy is trusted.
 */
export function clientAddress(req: unknown): string {
  const ip = (req as { ip?: unknown }).ip;
  if (typeof ip === 'string' && ip) return ip;
  return rawRequest(req).socket?.remoteAddress ?? 'unknown';
}
