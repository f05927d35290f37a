import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome } from '../../../jobs/job.types';
import { MarketSnapshotBuilder } from '../snapshot/market-snapshot.builder';
import { SnapshotStore } from '../snapshot/snapshot-store';

/** Publishes a complete market snapshot under a new id from whatever the pollers know now; prunes old ones. */
@Injectable()
export class SnapshotJob {
  constructor(
    private readonly store: SnapshotStore,
    private readonly builder: MarketSnapshotBuilder,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const snapshotId = await this.store.begin('market', new Date());
    const leaderboard = await this.store.current('leaderboard');
    const { rows, coverage } = await this.builder.build(snapshotId, leaderboard?.id ?? null);
    // A run that lost its lock (or was stopped) must not publish: the previous snapshot stays current.
    signal?.throwIfAborted();
    await this.store.publish({ kind: 'market', snapshotId, rows, coverage });
    await this.store.prune('market', this.config.get('hlJobs.snapshotRetention', { infer: true }));
    return { rows, coverage, details: { snapshotId } };
  }
}
