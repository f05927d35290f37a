import { Inject, Injectable, Logger } from '@nestjs/common';
import { JobOutcome, JobProgress } from '../../../jobs/job.types';
import { MARKET_DATA_PROVIDER, MarketQuote } from '../../../providers/market-data-provider';
import { AssetsRepository } from '../assets.repository';
import { MarketDataRouter } from '../providers/market-data-router';
import { loadSeedUniverse } from '../seed/seed-universe';
import { toQuoteInput, usdFigures } from './quote-input';
import { fxSymbolsOf } from '../usd-rates';

const TRADFI_TYPES = ['STOCK', 'ETF', 'FOREX', 'COMMODITY'] as const;

/**
 * Stocks, ETFs, FX pairs and futures: writes the shipped seed list into the catalogue (idempotent, so a new
 * release's additions appear on its first run; assets added by `asset:add` stay), then quotes every listed
 * one, with market cap and volume converted to USD at the FX quotes of the same run for sorting.
 */
@Injectable()
export class TradfiQuotesJob {
  private readonly logger = new Logger(TradfiQuotesJob.name);

  constructor(
    @Inject(MARKET_DATA_PROVIDER) private readonly vendors: MarketDataRouter,
    private readonly assets: AssetsRepository,
  ) {}

  async run(signal?: AbortSignal, progress?: JobProgress): Promise<JobOutcome> {
    await this.assets.upsertCatalogue(loadSeedUniverse());
    const vendor = this.vendors.vendorFor('STOCK');
    if (vendor.maxQuotesPerCall === 0) return { rows: 0, details: { skipped: 'no vendor configured for stocks, ETFs, FX and futures' } };
    const targets = await this.assets.listRefreshTargets([...TRADFI_TYPES]);
    const fxSymbols = fxSymbolsOf(targets.map((t) => t.currency));
    const symbols = [...new Set([...targets.map((t) => t.yahooSymbol!), ...fxSymbols])];
    const quotes = new Map<string, MarketQuote>();
    let failures = 0;
    for (let start = 0; start < symbols.length; start += vendor.maxQuotesPerCall) {
      progress?.report(`quoting ${start}/${symbols.length} symbols`);
      try {
        for (const quote of await this.vendors.getQuotes({ type: 'STOCK', sourceIds: symbols.slice(start, start + vendor.maxQuotesPerCall), signal })) {
          quotes.set(quote.sourceId, quote);
        }
      } catch (err) {
        signal?.throwIfAborted();
        // One failed batch leaves its assets on their previous quotes; the others still refresh.
        failures += 1;
        this.logger.warn(`quotes of symbols ${start}-${start + vendor.maxQuotesPerCall} failed: ${String(err)}`);
      }
    }
    if (quotes.size === 0 && failures > 0) throw new Error(`every quote batch failed (${failures})`);
    signal?.throwIfAborted();
    // A rate this run could not read is taken from the last stored quote, so a failed FX batch does not
    // blank the USD figures every sort and the gainers' floor rely on.
    const rates = await this.assets.latestPricesByYahooSymbol(fxSymbols);
    for (const symbol of fxSymbols) {
      const fresh = quotes.get(symbol)?.price;
      if (fresh) rates.set(symbol, fresh);
    }
    const inputs = targets.flatMap((target) => {
      const quote = quotes.get(target.yahooSymbol!);
      return quote ? [toQuoteInput(target.id, quote, usdFigures(quote, target, rates))] : [];
    });
    await this.assets.upsertQuotes(inputs);
    return { rows: inputs.length, failures, details: { vendor: vendor.name, unquoted: targets.length - inputs.length } };
  }
}
