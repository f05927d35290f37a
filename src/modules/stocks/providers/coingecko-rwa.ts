import { Injectable, Logger } from '@nestjs/common';
import { mapLimit } from '../../../common/async/map-limit';
import { Decimal } from '../../../common/decimal/decimal';
import { BoundedMap } from '../../../common/memo/bounded-map';
import { CoingeckoClient } from '../../../providers/coingecko/coingecko.client';
import { MAX_RWAS_PER_PAGE, RWA_ASSET_TYPES, RwaDetail, RwaMarketRow } from '../../../providers/coingecko/coingecko-rwas.types';
import { RwaAssetType, RwaMarket, RwaProvider } from '../../../providers/rwa-provider';

const VENDOR = 'coingecko';
/** An RWA's tokens change when an issuer launches or retires one: days apart, not minutes. */
export const RWA_TOKENS_FRESH_MS = 24 * 60 * 60_000;
/**
 * Token lists asked per listing, largest RWAs first: one call each, so a listing spends under a minute of the demo
 * plan's budget on them and the other RWAs' lists fill in on the next listings.
 */
export const RWA_TOKEN_LOOKUPS_PER_LIST = 20;
const TOKEN_LOOKUP_CONCURRENCY = 4;
/** Pages of 250 asked per asset type at most: far above the few hundred RWAs CoinGecko lists. */
const MAX_PAGES_PER_TYPE = 20;
const MAX_KNOWN_RWAS = 10_000;

interface KnownTokens {
  detail: RwaDetail;
  fetchedAt: number;
}

/**
 * Tokenized real-world assets from CoinGecko's RWA API: `/rwas/markets` per asset type (stock, etf, commodity) for
 * the tokens' aggregate market, and `/rwas/{id}?tokens=true` for each RWA's tokens, which the list does not name.
 * Both are on the Demo plan as on the paid ones (docs.coingecko.com/demo/reference/rwa-overview), so
 * COINGECKO_PLAN changes only the host and key header, never the endpoints.
 *
 * The token lists are kept per replica for a day: asking one per RWA on every listing would spend the demo
 * plan's whole budget. An RWA whose list has not been read yet (or failed) lists no tokens until a later
 * listing reads it; a failed refresh keeps the previous list.
 */
@Injectable()
export class CoingeckoRwa implements RwaProvider {
  readonly name = VENDOR;
  private readonly logger = new Logger(CoingeckoRwa.name);
  private readonly known = new BoundedMap<string, KnownTokens>(MAX_KNOWN_RWAS);

  constructor(private readonly coingecko: CoingeckoClient) {}

  async listRwaMarkets({ signal }: { signal?: AbortSignal }): Promise<RwaMarket[]> {
    const rows = (await Promise.all(RWA_ASSET_TYPES.map((assetType) => this.rowsOf(assetType, signal)))).flat();
    const unique = [...new Map(rows.map((row) => [row.id, row])).values()].sort(byTokenMarketCap);
    await this.refreshTokens(unique, signal);
    return unique.map((row) => this.toMarket(row));
  }

  /** Every page of one asset type, until a short page. */
  private async rowsOf(assetType: RwaAssetType, signal?: AbortSignal): Promise<RwaMarketRow[]> {
    const rows: RwaMarketRow[] = [];
    for (let page = 1; page <= MAX_PAGES_PER_TYPE; page++) {
      const batch = await this.coingecko.rwasMarkets({ assetType, page, perPage: MAX_RWAS_PER_PAGE, signal });
      rows.push(...batch);
      if (batch.length < MAX_RWAS_PER_PAGE) break;
    }
    return rows;
  }

  /** Reads the token lists never read first, then those older than a day, each group largest first. */
  private async refreshTokens(rows: RwaMarketRow[], signal?: AbortSignal): Promise<void> {
    const now = Date.now();
    const unread = rows.filter((row) => !this.known.get(row.id));
    const stale = rows.filter((row) => {
      const known = this.known.get(row.id);
      return known !== undefined && now - known.fetchedAt >= RWA_TOKENS_FRESH_MS;
    });
    const due = [...unread, ...stale].slice(0, RWA_TOKEN_LOOKUPS_PER_LIST);
    await mapLimit(
      due,
      TOKEN_LOOKUP_CONCURRENCY,
      async (row) => {
        const detail = await this.coingecko.rwa(row.id, signal);
        this.known.set(row.id, { detail, fetchedAt: Date.now() });
      },
      { signal, onError: (row, error) => this.logger.warn(`rwa ${row.id}: token list not read (${error instanceof Error ? error.message : String(error)})`) },
    );
  }

  /** The row's market with its tokens; the price is CoinGecko's aggregate, as the RWA API gives no per-token figures. */
  private toMarket(row: RwaMarketRow): RwaMarket {
    const detail = this.known.get(row.id)?.detail;
    return {
      id: row.id,
      name: row.name,
      symbol: row.symbol,
      slug: detail?.slug ?? row.id,
      assetType: row.assetType,
      tokenPrice: row.tokenPrice,
      tokenMarketCap: row.tokenMarketCap,
      tokenVolume24h: row.tokenVolume24h,
      tokenChange24h: row.tokenChange24h,
      tokens: detail?.tokens ?? [],
      updatedAt: row.updatedAt,
    };
  }
}

/** Largest token market cap first; RWAs without one last, then by id so the order is stable. */
function byTokenMarketCap(a: RwaMarketRow, b: RwaMarketRow): number {
  if (a.tokenMarketCap !== b.tokenMarketCap) {
    if (a.tokenMarketCap === null) return 1;
    if (b.tokenMarketCap === null) return -1;
    const diff = new Decimal(b.tokenMarketCap).comparedTo(a.tokenMarketCap) ?? 0;
    if (diff !== 0) return diff;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}
