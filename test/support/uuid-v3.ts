import { createHash } from 'node:crypto';

/**
 * A name-based UUID, version 3 (RFC 9562 section 5.3), computed in JavaScript to check what the database's
 * ledger_reference_uuid computes in SQL.
 */
export function uuidV3(name: string, namespace: string): string {
  const hash = createHash('md5')
    .update(Buffer.from(namespace.replace(/-/g, ''), 'hex'))
    .update(name, 'utf8')
    .digest();
  hash[6] = (hash[6] & 0x0f) | 0x30;
  hash[8] = (hash[8] & 0x3f) | 0x80;
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
