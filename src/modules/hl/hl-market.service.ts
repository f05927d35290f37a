import { Injectable, Logger } from '@nestjs/common';
import { CachedValue } from '../../common/cache/cached-value';
import { SnapshotScopedCache } from '../../common/cache/snapshot-scoped-cache';
import { Decimal, toDecimalString } from '../../common/decimal/decimal';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { LiquidationMapDto } from './dto/liquidation-map.dto';
import { LiquidationMapQueryDto } from './dto/liquidation-map.query.dto';
import { JsonText } from '../../common/http/json-text';
import { MidsDto } from './dto/mids.dto';
import { TrendingDto, TrendingItemDto, TrendingListDto } from './dto/trending.dto';
import { TrendingQueryDto } from './dto/trending.query.dto';
import { HlCatalogService } from './hl-catalog.service';
import { HlHoldersRepository } from './hl-holders.repository';
import { HlMarketsRepository } from './hl-markets.repository';
import { TrendingPeriod } from './hl-params';
import { HlTrendingRepository, TrendingRow } from './hl-trending.repository';
import { LIQUIDATION_BINS, LIQUIDATION_SEGMENT_BOUNDS, liquidationRange, toHeatmap } from './liquidation-heatmap';
import { answerTime } from './snapshot/snapshot-freshness';

const MIDS_TTL_MS = 1_000;
/** Contract 7.2: if hl_mids cannot be read, the last map keeps serving for up to about an hour. */
const MIDS_MAX_STALE_MS = 60 * 60 * 1_000;

type TrendingLists = Record<'spot' | 'perp', TrendingItemDto[]>;

/** Market-wide reads: the mids map, the liquidation heatmap and the trending lists. */
@Injectable()
export class HlMarketService {
  private readonly logger = new Logger(HlMarketService.name);
  /** The whole response data, built and serialised once per refresh: the hot path hands out the same text. */
  private readonly mids = new CachedValue(() => this.loadMids(), {
    ttlMs: MIDS_TTL_MS,
    maxStaleMs: MIDS_MAX_STALE_MS,
    onStaleServed: (error) => this.logger.warn(`mids reload failed, serving the previous map: ${String(error)}`),
  });
  private readonly heatmaps = new SnapshotScopedCache<LiquidationMapDto>();
  private readonly trending = new SnapshotScopedCache<TrendingLists>();

  constructor(
    private readonly catalog: HlCatalogService,
    private readonly markets: HlMarketsRepository,
    private readonly holders: HlHoldersRepository,
    private readonly trendingRows: HlTrendingRepository,
  ) {}

  /** MidsDto as JSON text. */
  getMids(): JsonText | Promise<JsonText> {
    return this.mids.get();
  }

  async getLiquidationMap(query: LiquidationMapQueryDto): Promise<LiquidationMapDto> {
    const catalog = await this.catalog.get();
    // The coin list exists before the first snapshot: an unknown coin is the caller's error either way.
    const coin = catalog.perp.resolve(query.coin);
    const snapshot = catalog.requireSnapshot('market');
    return this.heatmaps.get(snapshot.id, coin, async () => {
      // The snapshot's own mark keeps the heatmap consistent with the positions it bins.
      const markPx = (await this.catalog.snapshotCoin(snapshot.id, 'perp', coin))?.markPx ?? catalog.markPx('perp', coin);
      if (markPx === null || !new Decimal(markPx).gt(0)) return { coin, heatmap: [] };
      const rows = await this.holders.liquidationBins({
        snapshotId: snapshot.id,
        coin,
        ...liquidationRange(markPx),
        bins: LIQUIDATION_BINS,
        segmentBounds: LIQUIDATION_SEGMENT_BOUNDS,
      });
      return { coin, heatmap: toHeatmap({ coin, markPx, rows }) };
    });
  }

  async getTrending(query: TrendingQueryDto): Promise<TrendingDto> {
    assertWithinOffsetCap(query.page, query.limit);
    const snapshot = (await this.catalog.get()).requireSnapshot('market');
    const lists = await this.trending.get(snapshot.id, query.period, () => this.loadTrending(snapshot.id, query.period));
    const body: TrendingDto = {
      period: query.period,
      snapshot_height: snapshot.id,
      snapshot_time: answerTime(snapshot, 'trending').toISOString(),
    };
    const offset = offsetOf(query.page, query.limit);
    if (query.market !== 'perp') body.spot = pageOf(lists.spot, offset, query);
    if (query.market !== 'spot') body.perp = pageOf(lists.perp, offset, query);
    return body;
  }

  private async loadMids(): Promise<JsonText> {
    const mids: Record<string, string> = {};
    for (const { coin, mid } of await this.markets.listMids()) mids[coin] = toDecimalString(mid);
    const data: MidsDto = { mids };
    return JsonText.of(data);
  }

  /** A period's ranked lists are small and fixed per snapshot: loaded once, then sliced per request. */
  private async loadTrending(snapshotId: number, period: TrendingPeriod): Promise<TrendingLists> {
    const lists: TrendingLists = { spot: [], perp: [] };
    for (const row of await this.trendingRows.list({ snapshotId, period })) {
      if (row.market === 'spot' || row.market === 'perp') lists[row.market].push(toTrendingItem(row));
    }
    return lists;
  }
}

function pageOf(items: TrendingItemDto[], offset: number, { page, limit }: { page: number; limit: number }): TrendingListDto {
  return {
    items: items.slice(offset, offset + limit),
    pagination: { page, limit, total: items.length, hasMore: offset + limit < items.length },
  };
}

function toTrendingItem(row: TrendingRow): TrendingItemDto {
  return {
    coin: row.coin,
    price: toDecimalString(row.price),
    priceChange: toDecimalString(row.price_change),
    buyAddresses: row.buy_addresses,
    sellAddresses: row.sell_addresses,
    smartBuy: row.smart_buy,
    smartSell: row.smart_sell,
    buyOrderAmountChange: toDecimalString(row.buy_amount_change),
    sellOrderAmountChange: toDecimalString(row.sell_amount_change),
  };
}
