import { CursorPageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { EnumParam, OrderParam } from '../../../common/validation/query-fields';
import { LEADERBOARD_LIMIT, LEADERBOARD_SORTS, LeaderboardSort } from '../hl-params';

export class LeaderboardQueryDto extends CursorPageQuery(LEADERBOARD_LIMIT) {
  @EnumParam(LEADERBOARD_SORTS, 'pnl_day', 'Value to rank by: PnL, ROI or volume over a window, or the account value.')
  sort: LeaderboardSort = 'pnl_day';

  @OrderParam('`desc` (default): largest first, ties broken by address (higher first); `asc` is the exact reverse.')
  order: SortOrder = 'desc';
}
