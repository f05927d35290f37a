import { Module, OnModuleInit } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobRegistry } from '../../../jobs/job-registry';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { HyperliquidModule } from '../../../providers/hyperliquid/hyperliquid.module';
import { LeaderboardSnapshotBuilder } from '../snapshot/leaderboard-snapshot.builder';
import { MarketSnapshotBuilder } from '../snapshot/market-snapshot.builder';
import { HlSnapshotModule } from '../snapshot/hl-snapshot.module';
import { FillsJob } from './fills.job';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { HlStateRepository } from './hl-state.repository';
import { LeaderboardJob } from './leaderboard.job';
import { MarketsJob } from './markets.job';
import { MidsJob } from './mids.job';
import { PositionsJob } from './positions.job';
import { SnapshotJob } from './snapshot.job';
import { TradesJob } from './trades.job';

const MINUTE = 60_000;

/** The exchange-chain snapshot jobs, registered under their ops names with their switches and cadences from configuration. */
@Module({
  imports: [HyperliquidModule, HlSnapshotModule],
  providers: [
    HlStateRepository,
    HlAddressesRepository,
    HlFeedReadsRepository,
    MarketSnapshotBuilder,
    LeaderboardSnapshotBuilder,
    MarketsJob,
    MidsJob,
    PositionsJob,
    TradesJob,
    FillsJob,
    LeaderboardJob,
    SnapshotJob,
  ],
  exports: [HlStateRepository, HlAddressesRepository],
})
export class HlJobsModule implements OnModuleInit {
  constructor(
    private readonly registry: JobRegistry,
    private readonly config: ConfigService<AppConfig, true>,
    private readonly markets: MarketsJob,
    private readonly mids: MidsJob,
    private readonly positions: PositionsJob,
    private readonly trades: TradesJob,
    private readonly fills: FillsJob,
    private readonly leaderboard: LeaderboardJob,
    private readonly snapshot: SnapshotJob,
    private readonly client: HyperliquidInfoClient,
  ) {}

  onModuleInit() {
    const schedules = this.config.get('jobs.schedules', { infer: true });
    const jobs = [
      { name: 'hl.markets', leaseMs: MINUTE, job: this.markets },
      { name: 'hl.mids', leaseMs: MINUTE, job: this.mids },
      { name: 'hl.positions', leaseMs: 5 * MINUTE, job: this.positions },
      { name: 'hl.trades', leaseMs: 2 * MINUTE, job: this.trades },
      { name: 'hl.fills', leaseMs: 5 * MINUTE, job: this.fills },
      { name: 'hl.leaderboard', leaseMs: 5 * MINUTE, job: this.leaderboard },
      { name: 'hl.snapshot', leaseMs: 5 * MINUTE, job: this.snapshot },
    ] as const;
    for (const { name, leaseMs, job } of jobs) {
      this.registry.register({
        name,
        ...schedules[name],
        leaseMs,
        run: (signal, progress) => job.run(signal, progress),
        describeLoad: () => this.describeLoad(),
      });
    }
  }

  /** The usual reason an upstream job overruns: reads queued for the next weight window (the upstream's per-IP limit). */
  private describeLoad(): string | undefined {
    const { budget } = this.client;
    if (budget.waiting === 0) return undefined;
    return `${budget.waiting} upstream read(s) waiting for request weight (HYPERLIQUID_WEIGHT_PER_MINUTE=${budget.weightPerWindow})`;
  }
}
