import { Injectable, Logger } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { mapLimit } from '../../../common/async/map-limit';
import { Decimal } from '../../../common/decimal/decimal';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { HyperliquidInfoClient } from '../../../providers/hyperliquid/hyperliquid-info.client';
import { HlAddressesRepository } from './hl-addresses.repository';
import { HlFeedReadsRepository } from './hl-feed-reads.repository';
import { HlStateRepository, MarketRow, TradeRow } from './hl-state.repository';

/** Hyperliquid's liquidator (HLP Liquidator): the counterparty of every backstop liquidation. */
export const LIQUIDATOR_ADDRESSES = new Set(['0x2e3d94f0562703b25c83308a05046ddaf9a8dd14']);
const TOP_NATIVE_PERPS = 20;
const TOP_SPOT = 10;

/**
 * Recent trades of the coins that matter (every HIP-3 and HIP-4 coin, the busiest native perps and spot
 * pairs): stored for trending, and their `users` pairs grow the address universe. Traders of HIP-3/HIP-4
 * coins are flagged for fill polling (the smart-trader aggregates); the other side of a trade with the
 * liquidator is a liquidated user.
 */
@Injectable()
export class TradesJob {
  private readonly logger = new Logger(TradesJob.name);

  constructor(
    private readonly client: HyperliquidInfoClient,
    private readonly state: HlStateRepository,
    private readonly addresses: HlAddressesRepository,
    private readonly feeds: HlFeedReadsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    const startedAt = new Date();
    const markets = await this.state.listMarkets();
    const targets = tradeTargets(markets);
    const trades: TradeRow[] = [];
    /** Each address seen trading -> its latest trade time (ms). */
    const traders = new Map<string, number>();
    const fillTraders = new Set<string>();
    const liquidated = new Map<string, number>();
    let read = 0;
    const failures = await mapLimit(
      targets,
      this.config.get('hlJobs.pollConcurrency', { infer: true }),
      async (market) => {
        for (const t of await this.client.recentTrades(market.upstreamCoin)) {
          const [buyer, seller] = t.users;
          trades.push({ coin: market.upstreamCoin, tid: t.tid, timeMs: t.time, px: t.px, sz: t.sz, side: t.side, buyer, seller });
          for (const user of t.users) {
            if (LIQUIDATOR_ADDRESSES.has(user)) continue;
            traders.set(user, Math.max(traders.get(user) ?? 0, t.time));
            if (market.dex || market.market === 'hip4') fillTraders.add(user);
          }
          if (LIQUIDATOR_ADDRESSES.has(buyer)) liquidated.set(seller, Math.max(liquidated.get(seller) ?? 0, t.time));
          if (LIQUIDATOR_ADDRESSES.has(seller)) liquidated.set(buyer, Math.max(liquidated.get(buyer) ?? 0, t.time));
        }
        progress?.report(`reading recent trades: ${++read}/${targets.length} coins`);
      },
      { signal, onError: (m, error) => this.logger.warn(`recentTrades ${m.upstreamCoin} failed: ${(error as Error).message}`) },
    );
    progress?.report(`saving ${trades.length} trades`);
    const inserted = await this.state.insertTrades(trades);
    await this.addresses.upsertAddresses({ addresses: [...traders.keys()], source: 'trades', wantsFills: fillTraders, lastTradeAt: traders });
    await this.addresses.upsertAddresses({ addresses: [...liquidated.keys()], source: 'liquidation', lastTradeAt: liquidated });
    if (targets.length > failures) await this.feeds.stamp('trades', startedAt);
    return { rows: inserted, failures, details: { coins: targets.length, traders: traders.size, liquidated: liquidated.size } };
  }
}

function tradeTargets(markets: MarketRow[]): MarketRow[] {
  const byVolume = (a: MarketRow, b: MarketRow) => new Decimal(b.dayNtlVlm ?? 0).comparedTo(a.dayNtlVlm ?? 0) || a.coin.localeCompare(b.coin);
  const perps = markets.filter((m) => m.market === 'perp');
  return [
    ...perps.filter((m) => m.dex !== ''),
    ...markets.filter((m) => m.market === 'hip4'),
    ...perps
      .filter((m) => m.dex === '')
      .sort(byVolume)
      .slice(0, TOP_NATIVE_PERPS),
    ...markets
      .filter((m) => m.market === 'spot' && m.upstreamCoin !== m.coin)
      .sort(byVolume)
      .slice(0, TOP_SPOT),
  ];
}
