import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import { decimalTransformer } from '../../../common/decimal/decimal';
import type { Tier } from '../../billing/billing.public';

@Entity({ name: 'accounts' })
export class AccountEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  /** Lower-case 0x address; the identity behind every key. */
  @Column({ name: 'wallet_address', type: 'varchar', length: 42, unique: true })
  walletAddress: string;

  @Column({ type: 'varchar', length: 8 })
  tier: Tier;

  /** The code other wallets bind to this account with (POST /api/v1/referral/bind). */
  @Column({ name: 'referral_code', type: 'varchar', length: 16, unique: true })
  referralCode: string;

  /** Balance as last settled from the ledger; the live balance of paid accounts is the KV store's. */
  @Column({ name: 'credit_balance', type: 'numeric', precision: 24, scale: 6, transformer: decimalTransformer })
  creditBalance: string;

  /** Bumped by every operator change of balance or tier, so every replica re-seeds its live balance. */
  @Column({ name: 'credit_epoch', type: 'integer', default: 0 })
  creditEpoch: number;

  /** Index of the monthly period (counted from resetAnchorAt) that creditBalance belongs to. */
  @Column({ name: 'credit_period', type: 'integer', default: 0 })
  creditPeriod: number;

  /** Sequence of the newest ledger entry folded into creditBalance; older ones arriving late do not move it. */
  @Column({ name: 'credit_seq', type: 'bigint', default: 0 })
  creditSeq: string;

  @Column({ name: 'reset_anchor_at', type: 'timestamptz' })
  resetAnchorAt: Date;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
