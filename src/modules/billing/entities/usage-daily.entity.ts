import { Column, Entity, PrimaryColumn } from 'typeorm';
import { decimalTransformer } from '../../../common/decimal/decimal';

/**
 * Durable usage per UTC day: the day a call was admitted on, whenever its count was synced. Filled by the
 * same exactly-once sync as usage_counters (UsageRepository.add), so per account and period the days sum to
 * the period's totals.
 */
@Entity({ name: 'usage_daily' })
export class UsageDailyEntity {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  /** YYYY-MM-DD (UTC). */
  @PrimaryColumn({ type: 'date' })
  day: string;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  endpoint: string;

  @Column({ type: 'bigint' })
  calls: string;

  @Column({ type: 'numeric', precision: 24, scale: 6, transformer: decimalTransformer })
  credits: string;
}
