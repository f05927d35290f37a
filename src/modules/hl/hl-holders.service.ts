import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { SnapshotScopedCache } from '../../common/cache/snapshot-scoped-cache';
import { toDecimalString } from '../../common/decimal/decimal';
import { AppError } from '../../common/errors/app-error';
import { JsonText } from '../../common/http/json-text';
import { CursorBinding } from '../../common/pagination/cursor-codec';
import { CursorPage } from '../../common/pagination/page.dto';
import { RankPager, rankWindow } from '../../common/pagination/rank-pager';
import { PerpHolderDto, SpotHolderDto } from './dto/holders.dto';
import { PerpHoldersQueryDto, SpotHoldersQueryDto } from './dto/holders.query.dto';
import { AppConfig } from '../../config/app.config';
import { HlCatalogService } from './hl-catalog.service';
import { HlHoldersRepository, PerpHolderRow, SpotHolderRow } from './hl-holders.repository';
import { PERP_HOLDER_RANKS } from './hl-params';
import { answerTime } from './snapshot/snapshot-freshness';
import { CurrentSnapshot } from './snapshot/snapshot-store';

/** The largest page kept in the page cache (the default limit is 100; the cap is 500). */
const CACHED_PAGE_MAX_ROWS = 100;

/** PostgreSQL's undefined_table. */
const UNDEFINED_TABLE = '42P01';

/** Spot and perp holders of a coin in the current market snapshot, paged by rank (contract 4.1). */
@Injectable()
export class HlHoldersService {
  /**
   * Ranked pages of the current market snapshot, whole: within a snapshot a page (rows, position, next
   * cursor) is a pure function of its coin, sort, order, start and limit, so each is read and serialised
   * once per replica and later requests get the same bytes (JsonText). Kept as JSON rather than objects:
   * the garbage collector then marks one string per page instead of ~1,200 objects (500 cached pages of
   * objects cost a mids run a quarter of its req/s, docs/benchmarks.md).
   */
  private readonly pages: SnapshotScopedCache<JsonText>;

  constructor(
    private readonly catalog: HlCatalogService,
    private readonly holders: HlHoldersRepository,
    private readonly pager: RankPager,
    config: ConfigService<AppConfig, true>,
  ) {
    this.pages = new SnapshotScopedCache({ maxEntries: config.get('hl.holderPagesCached', { infer: true }) });
  }

  /** SpotHoldersDto as JSON text. */
  getSpotHolders(query: SpotHoldersQueryDto): Promise<JsonText> {
    return this.onFreshSnapshot(() => this.readSpotHolders(query));
  }

  /** PerpHoldersDto as JSON text. */
  getPerpHolders(query: PerpHoldersQueryDto): Promise<JsonText> {
    return this.onFreshSnapshot(() => this.readPerpHolders(query));
  }

  /** Pages of up to CACHED_PAGE_MAX_ROWS rows go through the cache, so it holds a bounded number of rows. */
  private async cachedPage(snapshotId: number, key: string, limit: number, build: () => Promise<JsonText>): Promise<JsonText> {
    if (limit > CACHED_PAGE_MAX_ROWS) return build();
    return this.pages.get(snapshotId, key, build);
  }

  /**
   * Pages read the snapshot's own partition, whose id the catalog caches for up to a second; should that
   * snapshot have been pruned in between (possible only at the shortest snapshot intervals), the read is
   * repeated once on the current snapshot rather than failing.
   */
  private async onFreshSnapshot<T>(read: () => Promise<T>): Promise<T> {
    try {
      return await read();
    } catch (error) {
      if ((error as { code?: string }).code !== UNDEFINED_TABLE) throw error;
      this.catalog.invalidate();
      return read();
    }
  }

  private async readSpotHolders(query: SpotHoldersQueryDto): Promise<JsonText> {
    const catalog = await this.catalog.get();
    // The request's own errors (coin, cursor, offset cap) are 400 even before the first snapshot: the coin
    // list exists before it, and the cursor and page do not depend on it.
    const coin = catalog.spot.resolve(query.coin);
    const head = { market: 'spot' as const, coin };

    if (query.address !== undefined) {
      rejectCursorWithAddress(query.cursor);
      const snapshot = catalog.requireSnapshot('market');
      const rows = await this.holders.spotHoldersOf({ snapshotId: snapshot.id, coin, address: query.address.toLowerCase() });
      return JsonText.of({ ...head, ...singleWalletPage(rows.map(toSpotHolder), query.limit), updatedAt: holdersUpdatedAt(snapshot) });
    }

    const binding: CursorBinding = { endpoint: 'hl.spot.holders', coin, order: query.order, limit: query.limit };
    const start = this.pager.start(query, binding);
    const snapshot = catalog.requireSnapshot('market');
    const updatedAt = holdersUpdatedAt(snapshot);
    const total = (await this.catalog.snapshotCoin(snapshot.id, 'spot', coin))?.holders ?? 0;
    return this.cachedPage(snapshot.id, `spot|${coin}|${query.order}|${start}|${query.limit}`, query.limit, async () => {
      const window = rankWindow({ start, limit: query.limit, order: query.order, total });
      const rows = (await this.holders.spotHolders({ snapshotId: snapshot.id, coin, window })).map(toSpotHolder);
      const position = this.pager.position({ count: rows.length, start, limit: query.limit, total, binding });
      return JsonText.spliced(head, 'items', JSON.stringify(rows), { ...position, updatedAt });
    });
  }

