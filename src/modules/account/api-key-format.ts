import { createHash, randomBytes } from 'node:crypto';

const KEY_PREFIX = 'mdk_';
const BODY_LENGTH = 32;
const VISIBLE_BODY_CHARS = 8;
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** Cheap shape check so junk headers never reach the cache or the database. */
export const API_KEY_PATTERN = /^mdk_[A-Za-z0-9]{32}$/;

export interface GeneratedApiKey {
  plaintext: string;
  prefix: string;
  hash: string;
}

export function hashApiKey(plaintext: string): string {
  return createHash('sha256').update(plaintext).digest('hex');
}

/** 32 base62 characters from the CSPRNG (~190 bits); the prefix is what listings show. */
export function generateApiKey(): GeneratedApiKey {
  const bytes = randomBytes(BODY_LENGTH * 2);
  let body = '';
  // Rejection sampling keeps the alphabet uniform (248 = 4 * 62).
  for (const byte of bytes) {
    if (byte < 248) body += ALPHABET[byte % 62];
    if (body.length === BODY_LENGTH) break;
  }
  if (body.length < BODY_LENGTH) return generateApiKey();
  const plaintext = `${KEY_PREFIX}${body}`;
  return { plaintext, prefix: plaintext.slice(0, KEY_PREFIX.length + VISIBLE_BODY_CHARS), hash: hashApiKey(plaintext) };
}
