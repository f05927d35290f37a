import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { LeaderboardSnapshotBuilder } from '../snapshot/leaderboard-snapshot.builder';
import { SnapshotStore } from '../snapshot/snapshot-store';
import { HlAddressesRepository } from './hl-addresses.repository';

/** The leaderboard document without vaults, published as its own snapshot; its traders seed the address universe. */
@Injectable()
export class LeaderboardJob {
  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly addresses: HlAddressesRepository,
    private readonly store: SnapshotStore,
    private readonly builder: LeaderboardSnapshotBuilder,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    // The document's age (answerTime): a read that fails publishes nothing, so a stale one is never restamped.
    const readAt = new Date();
    const [document, vaults] = await Promise.all([this.client.leaderboard(), this.client.vaultAddresses()]);
    const vaultSet = new Set(vaults);
    const rows = document.filter((r) => !vaultSet.has(r.ethAddress));
    const snapshotId = await this.store.begin('leaderboard', new Date());
    await this.builder.build(snapshotId, rows);
    signal?.throwIfAborted();
    await this.store.publish({ kind: 'leaderboard', snapshotId, rows: rows.length, feedsReadAt: { leaderboard: readAt } });
    await this.addresses.upsertAddresses({
      addresses: rows.map((r) => r.ethAddress),
      source: 'leaderboard',
      accountValues: new Map(rows.map((r) => [r.ethAddress, r.accountValue])),
    });
    await this.addresses.markVaults(vaults);
    await this.store.prune('leaderboard', this.config.get('hlJobs.snapshotRetention', { infer: true }));
    return { rows: rows.length, details: { snapshotId, vaultsExcluded: document.length - rows.length } };
  }
}
