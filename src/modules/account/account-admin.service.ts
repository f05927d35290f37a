import { Injectable } from '@nestjs/common';
import { getAddress, isAddress } from 'ethers';
import { EntityManager } from 'typeorm';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { AccountRepository } from './account.repository';
import { generateApiKey } from './api-key-format';
import { generateReferralCode } from './referral-code';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';
import { AccountCreditsRepository, isMetered, isTier, Tier, TIERS } from '../billing/billing.public';

export const MAX_ACTIVE_KEYS = 5;
/** Live balances are integer micro-credits in Redis and Lua: 1e9 credits = 1e15 micro stays exact below 2^53. */
export const MAX_CREDIT_BALANCE = '1000000000';
const UNIQUE_VIOLATION = '23505';

export interface CreatedApiKey {
  key: string;
  prefix: string;
  id: string;
  name: string | null;
  walletAddress: string;
  createdAt: Date;
}

/**
 * Actions on accounts and keys, for the ops CLI, the demo and the developer portal's backend alike. Changes of balance or tier go through
 * billing's AccountCreditsRepository, which bumps credit_epoch so each replica re-seeds its live balance.
 */
@Injectable()
export class AccountAdminService {
  constructor(
    private readonly accounts: AccountRepository,
    private readonly credits: AccountCreditsRepository,
  ) {}

  async createAccount({ wallet, tier }: { wallet: string; tier: string }): Promise<AccountEntity> {
    const walletAddress = normalizeWallet(wallet);
    const validTier = parseTier(tier);
    return this.accounts.transaction(async (manager) => {
      if (await this.accounts.findAccountByWallet(walletAddress, manager)) {
        throw AppError.validation('wallet', `an account for ${walletAddress} already exists`);
      }
      const account = manager.create(AccountEntity, {
        walletAddress,
        tier: validTier,
        referralCode: generateReferralCode(),
        ...this.credits.opening(validTier),
        resetAnchorAt: new Date(),
      });
      const saved = await manager.save(account).catch((error: { code?: string }) => {
        // Two operators creating the same wallet at once: the loser gets the same answer as a late one.
        if (error.code === UNIQUE_VIOLATION) throw AppError.validation('wallet', `an account for ${walletAddress} already exists`);
        throw error;
      });
      await recordTierChange(manager, saved.id, validTier);
      return saved;
    });
  }

  /**
   * The account of `walletAddress` (lower case), created on the Free tier if it has none: a wallet's first
   * sign-in to the portal opens its account. Two first sign-ins at once end with the one account.
   */
  async ensureAccount(walletAddress: string): Promise<AccountEntity> {
    const existing = await this.accounts.findAccountByWallet(walletAddress);
    if (existing) return existing;
    try {
      return await this.createAccount({ wallet: walletAddress, tier: 'free' });
    } catch (error) {
      const raced = await this.accounts.findAccountByWallet(walletAddress);
      if (raced) return raced;
      throw error;
    }
  }

  /** The account a wallet session serves; 404 if it was deleted since the session began. */
  async accountById(accountId: string): Promise<AccountEntity> {
    const account = await this.accounts.findAccountById(accountId);
    if (!account) throw AppError.notFound('account');
    return account;
  }

  listAccounts() {
    return this.accounts.listAccounts();
  }

  /**
   * A tier change sets the balance to the new tier's quota for the rest of the current period; the anchor
   * stays, so period numbers (and the usage meters keyed by them) never repeat (docs/decisions.md).
   */
  async setTier({ wallet, tier }: { wallet: string; tier: string }): Promise<AccountEntity> {
    const validTier = parseTier(tier);
    return this.accounts.transaction(async (manager) => {
      const account = await this.lockAccount(manager, wallet);
      account.tier = validTier;
      await recordTierChange(manager, account.id, validTier);
      return this.credits.setBalance(manager, account, { balance: TIERS[validTier].monthlyCredits ?? '0', notes: `tier set to ${TIERS[validTier].label}` });
    });
  }

  /** Sets the balance of the current period (grant or reset); the next monthly reset still restores the quota. */
  async setCredits({ wallet, amount }: { wallet: string; amount: string }): Promise<AccountEntity> {
    const balance = parseCredits(amount);
    return this.accounts.transaction(async (manager) => {
      const account = await this.lockAccount(manager, wallet);
      if (!isMetered(account.tier)) throw new AppError(ErrorCode.FORBIDDEN, 'wallet: Free accounts are not metered; set a paid tier first');
      // The amount is measured against the last settled balance (PostgreSQL), which trails the live one by ~1 s.
      return this.credits.setBalance(manager, account, { balance, notes: `balance set to ${balance} by operator` });
    });
  }

