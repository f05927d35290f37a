import { Inject, Injectable } from '@nestjs/common';
import { AppError } from '../../common/errors/app-error';
import { ErrorCode } from '../../common/errors/error-code';
import { JsonText } from '../../common/http/json-text';
import { FILINGS_PROVIDER, FilingsProvider, RegistrantFilings } from '../../providers/filings-provider';
import { NO_VENDOR } from '../../providers/kit/provider-slot.module';
import { UpstreamCache, UpstreamCacheFactory } from '../../providers/kit/upstream-cache';
import { AssetsService } from '../markets/assets.service';
import { Aged } from '../markets/data-age';
import { ON_DEMAND_DEADLINE_MS } from '../markets/market-feeds.service';
import { SecFilingsDto, SecFilingsQueryDto } from './dto/sec-filings.dto';

/** Contract 8.8: SEC filings are cached for up to about an hour. */
const FILINGS_FRESH_MS = 30 * 60_000;

/**
 * `/stock/{symbol}/sec-filings`: the registrant's EDGAR filings, filtered and newest first, through the kit's
 * shared cache. A stock with no SEC registrant (HK, JP and KR listings, or a US ticker EDGAR does not map to a
 * CIK) files nowhere at the SEC: a 404 that says so, unbilled, rather than an empty list that reads as "none yet".
 */
@Injectable()
export class SecFilingsService {
  private readonly cache: UpstreamCache;

  constructor(
    private readonly assets: AssetsService,
    @Inject(FILINGS_PROVIDER) private readonly filings: FilingsProvider,
    caches: UpstreamCacheFactory,
  ) {
    this.cache = caches.create({ name: 'stocks.sec-filings', freshTtlMs: FILINGS_FRESH_MS });
  }

  async list(symbol: string, { from, to, forms, limit }: SecFilingsQueryDto): Promise<Aged<JsonText>> {
    if (from !== undefined && to !== undefined && from > to) throw AppError.validation('from', `must not be after to (${to})`);
    for (const [field, day] of [['from', from] as const, ['to', to] as const])
      if (day !== undefined && !isCalendarDay(day)) throw AppError.validation(field, 'is not a calendar day');
    const row = await this.assets.resolve(symbol, ['STOCK']);
    // Only US listings have a registrant; a filings vendor switched off still answers 503 for any stock.
    if (row.market !== 'US' && this.filings.name !== NO_VENDOR) throw noRegistrant(row.symbol);
    const formSet = forms && [...new Set(forms.map((form) => form.toUpperCase()))].sort();
    const key = `${this.filings.name}:${row.symbol}:${from ?? ''}:${to ?? ''}:${formSet?.join(',') ?? ''}:${limit}`;
    const read = await this.cache.getAged<RegistrantFilings | null>(key, () =>
      this.filings.listFilings({ symbol: row.symbol, from, to, forms: formSet, limit, signal: AbortSignal.timeout(ON_DEMAND_DEADLINE_MS) }),
    );
    if (read.value === null) throw noRegistrant(row.symbol);
    const items = read.value.filings;
    const body: SecFilingsDto = {
      source: {
        provider: this.filings.name,
        symbol: row.symbol,
        from: from ?? read.value.firstFilingDate,
        to: to ?? new Date().toISOString().slice(0, 10),
        updatedAt: new Date(read.loadedAt).toISOString(),
      },
      items,
      count: items.length,
      limit,
    };
    return { data: JsonText.of(body), asOf: read.loadedAt };
  }
}

function noRegistrant(symbol: string): AppError {
  return new AppError(ErrorCode.NOT_FOUND, `symbol: ${symbol} files nowhere at the SEC (no SEC registrant; only US listings file there)`);
}

/** YYYY-MM-DD that names a real day (2025-02-30 does not). */
function isCalendarDay(day: string): boolean {
  const parsed = new Date(`${day}T00:00:00.000Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === day;
}
