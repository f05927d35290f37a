import { Injectable } from '@nestjs/common';
import { toDecimalString } from '../../common/decimal/decimal';
import { assertWithinOffsetCap, offsetOf } from '../../common/pagination/offset-cap';
import { Page, toPage } from '../../common/pagination/page.dto';
import { SortOrder } from '../../common/pagination/sort-order';
import { Hip3SmartTradersDto, Hip3TraderDto, Hip4SmartTradersDto, Hip4TraderDto } from './dto/smart-trader.dto';
import { Hip3SmartTraderQueryDto, Hip4SmartTraderQueryDto } from './dto/smart-trader.query.dto';
import { HlCatalogService } from './hl-catalog.service';
import { SmartTraderFilter, SmartTraderRow, HlSmartTradersRepository } from './hl-smart-traders.repository';
import { SmartTraderSort } from './hl-params';
import { answerTime } from './snapshot/snapshot-freshness';

export const HIP4_SIDES = ['YES', 'NO'];

/** Smart traders of a HIP-3 coin or a HIP-4 outcome in the current market snapshot; offset paging only. */
@Injectable()
export class HlSmartTradersService {
  constructor(
    private readonly catalog: HlCatalogService,
    private readonly traders: HlSmartTradersRepository,
  ) {}

  async getHip3(query: Hip3SmartTraderQueryDto): Promise<Hip3SmartTradersDto> {
    assertWithinOffsetCap(query.page, query.limit);
    const catalog = await this.catalog.get();
    // The coin list exists before the first snapshot: an unknown coin is the caller's error either way.
    const coin = catalog.hip3.resolve(query.coin);
    const snapshot = catalog.requireSnapshot('market');
    const markPx = (await this.catalog.snapshotCoin(snapshot.id, 'perp', coin))?.markPx ?? catalog.markPx('perp', coin);
    const page = await this.page({ snapshotId: snapshot.id, market: 'hip3', coin, address: query.address?.toLowerCase() }, query, toHip3Trader);
    return {
      coin,
      markPx: markPx === null ? null : toDecimalString(markPx),
      ...page,
      updatedAt: answerTime(snapshot, 'smartTraders').toISOString(),
    };
  }

  async getHip4(query: Hip4SmartTraderQueryDto): Promise<Hip4SmartTradersDto> {
    assertWithinOffsetCap(query.page, query.limit);
    const catalog = await this.catalog.get();
    // Outcomes are listed before the first snapshot: an unknown one is the caller's error either way.
    const outcome = catalog.outcome(Number(query.outcomeId));
    const snapshot = catalog.requireSnapshot('market');
    const outcomeId = String(outcome.outcomeId);
    // The mark the snapshot valued the outcome at, as HIP-3's; snapshots built before it stored HIP-4 marks
    // have none, and then the live one answers.
    const stored = outcome.yesCoin === null ? undefined : await this.catalog.snapshotCoin(snapshot.id, 'hip4', outcome.yesCoin);
    const markPx = stored?.markPx ?? outcome.markPx;
    const page = await this.page({ snapshotId: snapshot.id, market: 'hip4', coin: outcomeId, address: query.address?.toLowerCase() }, query, toHip4Trader);
    return {
      outcomeId,
      outcomeName: outcome.name,
      markPx: markPx === null ? null : toDecimalString(markPx),
      sides: HIP4_SIDES,
      ...page,
      updatedAt: answerTime(snapshot, 'smartTraders').toISOString(),
    };
  }

  private async page<T>(
    filter: SmartTraderFilter,
    { sort, order, page, limit }: { sort: SmartTraderSort; order: SortOrder; page: number; limit: number },
    toItem: (row: SmartTraderRow) => T,
  ): Promise<Page<T>> {
    const [rows, total] = await Promise.all([this.traders.page({ ...filter, sort, order, offset: offsetOf(page, limit), limit }), this.traders.count(filter)]);
    return toPage({ items: rows.map(toItem), page, limit, total });
  }
}

function toHip4Trader(row: SmartTraderRow): Hip4TraderDto {
  return {
    userAddress: row.address,
    totalBuyUsd: toDecimalString(row.total_buy_usd),
    totalSellUsd: toDecimalString(row.total_sell_usd),
    realizedPnl: toDecimalString(row.realized_pnl),
    unrealizedPnl: toDecimalString(row.unrealized_pnl),
    pnl: toDecimalString(row.pnl),
    pnlPct: toDecimalString(row.pnl_pct),
    tradeCount: row.trade_count,
    lastTradeAt: row.last_trade_at.toISOString(),
  };
}

/** Contract field order: the HIP-3-only fields sit between the HIP-4 ones. */
function toHip3Trader(row: SmartTraderRow): Hip3TraderDto {
  return {
    userAddress: row.address,
    totalBuyUsd: toDecimalString(row.total_buy_usd),
    totalSellUsd: toDecimalString(row.total_sell_usd),
    totalFeeUsd: toDecimalString(row.total_fee_usd),
    realizedPnl: toDecimalString(row.realized_pnl),
    unrealizedPnl: toDecimalString(row.unrealized_pnl),
    pnl: toDecimalString(row.pnl),
    pnlPct: toDecimalString(row.pnl_pct),
    netPositionSz: toDecimalString(row.net_position_sz),
    currentPositionNotional: toDecimalString(row.current_position_notional),
    tradeCount: row.trade_count,
    lastTradeAt: row.last_trade_at.toISOString(),
  };
}
