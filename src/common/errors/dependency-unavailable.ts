/**
 * Connection failures of PostgreSQL (pg, through TypeORM) and Redis (ioredis): the server or the path to
 * it is down, not the request wrong. Connection-class SQLSTATEs (08xxx), the server going away (57P0x),
 * and socket errors; the clients' own words where they name no code.
 */
const SOCKET_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const SERVER_GONE = /^(08|57P0)/;
const CLIENT_WORDS =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is closed|Command timed out|Stream isn't writeable|Reached the max retries per request limit/;

/** True for an error that says a database or KV store could not be reached (the answer is then 503, not 500). */
export function isDependencyUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; depth++) {
    if (typeof e.code === 'string' && (SOCKET_CODES.has(e.code) || SERVER_GONE.test(e.code))) return true;
    if (typeof e.message === 'string' && CLIENT_WORDS.test(e.message)) return true;
    e = (e.driverError ?? e.cause) as typeof e;
  }
  return false;
}
