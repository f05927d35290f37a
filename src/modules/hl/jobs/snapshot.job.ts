import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome } from '../../../jobs/job.types';
import { pruneInBatches } from '../../../jobs/prune-in-batches';
import { MarketSnapshotBuilder } from '../snapshot/market-snapshot.builder';
import { answerTime } from '../snapshot/snapshot-freshness';
import { SnapshotStore } from '../snapshot/snapshot-store';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';

/**
 * Publishes a complete market snapshot under a new id from whatever the pollers know now, with the feed
 * stamps it was built from (how old its data is, snapshot-freshness.ts); prunes old snapshots, then fills
 * past their retention (run records are housekeeping.job-runs').
 */
@Injectable()
export class SnapshotJob {
  constructor(
    private readonly store: SnapshotStore,
    private readonly builder: MarketSnapshotBuilder,
    private readonly addresses: HlAddressesRepository,
    private readonly feeds: HlFeedReadsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const snapshotTime = new Date();
    const snapshotId = await this.store.begin('market', snapshotTime);
    // Before any data is read: a stamp is written once its run's reads are stored, so the snapshot holds at
    // least the reads its stamps claim.
    const feedsReadAt = await this.feeds.current();
    const leaderboard = await this.store.current('leaderboard');
    const { rows, coverage } = await this.builder.build({
      snapshotId,
      leaderboardSnapshotId: leaderboard?.id ?? null,
      trendingAsOf: answerTime({ feedsReadAt, snapshotTime }, 'trending'),
    });
    // A run that lost its lock (or was stopped) must not publish: the previous snapshot stays current.
    signal?.throwIfAborted();
    await this.store.publish({ kind: 'market', snapshotId, rows, coverage, feedsReadAt });
    await this.store.prune('market', this.config.get('hlJobs.snapshotRetention', { infer: true }));
    // After publishing, so a large backlog (the first run after an upgrade) never delays a snapshot; on this
    // cadence a batch or two per run keeps up with what the pollers and the other jobs add.
    const fillsRetentionDays = this.config.get('hlJobs.fillsRetentionDays', { infer: true });
    const prunedFills = await pruneInBatches((limit) => this.addresses.pruneFills({ olderThanDays: fillsRetentionDays, limit }), signal);
    return { rows, coverage, details: { snapshotId, prunedFills, feedsReadAt } };
  }
}
