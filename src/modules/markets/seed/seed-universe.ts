import type { CatalogueAsset } from '../asset-row';
import { ASSET_TYPES, STOCK_MARKETS, toStockCode } from '../asset-types';
import { ETFS } from './etfs.seed';
import { COMMODITIES, FX_PAIRS } from './fx-commodities.seed';
import { HK_STOCKS } from './hk-stocks.seed';
import { JP_STOCKS } from './jp-stocks.seed';
import { KR_STOCKS } from './kr-stocks.seed';
import type { SeedEntry } from './seed-entry';
import { US_STOCKS } from './us-stocks.seed';

/** Every shipped seed list; crypto is not seeded (the crypto job takes CoinGecko's top N). */
export const SEED_LISTS: readonly SeedEntry[][] = [US_STOCKS, HK_STOCKS, JP_STOCKS, KR_STOCKS, ETFS, FX_PAIRS, COMMODITIES];

// The Yahoo suffix of each stock market; a US symbol has none.
const YAHOO_SUFFIX: Record<string, string> = { US: '', HK: '.HK', JP: '.T', KR: '.KS' };
const STOCK_CODE = /^[A-Z0-9.-]+-(US|HK|JP|KR)$/;

/** Lowercase words joined by hyphens: "Consumer Cyclical" -> "consumer-cyclical". */
export function toCategorySlug(label: string): string {
  return label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * Checks the seed lists and turns them into catalogue entries keyed by Yahoo symbol. Throws with every
 * problem found: a duplicate Yahoo symbol, a crypto or unknown type, a stock without a known market, a sector and
 * an industry, or whose Yahoo suffix does not match it, a symbol that is not the Yahoo symbol without its suffix.
 */
export function loadSeedUniverse(lists: readonly SeedEntry[][] = SEED_LISTS): CatalogueAsset[] {
  const problems: string[] = [];
  const seen = new Set<string>();
  const entries: CatalogueAsset[] = [];
  for (const seed of lists.flat()) {
    const label = seed.yahooSymbol;
    if (seen.has(label)) problems.push(`${label}: duplicate yahoo symbol`);
    seen.add(label);
    if (!ASSET_TYPES.includes(seed.type) || seed.type === 'CRYPTO') problems.push(`${label}: type ${seed.type} cannot be seeded`);
    if (!seed.symbol || !seed.name) problems.push(`${label}: symbol and name are required`);
    let stockCode: string | null = null;
    if (seed.type === 'STOCK') {
      const market = seed.market;
      if (market === null || !STOCK_MARKETS.includes(market)) {
        problems.push(`${label}: a stock needs a market (${STOCK_MARKETS.join(', ')})`);
      } else {
        if (seed.yahooSymbol !== `${seed.symbol}${YAHOO_SUFFIX[market]}`) {
          problems.push(`${label}: symbol ${seed.symbol} on ${market} must be the yahoo symbol without its suffix`);
        }
        stockCode = toStockCode(seed.symbol, market);
        // The heatmap groups by sector and shows the industry of every stock: the vendor's names, shipped with the seed.
        if (!seed.sector || !seed.industry) problems.push(`${label}: a stock needs its vendor's sector and industry`);
        if (!STOCK_CODE.test(stockCode)) problems.push(`${label}: stock code ${stockCode} is not <TICKER>-<MARKET>`);
      }
    } else if (seed.market !== null && !STOCK_MARKETS.includes(seed.market)) {
      problems.push(`${label}: unknown market ${String(seed.market)}`);
    }
    entries.push({
      type: seed.type,
      symbol: seed.symbol,
      name: seed.name,
      market: seed.market,
      stockCode,
      currency: seed.currency,
      sector: seed.sector ?? null,
      industry: seed.industry ?? null,
      categories: seed.sector ? [toCategorySlug(seed.sector)] : [],
      yahooSymbol: seed.yahooSymbol,
    });
  }
  if (problems.length > 0) throw new Error(`invalid seed universe:\n${problems.join('\n')}`);
  return entries;
}
