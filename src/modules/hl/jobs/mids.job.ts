import { Injectable } from '@nestjs/common';
import { JobOutcome } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { HlStateRepository } from './hl-state.repository';

/** Mid prices of every dex, every few seconds: the mids endpoint, the marks between catalogue refreshes, and trending's samples. */
@Injectable()
export class MidsJob {
  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
    private readonly feeds: HlFeedReadsRepository,
  ) {}

  async run(signal?: AbortSignal): Promise<JobOutcome> {
    const startedAt = new Date();
    const markets = await this.state.listMarkets();
    if (markets.length === 0) return { rows: 0, details: { skipped: 'no market catalogue yet (run hl.markets)' } };
    const dexes = [...new Set(markets.filter((m) => m.dex !== '').map((m) => m.dex))];
    // One dex failing (the client logged why) leaves its previous mids in place rather than failing all.
    const settled = await Promise.allSettled([this.client.allMids(), ...dexes.map((dex) => this.client.allMids(dex))]);
    const failures = settled.filter((s) => s.status === 'rejected').length;
    if (failures === settled.length) throw (settled[0] as PromiseRejectedResult).reason;
    // Stopped mid-read: some dexes were cut short, and a partial set must not be published as the latest.
    signal?.throwIfAborted();
    const mids = Object.assign({}, ...settled.map((s) => (s.status === 'fulfilled' ? s.value : {}))) as Record<string, string>;
    await this.state.updateMids(mids);
    const rows = await this.state.publishMids(Math.floor(Date.now() / 60_000));
    // At least one dex answered (none answering threw above): the snapshots' marks are fresh.
    await this.feeds.stamp('marks', startedAt);
    return { rows, failures };
  }
}
