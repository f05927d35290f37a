import { Column, Entity, PrimaryColumn, UpdateDateColumn } from 'typeorm';
import { decimalTransformer } from '../../../common/decimal/decimal';

/** Durable per-period usage totals; UsageSyncService adds the deltas counted in the KV store. */
@Entity({ name: 'usage_counters' })
export class UsageCounterEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @PrimaryColumn({ name: 'period', type: 'integer' })
  period: number;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  endpoint: string;

  @Column({ type: 'bigint' })
  calls: string;

  @Column({ type: 'numeric', precision: 24, scale: 6, transformer: decimalTransformer })
  credits: string;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