  private async readPerpHolders(query: PerpHoldersQueryDto): Promise<JsonText> {
    const catalog = await this.catalog.get();
    // As for spot: the request's own errors first, then the snapshot.
    const coin = catalog.perp.resolve(query.coin);
    const head = { market: 'perp' as const, coin };

    if (query.address !== undefined) {
      rejectCursorWithAddress(query.cursor);
      const snapshot = catalog.requireSnapshot('market');
      const rows = await this.holders.perpHoldersOf({ snapshotId: snapshot.id, coin, address: query.address.toLowerCase() });
      return JsonText.of({ ...head, ...singleWalletPage(rows.map(toPerpHolder), query.limit), updatedAt: holdersUpdatedAt(snapshot) });
    }

    const binding: CursorBinding = { endpoint: 'hl.perp.holders', coin, sortBy: query.sortBy, order: query.order, limit: query.limit };
    const start = this.pager.start(query, binding);
    const snapshot = catalog.requireSnapshot('market');
    const updatedAt = holdersUpdatedAt(snapshot);
    const total = (await this.catalog.snapshotCoin(snapshot.id, 'perp', coin))?.holders ?? 0;
    const rankColumn = PERP_HOLDER_RANKS[query.sortBy];
    return this.cachedPage(snapshot.id, `perp|${coin}|${query.sortBy}|${query.order}|${start}|${query.limit}`, query.limit, async () => {
      const window = rankWindow({ start, limit: query.limit, order: query.order, total });
      const rows = (await this.holders.perpHolders({ snapshotId: snapshot.id, coin, rankColumn, window })).map(toPerpHolder);
      const position = this.pager.position({ count: rows.length, start, limit: query.limit, total, binding });
      return JsonText.spliced(head, 'items', JSON.stringify(rows), { ...position, updatedAt });
    });
  }
}

/** When the positions and marks the holders were computed from were read from the exchange. */
function holdersUpdatedAt(snapshot: CurrentSnapshot): string {
  return answerTime(snapshot, 'holders').toISOString();
}

/** A cursor walks the ranked list; with an address there is no list to walk. */
function rejectCursorWithAddress(cursor: string | undefined): void {
  if (cursor !== undefined) throw AppError.validation('cursor', 'cannot be combined with address');
}

function singleWalletPage<T>(items: T[], limit: number): CursorPage<T> {
  return { items, page: 1, limit, total: items.length, hasMore: false, nextCursor: null };
}

function decimalOrNull(value: string | null): string | null {
  return value === null ? null : toDecimalString(value);
}

function toSpotHolder(row: SpotHolderRow): SpotHolderDto {
  return {
    address: row.address,
    coin: row.coin,
    balance: toDecimalString(row.balance),
    value: toDecimalString(row.value),
    // Without an entry notional there is no cost basis: no entry price, PnL or ROE either.
    entryPrice: row.entry_ntl === null ? null : decimalOrNull(row.entry_price),
    entryNtl: decimalOrNull(row.entry_ntl),
    uPnl: row.entry_ntl === null ? null : decimalOrNull(row.upnl),
    roe: row.entry_ntl === null ? null : decimalOrNull(row.roe),
    supplyPercentage: toDecimalString(row.supply_pct),
    addressTags: row.tags,
  };
}

function toPerpHolder(row: PerpHolderRow): PerpHolderDto {
  return {
    address: row.address,
    side: row.side,
    coin: row.coin,
    size: toDecimalString(row.size),
    value: toDecimalString(row.value),
    entryPrice: toDecimalString(row.entry_price),
    leverage: toDecimalString(row.leverage),
    uPnl: toDecimalString(row.upnl),
    roe: toDecimalString(row.roe),
    marginUsed: toDecimalString(row.margin_used),
    liquidationPrice: decimalOrNull(row.liquidation_price),
    markPrice: toDecimalString(row.mark_price),
    cumFunding: decimalOrNull(row.cum_funding),
    supplyPercentage: toDecimalString(row.supply_pct),
    addressTags: row.tags,
  };
}
