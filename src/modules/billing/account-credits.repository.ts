import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { AccountEntity } from '../account/entities/account.entity';
import { periodIndexAt } from './credit-period';
import { CreditTransactionEntity } from './entities/credit-transaction.entity';
import { Tier, TIERS } from './tiers';

/** The credit columns of an account (credit_balance, credit_epoch, credit_period, credit_seq). */
type AccountCredits = Pick<AccountEntity, 'creditBalance' | 'creditEpoch' | 'creditPeriod' | 'creditSeq'>;

/**
 * The fold of drained ledger lines into accounts: each account takes the balance of its newest line, if
 * that line belongs to the account's current epoch and is newer than the last one folded. `source` names
 * the lines as `n(account_id, balance_after, epoch, period, seq)`; `guard` is a condition the whole fold
 * depends on (the drain fence). LedgerRepository runs it inside its own statement or transaction, so the
 * ledger rows and the balance commit together.
 */
export function foldBalancesSql(source: string, guard = 'true'): string {
  return `
  UPDATE accounts a
     SET credit_balance = n.balance_after, credit_seq = n.seq, credit_period = GREATEST(a.credit_period, n.period), updated_at = now()
    FROM ${source}
   WHERE ${guard} AND a.id = n.account_id AND a.credit_epoch = n.epoch AND a.credit_seq < n.seq`;
}

/**
 * The one writer of an account's credit columns and of the operator's ledger rows: a new account's
 * opening balance, an operator's change (with its adjustment row), and the ledger fold (foldBalancesSql).
 * Every operator change bumps credit_epoch, so each replica re-seeds its live balance within one key-cache
 * TTL; also the ledger's history reads.
 */
@Injectable()
export class AccountCreditsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /** A new account starts with its tier's full quota, in the first epoch and period. */
  opening(tier: Tier): AccountCredits {
    return { creditBalance: TIERS[tier].monthlyCredits ?? '0', creditEpoch: 0, creditPeriod: 0, creditSeq: '0' };
  }

  /**
   * Sets the balance of the account's current period (an operator grant, reset or tier change), with its
   * adjustment row, and saves the account (with anything else the caller changed on it, such as its tier)
   * in the caller's transaction, where the account is locked.
   */
  async setBalance(manager: EntityManager, account: AccountEntity, { balance, notes }: { balance: string; notes: string }): Promise<AccountEntity> {
    await manager.save(
      manager.create(CreditTransactionEntity, {
        accountId: account.id,
        type: 'adjustment',
        amount: toDecimalString(new Decimal(balance).minus(account.creditBalance)),
        balanceAfter: balance,
        referenceType: 'operator',
        referenceId: randomUUID(),
        endpoint: null,
        notes,
        seq: null,
      }),
    );
    Object.assign(account, {
      creditBalance: balance,
      creditEpoch: account.creditEpoch + 1,
      creditPeriod: periodIndexAt(account.resetAnchorAt, new Date()),
    });
    return manager.save(account);
  }

  /** Newest first, one probe row beyond the page so hasMore needs no count. */
  listTransactions(accountId: string, offset: number, take: number): Promise<CreditTransactionEntity[]> {
    return this.db.manager.find(CreditTransactionEntity, {
      where: { accountId },
      order: { id: 'DESC' },
      skip: offset,
      take,
    });
  }
}
