import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { mapLimit } from '../../../common/async/map-limit';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { Fill } from '../../../providers/hyperliquid/hyperliquid.types';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { FillRow } from './hl-state.repository';

const DAY_MS = 24 * 3600 * 1000;
const FIRST_LOOKBACK_MS = 7 * DAY_MS;
const UPSTREAM_PAGE = 2000;

/** Fills of the HIP-3 / HIP-4 traders, read incrementally (from where the last read stopped): the smart-trader aggregates' input. */
@Injectable()
export class FillsJob {
  private readonly logger = new Logger(FillsJob.name);

  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly addresses: HlAddressesRepository,
    private readonly feeds: HlFeedReadsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    const startedAt = new Date();
    const { pollBatch, pollConcurrency, fillsRetentionDays } = this.config.get('hlJobs', { infer: true });
    // Never further back than the fills are kept: older ones would be pruned by the next snapshot run.
    const firstLookbackMs = Math.min(FIRST_LOOKBACK_MS, fillsRetentionDays * DAY_MS);
    const due = await this.addresses.addressesWantingFills(pollBatch);
    let rows = 0;
    let read = 0;
    const failures = await mapLimit(
      due,
      pollConcurrency,
      async ({ address, polledUntil }) => {
        const now = Date.now();
        const fills = await this.client.userFillsByTime(address, polledUntil ?? now - firstLookbackMs, now);
        const kept = fills.filter((f) => f.coin.includes(':') || f.coin.startsWith('#')).map((f) => toFillRow(address, f));
        // A full page means there may be more: continue from its newest fill's millisecond next round (fills
        // sharing it come again and are skipped as duplicates), past it only if the whole page is that millisecond.
        const newest = fills.length > 0 ? Math.max(...fills.map((f) => f.time)) : now;
        const oldest = fills.length > 0 ? Math.min(...fills.map((f) => f.time)) : now;
        const until = fills.length >= UPSTREAM_PAGE ? (newest === oldest ? newest + 1 : newest) : now;
        await this.addresses.saveFills(address, kept, until);
        rows += kept.length;
        progress?.report(`reading fills: ${++read}/${due.length} addresses`);
      },
      { signal, onError: ({ address }, error) => this.logger.warn(`fills of ${address} failed: ${(error as Error).message}`) },
    );
    if (due.length > failures) await this.feeds.stamp('fills', startedAt);
    return { rows, failures, details: { addresses: due.length } };
  }
}

function toFillRow(address: string, f: Fill): FillRow {
  return {
    address,
    // Older fills have no tid; hash + order id + time identifies them.
    fillKey: f.tid !== null ? String(f.tid) : `${f.hash}:${f.oid}:${f.time}`,
    coin: f.coin,
    timeMs: f.time,
    px: f.px,
    sz: f.sz,
    side: f.side,
    dir: f.dir,
    closedPnl: f.closedPnl,
    fee: f.fee,
  };
}
