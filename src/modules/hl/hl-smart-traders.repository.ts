import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SortOrder } from '../../common/pagination/sort-order';
import { SMART_TRADER_COLUMNS, SmartTraderSort } from './hl-params';

export interface SmartTraderRow {
  address: string;
  total_buy_usd: string;
  total_sell_usd: string;
  total_fee_usd: string;
  realized_pnl: string;
  unrealized_pnl: string;
  pnl: string;
  pnl_pct: string;
  net_position_sz: string;
  current_position_notional: string;
  trade_count: number;
  last_trade_at: Date;
}

export interface SmartTraderFilter {
  snapshotId: number;
  market: 'hip3' | 'hip4';
  /** The HIP-3 coin, or the HIP-4 outcome id as text. */
  coin: string;
  /** Lowercase wallet; all traders of the coin when absent. */
  address?: string;
}

const COLUMNS = `address, total_buy_usd::text AS total_buy_usd, total_sell_usd::text AS total_sell_usd,
  total_fee_usd::text AS total_fee_usd, realized_pnl::text AS realized_pnl, unrealized_pnl::text AS unrealized_pnl,
  pnl::text AS pnl, pnl_pct::text AS pnl_pct, net_position_sz::text AS net_position_sz,
  current_position_notional::text AS current_position_notional, trade_count, last_trade_at`;

/** All SQL over the hl_smart_traders partitions. */
@Injectable()
export class HlSmartTradersRepository {
  constructor(@InjectDataSource() private readonly db: DataSource) {}

  /**
   * Offset paging (capped by the caller): the sort column, then the address, both in the requested order.
   * ORDER BY names the table's columns (t.) because the text-cast output columns share their names.
   */
  async page(filter: SmartTraderFilter & { sort: SmartTraderSort; order: SortOrder; offset: number; limit: number }): Promise<SmartTraderRow[]> {
    const { where, params } = whereOf(filter);
    const direction = filter.order === 'asc' ? 'ASC' : 'DESC';
    const rows: Array<Record<string, unknown>> = await this.db.query(
      `SELECT ${COLUMNS} FROM hl_smart_traders t WHERE ${where}
        ORDER BY t.${SMART_TRADER_COLUMNS[filter.sort]} ${direction}, t.address ${direction}
        LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, filter.limit, filter.offset],
    );
    return rows.map((r) => ({ ...(r as unknown as SmartTraderRow), trade_count: Number(r.trade_count), last_trade_at: new Date(r.last_trade_at as string) }));
  }

  async count(filter: SmartTraderFilter): Promise<number> {
    const { where, params } = whereOf(filter);
    const [row] = await this.db.query(`SELECT count(*)::int AS n FROM hl_smart_traders WHERE ${where}`, params);
    return Number(row.n);
  }
}

function whereOf({ snapshotId, market, coin, address }: SmartTraderFilter): { where: string; params: unknown[] } {
  const params: unknown[] = [snapshotId, market, coin];
  let where = 'snapshot_id = $1 AND market = $2 AND coin = $3';
  if (address !== undefined) {
    params.push(address);
    where += ` AND address = $${params.length}`;
  }
  return { where, params };
}