  /** A new key of the wallet's account, its plaintext returned this once; 403 FORBIDDEN past MAX_ACTIVE_KEYS. */
  async createKey({ wallet, name = null }: { wallet: string; name?: string | null }): Promise<CreatedApiKey> {
    return this.accounts.transaction(async (manager) => {
      const account = await this.lockAccount(manager, wallet);
      const activeCount = await manager
        .createQueryBuilder(ApiKeyEntity, 'k')
        .where('k.account_id = :id AND k.revoked_at IS NULL', { id: account.id })
        .getCount();
      if (activeCount >= MAX_ACTIVE_KEYS) {
        throw new AppError(ErrorCode.FORBIDDEN, `wallet: ${account.walletAddress} already has ${MAX_ACTIVE_KEYS} active keys; revoke one first`);
      }
      const generated = generateApiKey();
      const key = await manager.save(manager.create(ApiKeyEntity, { accountId: account.id, name, prefix: generated.prefix, keyHash: generated.hash }));
      return { key: generated.plaintext, prefix: key.prefix, id: key.id, name: key.name, walletAddress: account.walletAddress, createdAt: key.createdAt };
    });
  }

  async listKeys({ wallet }: { wallet: string }): Promise<ApiKeyEntity[]> {
    const account = await this.requireAccount(wallet);
    return this.accounts.listKeys(account.id);
  }

  /** Revoked keys stop working on every replica within API_KEY_CACHE_TTL_MS (at most 5 s). */
  async revokeKey({ prefix }: { prefix: string }): Promise<ApiKeyEntity> {
    const key = await this.accounts.findKeyByPrefix(prefix);
    if (!key) throw AppError.notFound(`key with prefix ${prefix}`);
    return this.revoke(key);
  }

  /** Revokes one of the account's own keys; another account's key is as unknown as a key that never was (404). */
  async revokeOwnKey({ accountId, keyId }: { accountId: string; keyId: string }): Promise<ApiKeyEntity> {
    const key = await this.accounts.findKeyOfAccount(accountId, keyId);
    if (!key) throw AppError.notFound(`key ${keyId}`);
    return this.revoke(key);
  }

  private async revoke(key: ApiKeyEntity): Promise<ApiKeyEntity> {
    if (!key.revokedAt) {
      key.revokedAt = new Date();
      await this.accounts.transaction((manager) => manager.save(key));
    }
    return key;
  }

  private async requireAccount(wallet: string): Promise<AccountEntity> {
    const account = await this.accounts.findAccountByWallet(normalizeWallet(wallet));
    if (!account) throw AppError.notFound(`account for wallet ${wallet}`);
    return account;
  }

  private async lockAccount(manager: EntityManager, wallet: string): Promise<AccountEntity> {
    const account = await manager.findOne(AccountEntity, {
      where: { walletAddress: normalizeWallet(wallet) },
      lock: { mode: 'pessimistic_write' },
    });
    if (!account) throw AppError.notFound(`account for wallet ${wallet}`);
    return account;
  }
}

/**
 * Fees and points of a fill are priced at the tier the account had when it traded, so every change is kept
 * with the time it took effect (the transaction's time: one change per transaction).
 */
async function recordTierChange(manager: EntityManager, accountId: string, tier: Tier): Promise<void> {
  await manager.query(
    `INSERT INTO account_tier_changes (account_id, effective_at, tier) VALUES ($1, now(), $2)
     ON CONFLICT (account_id, effective_at) DO UPDATE SET tier = EXCLUDED.tier`,
    [accountId, tier],
  );
}

export function normalizeWallet(wallet: string): string {
  if (typeof wallet !== 'string' || !isAddress(wallet)) {
    throw AppError.validation('wallet', 'must be a 42-character 0x-prefixed address');
  }
  return getAddress(wallet).toLowerCase();
}

function parseTier(tier: string): Tier {
  const lower = String(tier ?? '').toLowerCase();
  if (!isTier(lower)) throw AppError.validation('tier', 'must be one of free, pro, max');
  return lower;
}

function parseCredits(amount: string): string {
  if (!/^\d{1,10}(\.\d{1,6})?$/.test(String(amount ?? '')) || new Decimal(amount).gt(MAX_CREDIT_BALANCE)) {
    throw AppError.validation('amount', `must be a decimal from 0 to ${MAX_CREDIT_BALANCE} with at most 6 decimal places`);
  }
  return toDecimalString(amount);
}
