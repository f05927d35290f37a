import { CursorPageQuery } from '../../../common/pagination/page-query.dto';
import { LEADERBOARD_LIMIT, LEADERBOARD_SORTS, LeaderboardSort, SortOrder } from '../hl-params';
import { EnumParam, OrderParam } from './hl-query.fields';

export class LeaderboardQueryDto extends CursorPageQuery(LEADERBOARD_LIMIT) {
  @EnumParam(LEADERBOARD_SORTS, 'pnl_day', 'Value to rank by: PnL, ROI or volume over a window, or the account value.')
  sort: LeaderboardSort = 'pnl_day';

  @OrderParam('`desc` (default): largest first, ties broken by address (higher first); `asc` is the exact reverse.')
  order: SortOrder = 'desc';
}
