import { Column, CreateDateColumn, Entity, PrimaryColumn } from 'typeorm';

/** One member of a cohort: a lower-case address with the owner's private tags. */
@Entity({ name: 'cohort_addresses' })
export class CohortAddressEntity {
  @PrimaryColumn({ name: 'cohort_id', type: 'uuid' })
  cohortId: string;

  @PrimaryColumn({ type: 'varchar', length: 42 })
  address: string;

  @Column({ type: 'text', array: true, default: () => `'{}'` })
  tags: string[];

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt: Date;
}
