import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ApiCaller } from './api-caller';
import { creditsToMicro } from '../billing/billing.public';
import { toDecimalString } from '../../common/decimal/decimal';
import { AccountEntity } from './entities/account.entity';
import { ApiKeyEntity } from './entities/api-key.entity';

interface CallerRow {
  key_hash: string;
  key_id: string;
  prefix: string;
  account_id: string;
  wallet_address: string;
  tier: ApiCaller['tier'];
  credit_balance: string;
  credit_epoch: number;
  credit_period: number;
  reset_anchor_at: Date | string;
}

/** All SQL of the account area: accounts and keys (credits and the ledger: billing's AccountCreditsRepository). */
@Injectable()
export class AccountRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * The callers of these active keys, by key hash; revoked and unknown hashes are simply absent. A join
   * rather than `= ANY($1)`: with a thousand hashes and stale statistics, ANY turns into a scan that
   * compares every row with every hash.
   */
  async findCallersByKeyHashes(keyHashes: string[]): Promise<Map<string, ApiCaller>> {
    const rows: CallerRow[] = await this.db.query(
      `SELECT k.key_hash, k.id AS key_id, k.prefix, a.id AS account_id, a.wallet_address, a.tier,
              a.credit_balance::text AS credit_balance, a.credit_epoch, a.credit_period, a.reset_anchor_at
         FROM unnest($1::bpchar[]) AS wanted(key_hash)
         JOIN api_keys k ON k.key_hash = wanted.key_hash
         JOIN accounts a ON a.id = k.account_id
        WHERE k.revoked_at IS NULL`,
      [keyHashes],
    );
    return new Map(
      rows.map((row): [string, ApiCaller] => {
        const anchor = new Date(row.reset_anchor_at);
        const caller: ApiCaller = {
          keyId: row.key_id,
          keyPrefix: row.prefix,
          accountId: row.account_id,
          walletAddress: row.wallet_address,
          tier: row.tier,
          resetAnchorAt: anchor,
          resetAnchorText: anchor.toISOString(),
          creditSeedMicro: creditsToMicro(row.credit_balance),
          creditEpoch: Number(row.credit_epoch),
          creditPeriod: Number(row.credit_period),
        };
        return [row.key_hash, caller];
      }),
    );
  }

  /** Batched off the hot path: one statement for every key used since the last flush. */
  /** lastUsed: key id -> epoch ms of its latest use. */
  async touchKeys(lastUsed: Map<string, number>): Promise<void> {
    if (lastUsed.size === 0) return;
    const payload = JSON.stringify([...lastUsed].map(([id, atMs]) => ({ id, at: new Date(atMs).toISOString() })));
    await this.db.query(
      `UPDATE api_keys k SET last_used_at = v.at
         FROM jsonb_to_recordset($1::jsonb) AS v(id uuid, at timestamptz)
        WHERE k.id = v.id AND (k.last_used_at IS NULL OR k.last_used_at < v.at)`,
      [payload],
    );
  }

  findAccountByWallet(walletAddress: string, manager: EntityManager = this.db.manager): Promise<AccountEntity | null> {
    return manager.findOne(AccountEntity, { where: { walletAddress } });
  }

  findAccountById(id: string): Promise<AccountEntity | null> {
    return this.db.manager.findOne(AccountEntity, { where: { id } });
  }

  listAccounts(): Promise<Array<AccountEntity & { activeKeys: number }>> {
    return this.db
      .query(
        `SELECT a.id, a.wallet_address, a.tier, a.credit_balance::text AS credit_balance, a.reset_anchor_at, a.created_at,
                (SELECT count(*) FROM api_keys k WHERE k.account_id = a.id AND k.revoked_at IS NULL)::int AS active_keys
           FROM accounts a ORDER BY a.created_at, a.wallet_address`,
      )
      .then((rows: Array<Record<string, unknown>>) =>
        rows.map((r) =>
          Object.assign(new AccountEntity(), {
            id: r.id,
            walletAddress: r.wallet_address,
            tier: r.tier,
            creditBalance: toDecimalString(String(r.credit_balance)),
            resetAnchorAt: new Date(r.reset_anchor_at as string),
            createdAt: new Date(r.created_at as string),
            activeKeys: Number(r.active_keys),
          }),
        ),
      );
  }

  listKeys(accountId: string): Promise<ApiKeyEntity[]> {
    return this.db.manager.find(ApiKeyEntity, { where: { accountId }, order: { createdAt: 'ASC' } });
  }

  findKeyOfAccount(accountId: string, keyId: string): Promise<ApiKeyEntity | null> {
    return this.db.manager.findOne(ApiKeyEntity, { where: { id: keyId, accountId } });
  }

  findKeyByPrefix(prefix: string): Promise<ApiKeyEntity | null> {
    return this.db.manager.findOne(ApiKeyEntity, { where: { prefix } });
  }

  transaction<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.db.transaction(work);
  }
}
