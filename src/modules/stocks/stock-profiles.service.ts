import { Inject, Injectable } from '@nestjs/common';
import { TtlCache } from '../../common/cache/ttl-cache';
import { JsonText } from '../../common/http/json-text';
import { EQUITIES_PROVIDER, EquitiesProvider } from '../../providers/equities-provider';
import { AgedValue, UpstreamCache, UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import type { AssetRow } from '../markets/asset-row';
import { AssetsRepository } from '../markets/assets.repository';
import { AssetsService } from '../markets/assets.service';
import { Aged } from '../markets/data-age';
import { ON_DEMAND_DEADLINE_MS } from '../markets/market-feeds.service';
import { fxSymbolsOf } from '../markets/usd-rates';
import { CompanyDto } from './dto/company.dto';
import { FundamentalsDto } from './dto/fundamentals.dto';
import { StockSourceDto } from './dto/stock-blocks.dto';
import { toCompanyPeople, toFundamentalsOverview, toSectionErrors, toStatements, toStockAsset } from './stock-profiles.mapper';

/** Contract 8.8: equity fundamentals are cached for up to about an hour. */
const PROFILE_FRESH_MS = 30 * 60_000;
/** An answer with a failed section is asked again sooner, so the section comes back once the vendor does. */
const PARTIAL_FRESH_MS = 60_000;
const STOCKS_ONLY = ['STOCK'] as const;
/** A replica reuses an assembled answer this long (the vendor's answer is already shared through the KV store). */
const ANSWER_TTL_MS = 2_000;
const ANSWER_KEYS = 2_000;

/**
 * `/stock/{symbol}/fundamentals` and `/stock/{symbol}/company`: the catalogue's asset block, then the equities
 * vendor's composite answer through the kit's shared cache. A section the vendor could not give is empty and
 * named in `errors`; only when no call at all succeeded, and nothing is cached, is it 502.
 */
@Injectable()
export class StockProfilesService {
  private readonly fundamentalsCache: UpstreamCache;
  private readonly companyCache: UpstreamCache;
  private readonly answers = new TtlCache<Aged<JsonText>>(ANSWER_TTL_MS, ANSWER_KEYS);

  constructor(
    private readonly assets: AssetsService,
    private readonly catalogue: AssetsRepository,
    @Inject(EQUITIES_PROVIDER) private readonly equities: EquitiesProvider,
    caches: UpstreamCacheFactory,
  ) {
    const freshTtlFor = (value: unknown) => ((value as { failures: unknown[] }).failures.length > 0 ? PARTIAL_FRESH_MS : PROFILE_FRESH_MS);
    this.fundamentalsCache = caches.create({ name: 'stocks.fundamentals', freshTtlMs: PROFILE_FRESH_MS, freshTtlFor });
    this.companyCache = caches.create({ name: 'stocks.company', freshTtlMs: PROFILE_FRESH_MS, freshTtlFor });
  }

  async fundamentals(symbol: string): Promise<Aged<JsonText>> {
    const row = await this.assets.resolve(symbol, STOCKS_ONLY);
    return this.answers.get(`fundamentals:${row.id}`, () => this.assembleFundamentals(row));
  }

  async company(symbol: string): Promise<Aged<JsonText>> {
    const row = await this.assets.resolve(symbol, STOCKS_ONLY);
    return this.answers.get(`company:${row.id}`, () => this.assembleCompany(row));
  }

  private async assembleFundamentals(row: AssetRow): Promise<Aged<JsonText>> {
    const sourceSymbol = row.yahooSymbol!;
    const read = await this.fundamentalsCache.getAged(this.cacheKey(sourceSymbol), () =>
      this.equities.getFundamentals({ sourceSymbol, signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) }),
    );
    const fundamentals = read.value;
    const rates = await this.ratesFor(row, [fundamentals.quote?.currency ?? null, ...fundamentals.metrics.map((metric) => metric.currency)]);
    const body: FundamentalsDto = {
      asset: toStockAsset(row),
      source: this.source(sourceSymbol, read),
      overview: toFundamentalsOverview(fundamentals, rates),
      financials: {
        incomeStatement: toStatements(fundamentals.incomeStatement),
        balanceSheet: toStatements(fundamentals.balanceSheet),
        cashFlowStatement: toStatements(fundamentals.cashFlowStatement),
      },
      errors: toSectionErrors(fundamentals.failures),
    };
    return { data: JsonText.of(body), asOf: read.loadedAt };
  }

  private async assembleCompany(row: AssetRow): Promise<Aged<JsonText>> {
    const sourceSymbol = row.yahooSymbol!;
    const read = await this.companyCache.getAged(this.cacheKey(sourceSymbol), () =>
      this.equities.getCompany({ sourceSymbol, signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) }),
    );
    const body: CompanyDto = {
      asset: toStockAsset(row),
      source: this.source(sourceSymbol, read),
      company: toCompanyPeople(
        read.value,
        await this.ratesFor(
          row,
          read.value.executives.map((executive) => executive.currency),
        ),
      ),
      errors: toSectionErrors(read.value.failures),
    };
    return { data: JsonText.of(body), asOf: read.loadedAt };
  }

  /** Cache keys name the vendor, so switching vendors never serves another vendor's data. */
  private cacheKey(sourceSymbol: string): string {
    return `${this.equities.name}:${sourceSymbol}`;
  }

  private source(sourceSymbol: string, read: AgedValue<unknown>, now = Date.now()): StockSourceDto {
    const fresh = now - read.loadedAt < (read.freshMs ?? PROFILE_FRESH_MS);
    return { provider: this.equities.name, symbol: sourceSymbol, updatedAt: new Date(read.loadedAt).toISOString(), freshness: fresh ? 'fresh' : 'stale' };
  }

  /** The catalogue's FX quotes of the listing's currency and every other the answer's money is in (a reporting currency). */
  private ratesFor(row: AssetRow, currencies: Array<string | null>): Promise<Map<string, string>> {
    return this.catalogue.latestPricesByYahooSymbol(fxSymbolsOf([row.currency, ...currencies]));
  }
}
