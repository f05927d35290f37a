import { Column, CreateDateColumn, Entity, Index, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { decimalTransformer } from '../../../common/decimal/decimal';

export type CreditTransactionType = 'charge' | 'period_reset' | 'adjustment';
export type CreditReferenceType = 'api_call' | 'credit_period' | 'operator';

/**
 * The durable credit ledger (contract part 2.7). One row per billed call, reset or operator change. Keyed
 * by (account_id, id): an account's history in order, and one index less to write per row (migration
 * 1764400000000).
 */
@Entity({ name: 'credit_transactions' })
@Index('credit_transactions_reference_uq', ['referenceId'], { unique: true })
export class CreditTransactionEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @PrimaryGeneratedColumn({ type: 'bigint' })
  id: string;

  @Column({ type: 'varchar', length: 16 })
  type: CreditTransactionType;

  /** Signed; charges are negative. */
  @Column({ type: 'numeric', precision: 24, scale: 6, transformer: decimalTransformer })
  amount: string;

  @Column({ name: 'balance_after', type: 'numeric', precision: 24, scale: 6, transformer: decimalTransformer })
  balanceAfter: string;

  @Column({ name: 'reference_type', type: 'varchar', length: 16 })
  referenceType: CreditReferenceType;

  /**
   * The request id for api_call rows, a random UUID for operator rows, and for credit_period rows the
   * name-based UUID of `<account>:e<epoch>:p<period>` (that text is in notes). Unique, so a replayed
   * flush never bills twice.
   */
  @Column({ name: 'reference_id', type: 'uuid' })
  referenceId: string;

  @Column({ type: 'varchar', length: 64, nullable: true })
  endpoint: string | null;

  @Column({ type: 'text', nullable: true })
  notes: string | null;

  @Column({ type: 'bigint', nullable: true })
  seq: string | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
