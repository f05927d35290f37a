import { Column, CreateDateColumn, Entity, Index, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { AccountEntity } from './account.entity';

@Entity({ name: 'api_keys' })
@Index('api_keys_account_active_idx', ['accountId'], { where: 'revoked_at IS NULL' })
export class ApiKeyEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @ManyToOne(() => AccountEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'account_id' })
  account?: AccountEntity;

  /** What its owner calls it (the portal asks); null for keys issued by the ops CLI. */
  @Column({ type: 'varchar', length: 64, nullable: true })
  name: string | null;

  /** The visible leading characters of the key, shown in listings and `/account`. */
  @Column({ type: 'varchar', length: 32, unique: true })
  prefix: string;

  /** SHA-256 of the whole key, hex; the plaintext is never stored. */
  @Column({ name: 'key_hash', type: 'char', length: 64, unique: true })
  keyHash: string;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @Column({ name: 'last_used_at', type: 'timestamptz', nullable: true })
  lastUsedAt: Date | null;

  @Column({ name: 'revoked_at', type: 'timestamptz', nullable: true })
  revokedAt: Date | null;
}
