/** The environment's value readers and validators that class-validator does not have. */
import { isIP } from 'node:net';
import { ValidateBy } from 'class-validator';

const BOOLEAN_TEXTS: Record<string, boolean> = { true: true, '1': true, yes: true, false: false, '0': false, no: false };
// Anything else stays as it is, so @IsBoolean refuses it: MIGRATIONS_RUN=ture must stop the start, not skip migrations.
export const toBoolean = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : (BOOLEAN_TEXTS[String(value).toLowerCase()] ?? value);
export const toInt = ({ value }: { value: unknown }) => (value === undefined || value === '' ? undefined : Number(value));
export const emptyToUndefined = ({ value }: { value: unknown }) => (value === '' ? undefined : value);
/** Names proxy-addr (Express and Fastify) gives to address ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list: a range name, an IP address, or a CIDR, as proxy-addr accepts them. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, extra] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  return bits === undefined || (/^\d{1,3}$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128));
}

/**
 * true/false, a hop count, or a comma-separated list of proxy addresses, CIDRs or range names, checked
 * here: both adapters would otherwise throw on a bad entry only when they start, past this list of problems.
 */
export function IsTrustProxy() {
  return ValidateBy({
    name: 'isTrustProxy',
    validator: {
      validate: (value: unknown) =>
        typeof value === 'string' && (/^(true|false|\d{1,2})$/.test(value) || value.split(',').every((entry) => isProxyEntry(entry.trim()))),
      defaultMessage: () =>
        'TRUST_PROXY must be true, false, a hop count or a comma-separated list of proxy addresses, CIDRs or loopback/linklocal/uniquelocal',
    },
  });
}

/**
 * A connection URL with one of `schemes`, as node's URL parser (and so the pg and ioredis clients) reads
 * it. Not @IsUrl: it refuses host names with '_' (Docker service names such as pg_primary) and
 * PostgreSQL's socket form `postgresql:///db?host=/var/run/postgresql`.
 */
export function IsConnectionUrl(schemes: string[]) {
  const schemeOf = (value: string) => {
    try {
      return new URL(value).protocol.slice(0, -1);
    } catch {
      return '';
    }
  };
  return ValidateBy({
    name: 'isConnectionUrl',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && schemes.includes(schemeOf(value)),
      defaultMessage: (args) => `${args?.property} must be a URL starting with ${schemes.map((scheme) => `${scheme}://`).join(' or ')}`,
    },
  });
}
