import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { AccountEntity } from '../account/entities/account.entity';
import { periodIndexAt } from './credit-period';
import { CreditSeed } from './admit-batch';
import type { CreditStoreKind } from './credit-store';
import { CreditTransactionEntity } from './entities/credit-transaction.entity';
import { Tier, TIERS } from './tiers';

/** One call for billing_admit: `charge` to take its cost (then its row and usage are written), else only read its balance. */
export interface PostgresAdmission {
  accountId: string;
  requestId: string;
  endpoint: string;
  costMicro: number;
  charge: boolean;
  /** The caller's credit epoch, and the current period with the tier's quota (for a monthly reset). */
  epoch: number;
  period: number;
  quotaMicro: string;
}

/** billing_admit's answer for a call. */
export interface PostgresAdmitted {
  status: number;
  balanceMicro: string;
  epoch: number;
  period: number;
  seq: number;
}

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
 * opening balance, an operator's change (with its adjustment row), the ledger fold (foldBalancesSql), and
 * on the `postgres` credits store the charges themselves (billing_admit, billing_void). Every operator
 * change bumps credit_epoch, so each replica re-seeds its live balance within one key-cache TTL; also the
 * ledger's history reads, and which credits store the service last ran on (billing_state).
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

  /** An account's credit columns as of now, in micro-credits: what a live balance is seeded from. */
  async seedOf(accountId: string): Promise<CreditSeed> {
    const [row]: Array<{ balance: string; epoch: number; period: number }> = await this.db.query(
      `SELECT (credit_balance * 1000000)::bigint::text AS balance, credit_epoch AS epoch, credit_period AS period FROM accounts WHERE id = $1`,
      [accountId],
    );
    if (!row) throw new Error(`account ${accountId} has no credit columns`);
    return { balanceMicro: row.balance, epoch: Number(row.epoch), period: Number(row.period) };
  }

  /**
   * The calls of one batch through billing_admit (migration 1765400000000), in order: charged (and their
   * ledger rows and usage written) or refused, or only their balance read. One statement, one round trip.
   */
  async admitInPostgres(calls: readonly PostgresAdmission[], { atMs, lockTimeoutMs }: { atMs: number; lockTimeoutMs: number }): Promise<PostgresAdmitted[]> {
    const rows: Array<{ status: number; balance: string; epoch: number; period: number; seq: string }> = await this.db.query(
      `SELECT status, balance, epoch, period, seq::text AS seq
         FROM billing_admit($1::uuid[], $2::uuid[], $3::text[], $4::bigint[], $5::boolean[], $6::int[], $7::int[], $8::bigint[], $9::bigint, $10::int)`,
      [
        calls.map((c) => c.accountId),
        calls.map((c) => c.requestId),
        calls.map((c) => c.endpoint),
        calls.map((c) => c.costMicro),
        calls.map((c) => c.charge),
        calls.map((c) => c.epoch),
        calls.map((c) => c.period),
        calls.map((c) => c.quotaMicro),
        atMs,
        Math.max(1, Math.round(lockTimeoutMs)),
      ],
    );
    return rows.map((r) => ({ status: Number(r.status), balanceMicro: r.balance, epoch: Number(r.epoch), period: Number(r.period), seq: Number(r.seq) }));
  }

  /**
   * billing_void: a failed call's charge row, credits and usage taken back; the balance afterwards
   * (micro-credits). `abandon` for a call given up on: any billing_admit of it still to come charges nothing.
   */
  async voidInPostgres({
    accountId,
    requestId,
    period,
    abandon = false,
  }: {
    accountId: string;
    requestId: string;
    period: number;
    abandon?: boolean;
  }): Promise<string> {
    const [row]: Array<{ balance: string }> = await this.db.query(`SELECT billing_void($1::uuid, $2::uuid, $3::int, $4::boolean) AS balance`, [
      accountId,
      requestId,
      period,
      abandon,
    ]);
    return row.balance;
  }

  /** The credits store the service last ran on (billing_state), null before any was recorded. */
  async lastCreditStore(): Promise<CreditStoreKind | null> {
    const [row]: Array<{ value: CreditStoreKind }> = await this.db.query(`SELECT value FROM billing_state WHERE name = 'credits_store'`);
    return row?.value ?? null;
  }

  async recordCreditStore(kind: CreditStoreKind): Promise<void> {
    await this.db.query(
      `INSERT INTO billing_state (name, value) VALUES ('credits_store', $1)
       ON CONFLICT (name) DO UPDATE SET value = EXCLUDED.value, updated_at = now()`,
      [kind],
    );
  }

  /** Every account's credit epoch moves on: every live balance in the KV store seeds again from PostgreSQL. */
  async moveEveryEpoch(): Promise<void> {
    await this.db.query(`UPDATE accounts SET credit_epoch = credit_epoch + 1, updated_at = now()`);
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
