import { CreateDateColumn, Entity, JoinColumn, ManyToOne, PrimaryColumn } from 'typeorm';
import { WatchlistGroupEntity } from './watchlist-group.entity';

/** One coin of a group, under its canonical spelling (so adding it twice is one row). */
@Entity({ name: 'watchlist_entries' })
export class WatchlistEntryEntity {
  @PrimaryColumn({ name: 'group_id', type: 'uuid' })
  groupId: string;

  @ManyToOne(() => WatchlistGroupEntity, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'group_id' })
  group?: WatchlistGroupEntity;

  @PrimaryColumn({ type: 'varchar', length: 64 })
  coin: string;

  @CreateDateColumn({ name: 'added_at', type: 'timestamptz' })
  addedAt: Date;
}
