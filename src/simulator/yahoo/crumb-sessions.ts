import { hash2, mix32 } from '../world/prng';

const COOKIE_NAME = 'A3';
const CRUMB_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const CRUMB_LENGTH = 11;
/** Yahoo's crumbs stop working after some 10-20 minutes; the simulator's default, so refresh paths get exercised. */
export const DEFAULT_CRUMB_TTL_MS = 15 * 60_000;

function token(seed: number, length: number): string {
  let out = '';
  let h = seed;
  for (let i = 0; i < length; i++) {
    h = mix32(h + i + 0x2545f491);
    out += CRUMB_ALPHABET[h % CRUMB_ALPHABET.length];
  }
  return out;
}

/** The `A3` cookie value a request carries, if any. */
export function sessionCookie(header: string | undefined): string | null {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === COOKIE_NAME && value.length > 0) return value.join('=');
  }
  return null;
}

/**
 * Yahoo's cookie + crumb handshake: the cookie page hands out an `A3` session, `getcrumb` issues a crumb bound to
 * that session, and a crumb is honoured only with its own cookie and until it expires.
 */
export class CrumbSessions {
  private readonly cookies = new Set<string>();
  private readonly crumbs = new Map<string, { cookie: string; expiresAt: number }>();
  private issued = 0;

  constructor(
    private readonly seed: number,
    private readonly ttlMs: number,
  ) {}

  /** A fresh session cookie as a `Set-Cookie` header value, and the bare value. */
  newCookie(now: number): { value: string; header: string } {
    const n = ++this.issued;
    const value = `d=AQABBK${token(hash2(this.seed ^ 0xa3, n), 40)}&S=AQAAA${token(hash2(this.seed ^ 0x5a, n), 22)}`;
    this.cookies.add(value);
    const expires = new Date(now + 365 * 86_400_000).toUTCString();
    return { value, header: `${COOKIE_NAME}=${value}; Expires=${expires}; Max-Age=31557600; Path=/; SameSite=None; HttpOnly` };
  }

  /** A crumb for a known session cookie; null for an unknown one. */
  crumbFor(cookie: string | null, now: number): string | null {
    if (cookie === null || !this.cookies.has(cookie)) return null;
    const crumb = token(hash2(this.seed ^ 0xc7, ++this.issued), CRUMB_LENGTH);
    this.crumbs.set(crumb, { cookie, expiresAt: now + this.ttlMs });
    return crumb;
  }

  valid(cookie: string | null, crumb: string | null, now: number): boolean {
    const entry = crumb === null ? undefined : this.crumbs.get(crumb);
    if (!entry || entry.cookie !== cookie) return false;
    if (now >= entry.expiresAt) {
      this.crumbs.delete(crumb as string);
      return false;
    }
    return true;
  }
}
