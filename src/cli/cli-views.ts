import { toDecimalString } from '../common/decimal/decimal';
import { AccountEntity } from '../modules/account/entities/account.entity';
import { ApiKeyEntity } from '../modules/account/entities/api-key.entity';

/** What the CLI prints for an account; fields are picked one by one so nothing internal leaks. */
export interface AccountView {
  id: string;
  walletAddress: string;
  tier: string;
  /** Decimal string: the balance last settled to PostgreSQL (paid accounts spend live from the KV store). */
  creditBalance: string;
  resetAnchorAt: string;
  createdAt: string;
  activeKeys?: number;
}

/** What the CLI prints for a stored key: never the hash (the plaintext is not stored at all). */
export interface KeyView {
  id: string;
  prefix: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function toAccountView(account: AccountEntity & { activeKeys?: number }): AccountView {
  return {
    id: account.id,
    walletAddress: account.walletAddress,
    tier: account.tier,
    creditBalance: toDecimalString(account.creditBalance),
    resetAnchorAt: isoOrNull(account.resetAnchorAt)!,
    createdAt: isoOrNull(account.createdAt)!,
    ...(account.activeKeys === undefined ? {} : { activeKeys: account.activeKeys }),
  };
}

export function toKeyView(key: ApiKeyEntity): KeyView {
  return {
    id: key.id,
    prefix: key.prefix,
    createdAt: isoOrNull(key.createdAt)!,
    lastUsedAt: isoOrNull(key.lastUsedAt),
    revokedAt: isoOrNull(key.revokedAt),
  };
}

/** Left-aligned columns for the human-readable listings. */
export function formatTable(header: string[], rows: string[][]): string[] {
  const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, i) => cell.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)];
}

function isoOrNull(value: Date | string | null | undefined): string | null {
  return value ? new Date(value).toISOString() : null;
}
