import { Inject, Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { AppConfig } from '../../../config/app.config';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { MARKET_DATA_PROVIDER, MarketQuote } from '../../../providers/market-data-provider';
import { AssetsRepository } from '../assets.repository';
import { MarketDataRouter } from '../providers/market-data-router';
import { toQuoteInput } from './quote-input';

const EXTRA_PAGES = 2;

/**
 * The crypto universe and its quotes in one pass: the vendor's ranking by market cap, page by page, to the
 * configured size (MARKETS_CRYPTO_UNIVERSE). Coins are keyed by the vendor's id; a coin that left the top N
 * is delisted (its id stays reserved, and it comes back under the same id if it returns).
 */
@Injectable()
export class CryptoQuotesJob {
  constructor(
    @Inject(MARKET_DATA_PROVIDER) private readonly vendors: MarketDataRouter,
    private readonly assets: AssetsRepository,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    const vendor = this.vendors.vendorFor('CRYPTO');
    if (vendor.maxQuotesPerCall === 0) return { rows: 0, details: { skipped: 'no crypto vendor configured' } };
    const universe = this.config.get('markets.cryptoUniverse', { infer: true });
    const perPage = Math.min(universe, vendor.maxQuotesPerCall);
    const seen = new Map<string, MarketQuote>();
    // Rankings shift while they are paged, so a few pages past the universe's may be needed, never more.
    const lastPage = Math.ceil(universe / perPage) + EXTRA_PAGES;
    for (let page = 1; seen.size < universe && page <= lastPage; page += 1) {
      progress?.report(`reading page ${page} of the ranking (${seen.size}/${universe} coins)`);
      const quotes = await this.vendors.listQuotes({ type: 'CRYPTO', page, perPage, signal });
      // A coin seen on an earlier page keeps that rank.
      for (const quote of quotes) if (!seen.has(quote.sourceId)) seen.set(quote.sourceId, quote);
      if (quotes.length < perPage) break;
    }
    signal?.throwIfAborted();
    // An empty ranking is the vendor failing, not every coin leaving the universe: delist nothing.
    if (seen.size === 0) throw new Error(`${vendor.name} returned an empty ranking`);
    const top = [...seen.values()].slice(0, universe);
    const targets = await this.assets.upsertCatalogue(
      top.map((quote, rank) => ({
        type: 'CRYPTO',
        symbol: quote.symbol,
        name: quote.name,
        currency: 'USD',
        coingeckoId: quote.sourceId,
        marketCapRank: rank + 1,
      })),
    );
    const idOf = new Map(targets.map((target) => [target.coingeckoId, target.id]));
    await this.assets.upsertQuotes(
      top.map((quote) => toQuoteInput(idOf.get(quote.sourceId)!, quote, { marketCapUsd: quote.marketCap, volume24hUsd: quote.volume24h })),
    );
    const delisted = await this.assets.delistCryptoExcept(top.map((quote) => quote.sourceId));
    return { rows: top.length, details: { vendor: vendor.name, delisted } };
  }
}
