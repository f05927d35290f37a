import { Injectable } from '@nestjs/common';
import { JobOutcome } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { HlStateRepository } from './hl-state.repository';

/** Mid prices of every dex, every few seconds: the mids endpoint, the marks between catalogue refreshes, and trending's samples. */
@Injectable()
export class MidsJob {
  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
  ) {}

  async run(): Promise<JobOutcome> {
    const markets = await this.state.listMarkets();
    if (markets.length === 0) return { rows: 0, details: { skipped: 'no market catalogue yet (run hl.markets)' } };
    const dexes = [...new Set(markets.filter((m) => m.dex !== '').map((m) => m.dex))];
    const all = await Promise.all([this.client.allMids(), ...dexes.map((dex) => this.client.allMids(dex))]);
    const mids = Object.assign({}, ...all) as Record<string, string>;
    await this.state.updateMids(mids);
    const rows = await this.state.publishMids(Math.floor(Date.now() / 60_000));
    return { rows };
  }
}
