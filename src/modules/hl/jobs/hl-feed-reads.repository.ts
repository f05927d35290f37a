import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { FeedReadTimes, HlFeed } from '../snapshot/snapshot-freshness';

/** hl_feed_reads: when each upstream feed was last read with a fresh answer (snapshot-freshness.ts). */
@Injectable()
export class HlFeedReadsRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Call once the run's reads are stored, so a build that sees the stamp also sees the data. Never moves a
   * stamp back: two jobs stamp the marks, and a slow run may finish after a later one began.
   */
  async stamp(feed: HlFeed, readAt: Date): Promise<void> {
    await this.db.query(
      `INSERT INTO hl_feed_reads (feed, read_at) VALUES ($1, $2)
       ON CONFLICT (feed) DO UPDATE SET read_at = GREATEST(hl_feed_reads.read_at, EXCLUDED.read_at)`,
      [feed, readAt],
    );
  }

  async current(): Promise<FeedReadTimes> {
    const rows: Array<{ feed: HlFeed; read_at: Date }> = await this.db.query(`SELECT feed, read_at FROM hl_feed_reads`);
    return Object.fromEntries(rows.map((r) => [r.feed, new Date(r.read_at)]));
  }
}
