import { Injectable } from '@nestjs/common';
import { toDecimalString } from '../../common/decimal/decimal';
import { CursorBinding } from '../../common/pagination/cursor-codec';
import { RankPager, rankWindow } from '../../common/pagination/rank-pager';
import { LeaderboardDto, LeaderboardEntryDto } from './dto/leaderboard.dto';
import { LeaderboardQueryDto } from './dto/leaderboard.query.dto';
import { HlCatalogService } from './hl-catalog.service';
import { HlLeaderboardRepository, LeaderboardRow } from './hl-leaderboard.repository';
import { LEADERBOARD_WINDOWS } from './hl-params';
import { answerTime } from './snapshot/snapshot-freshness';

/** The leaderboard snapshot ranked by any of its 13 sort values, paged by rank (contract 4.1). */
@Injectable()
export class HlLeaderboardService {
  constructor(
    private readonly catalog: HlCatalogService,
    private readonly leaderboard: HlLeaderboardRepository,
    private readonly pager: RankPager,
  ) {}

  async getLeaderboard(query: LeaderboardQueryDto): Promise<LeaderboardDto> {
    const binding: CursorBinding = { endpoint: 'hl.leaderboard', sort: query.sort, order: query.order, limit: query.limit };
    // The request's own errors (a bad cursor, a page past the offset cap) are 400 even before the first snapshot.
    const start = this.pager.start(query, binding);
    const snapshot = (await this.catalog.get()).requireSnapshot('leaderboard');
    const total = snapshot.rows;
    const window = rankWindow({ start, limit: query.limit, order: query.order, total });
    const rows = await this.leaderboard.page({ snapshotId: snapshot.id, sort: query.sort, window });
    return {
      ...this.pager.page({ items: rows.map(toEntry), start, limit: query.limit, total, binding }),
      updatedAt: answerTime(snapshot, 'leaderboard').toISOString(),
    };
  }
}

function toEntry(row: LeaderboardRow): LeaderboardEntryDto {
  return {
    ethAddress: row.address,
    accountValue: toDecimalString(row.account_value),
    windowPerformances: LEADERBOARD_WINDOWS.map(([name, suffix]) => [
      name,
      {
        pnl: toDecimalString(row[`pnl_${suffix}`]),
        roi: toDecimalString(row[`roi_${suffix}`]),
        vlm: toDecimalString(row[`vlm_${suffix}`]),
      },
    ]),
  };
}
