/** Only for a newcomer's embedded run: public, since they ship in the source, so production refuses them. */
export const DEV_CURSOR_SECRET = 'dev-only-cursor-secret-change-me';
export const DEV_JWT_SECRET = 'dev-only-jwt-secret-change-me!!';

/**
 * Every secret value the repository ships that is long enough to pass the byte floor; shorter ones fail it
 * anyway. production-secrets.spec.ts scans the repository, .env.example included, so a new one cannot slip by.
 */
const SHIPPED_SECRETS: ReadonlySet<string> = new Set([DEV_CURSOR_SECRET, DEV_JWT_SECRET]);

/** HMAC-SHA256 keys: fewer bytes than the hash's 32 make the key, not the hash, what an attacker guesses. */
export const MIN_PRODUCTION_SECRET_BYTES = 32;
const HOW_TO_MAKE_ONE = 'make one with: openssl rand -base64 48';

/** Why production cannot start on this value of secret `name`, or undefined when it can. */
export function productionSecretProblem(name: string, value: string | undefined): string | undefined {
  if (!value) return `${name} must be set in production (shared by every replica); ${HOW_TO_MAKE_ONE}`;
  if (SHIPPED_SECRETS.has(value)) return `${name}: the development value that ships in the repository is public; ${HOW_TO_MAKE_ONE}`;
  const bytes = Buffer.byteLength(value, 'utf8');
  if (bytes < MIN_PRODUCTION_SECRET_BYTES) return `${name}: ${bytes} bytes; production needs at least ${MIN_PRODUCTION_SECRET_BYTES} (${HOW_TO_MAKE_ONE})`;
  return undefined;
}
