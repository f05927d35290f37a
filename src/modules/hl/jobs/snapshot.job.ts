import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobRunsRepository } from '../../../jobs/job-runs.repository';
import { JobOutcome } from '../../../jobs/job.types';
import { MarketSnapshotBuilder } from '../snapshot/market-snapshot.builder';
import { SnapshotStore } from '../snapshot/snapshot-store';
import { HlAddressesRepository } from './hl-addresses.repository';

/** Rows one pruning DELETE removes at most, so none holds its locks for long. */
export const PRUNE_BATCH = 10_000;

/**
 * Publishes a complete market snapshot under a new id from whatever the pollers know now; prunes old
 * snapshots, then fills and job run records past their retention.
 */
@Injectable()
export class SnapshotJob {
  constructor(
    private readonly store: SnapshotStore,
    private readonly builder: MarketSnapshotBuilder,
    private readonly addresses: HlAddressesRepository,
    private readonly runs: JobRunsRepository,
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
    // After publishing, so a large backlog (the first run after an upgrade) never delays a snapshot; on this
    // cadence a batch or two per run keeps up with what the pollers and the other jobs add.
    const fillsRetentionDays = this.config.get('hlJobs.fillsRetentionDays', { infer: true });
    const runsRetentionDays = this.config.get('jobs.runsRetentionDays', { infer: true });
    const prunedFills = await pruneInBatches((limit) => this.addresses.pruneFills({ olderThanDays: fillsRetentionDays, limit }), signal);
    const prunedRuns = await pruneInBatches((limit) => this.runs.prune({ olderThanDays: runsRetentionDays, limit }), signal);
    return { rows, coverage, details: { snapshotId, prunedFills, prunedRuns } };
  }
}

/** Repeats a bounded delete until a batch comes back short (nothing left) or the run is stopped. */
async function pruneInBatches(prune: (limit: number) => Promise<number>, signal?: AbortSignal): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await prune(PRUNE_BATCH);
    total += n;
    if (n < PRUNE_BATCH || signal?.aborted) return total;
  }
}
