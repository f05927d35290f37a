import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { MARKET_DATA_PROVIDER } from '../../providers/market-data-provider';
import { CatalogueAsset } from './asset-row';
import { STOCK_MARKETS, StockMarket, toStockCode } from './asset-types';
import { AssetsRepository } from './assets.repository';
import { toQuoteInput, usdFigures } from './jobs/quote-input';
import { MarketDataRouter } from './providers/market-data-router';
import { toCategorySlug } from './seed/seed-universe';
import { fxSymbolsOf } from './usd-rates';

export interface AddAssetInput {
  /** The vendor's symbol: `9988.HK`, `NVDA`, `SI=F`, `CHF=X`. */
  yahooSymbol: string;
  sector?: string;
  industry?: string;
}

export interface AddedAsset extends CatalogueAsset {
  id: number;
}

/**
 * Additions to the catalogue of stocks, ETFs, FX and futures beyond the shipped seed list: the operator's
 * (`asset:add`) and the underliers tokenized assets name (`/rwa`). The vendor is asked first, so only a symbol
 * it quotes, of a class we list, gets an id; a stock takes the vendor's sector and industry unless given, and
 * the quote read is stored at once, so the asset is priced before the next markets.tradfi run.
 */
@Injectable()
export class AssetCatalogueService {
  constructor(
    @Inject(MARKET_DATA_PROVIDER) private readonly vendors: MarketDataRouter,
    private readonly assets: AssetsRepository,
  ) {}

  /** Adds (or lists again) the asset the vendor knows by `yahooSymbol`, with its current quote. */
  async addAsset({ yahooSymbol, ...given }: AddAssetInput): Promise<AddedAsset> {
    const symbol = yahooSymbol.trim().toUpperCase();
    if (!/^[A-Z0-9.=^-]{1,32}$/.test(symbol)) throw AppError.validation('symbol', 'must be a vendor symbol such as 9988.HK, NVDA, SI=F or CHF=X');
    const [quote] = await this.vendors.getQuotes({ type: 'STOCK', sourceIds: [symbol] });
    if (!quote) throw AppError.validation('symbol', `${symbol} is not a stock, ETF, FX pair or future the vendor quotes`);
    const market = quote.market as StockMarket | null;
    if (quote.type === 'STOCK' && (market === null || !STOCK_MARKETS.includes(market))) {
      throw AppError.validation('symbol', `${symbol} trades on a market we do not list (${STOCK_MARKETS.join(', ')})`);
    }
    // Every stock the heatmap shows has a sector and an industry: the vendor's, unless the operator names them.
    const { sector, industry } =
      quote.type === 'STOCK' && (!given.sector || !given.industry)
        ? { ...(await this.vendors.getClassification({ type: 'STOCK', sourceId: symbol })), ...definedOnly(given) }
        : given;
    if (quote.type === 'STOCK' && (!sector || !industry)) {
      throw AppError.validation('symbol', `the vendor gives no sector and industry for ${symbol}; name them (--sector, --industry)`);
    }
    const ticker = displaySymbolOf(symbol);
    const entry: CatalogueAsset = {
      type: quote.type,
      symbol: ticker,
      name: quote.name,
      market,
      stockCode: quote.type === 'STOCK' && market ? toStockCode(ticker, market) : null,
      currency: quote.currency,
      sector: sector ?? null,
      industry: industry ?? null,
      categories: sector ? [toCategorySlug(sector)] : [],
      yahooSymbol: symbol,
    };
    const [target] = await this.assets.upsertCatalogue([entry]);
    const rates = await this.assets.latestPricesByYahooSymbol(fxSymbolsOf([quote.currency]));
    await this.assets.upsertQuotes([toQuoteInput(target.id, quote, usdFigures(quote, target, rates))]);
    return { id: target.id, ...entry };
  }
}

function definedOnly({ sector, industry }: { sector?: string; industry?: string }): { sector?: string; industry?: string } {
  return { ...(sector ? { sector } : {}), ...(industry ? { industry } : {}) };
}

/** The ticker users type: the vendor symbol without its exchange or instrument suffix (`9988.HK` → 9988, `SI=F` → SI, `CHF=X` → USDCHF). */
export function displaySymbolOf(yahooSymbol: string): string {
  if (yahooSymbol.endsWith('=X')) {
    const pair = yahooSymbol.slice(0, -2);
    return pair.length === 3 ? `USD${pair}` : pair;
  }
  if (yahooSymbol.endsWith('=F')) return yahooSymbol.slice(0, -2);
  const dot = yahooSymbol.lastIndexOf('.');
  return dot > 0 ? yahooSymbol.slice(0, dot) : yahooSymbol;
}
