import { Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { JsonText } from '../../common/http/json-text';
import { AssetsRepository } from '../markets/assets.repository';
import { AssetsService } from '../markets/assets.service';
import { Aged, oldestOf } from '../markets/data-age';
import { fxSymbolsOf, toUsd } from '../markets/usd-rates';
import { StockOverviewCategoryDto, StockOverviewDto, StockOverviewQueryDto } from './dto/stock-overview.dto';
import { OverviewRow, StockOverviewRepository } from './stock-overview.repository';
import { numberOrNull } from '../markets/asset-types';

/** Most stocks per sector group: a heatmap tile count a screen shows at once. */
export const LIMIT_PER_CATEGORY = 20;
const READ_TTL_MS = 5_000;
/** Price decimals kept in USD: a yen-priced stock at 150 per dollar needs more than cents. */
const USD_PRICE_DECIMALS = 6;

/**
 * `/stock/overview`, the sector heatmap: listed stocks of a market (or all) grouped by market and sector, the
 * largest by USD market cap first, from the catalogue the quote jobs keep (no upstream call). Figures are JSON
 * numbers, as the contract's table says; `priceUsd` is converted at the catalogue's latest FX quotes.
 */
@Injectable()
export class StockOverviewService {
  private readonly answers = new TtlCache<Aged<JsonText>>(READ_TTL_MS, 200);

  constructor(
    private readonly overview: StockOverviewRepository,
    private readonly assets: AssetsRepository,
    private readonly catalogue: AssetsService,
  ) {}

  async get({ market, category }: StockOverviewQueryDto): Promise<Aged<JsonText>> {
    await this.catalogue.assertKnownCategory(category, ['STOCK']);
    return this.answers.get(`${market}:${category}`, async () => {
      const rows = await this.overview.topBySector({ market, category, perSector: LIMIT_PER_CATEGORY });
      const rates = await this.assets.latestPricesByYahooSymbol(fxSymbolsOf(rows.map((row) => row.currency)));
      const body: StockOverviewDto = { market: market ?? 'ALL', limitPerCategory: LIMIT_PER_CATEGORY, categories: groupBySector(rows, rates) };
      return { data: JsonText.of(body), asOf: oldestOf(...rows.map((row) => row.priceUpdatedAt?.getTime())) };
    });
  }
}

function groupBySector(rows: OverviewRow[], rates: ReadonlyMap<string, string>): StockOverviewCategoryDto[] {
  const groups = new Map<string, StockOverviewCategoryDto>();
  for (const row of rows) {
    const key = `${row.market}:${row.sector}`;
    let group = groups.get(key);
    if (!group) groups.set(key, (group = { category: row.category, label: row.sector, market: row.market, items: [] }));
    group.items.push({
      assetId: row.assetId,
      symbol: row.symbol,
      name: row.name,
      market: row.market,
      stockCode: row.stockCode,
      price: numberOrNull(row.price),
      priceUsd: numberOrNull(toUsd(row.price, row.currency, rates, USD_PRICE_DECIMALS)),
      change24h: numberOrNull(row.change24h),
      marketCap: numberOrNull(row.marketCap),
      volume24h: numberOrNull(row.volume24h),
      sector: row.sector,
      industry: row.industry,
      priceUpdatedAt: row.priceUpdatedAt?.toISOString() ?? null,
    });
  }
  return [...groups.values()];
}
