import { PageQuery } from '../../../common/pagination/page-query.dto';
import { TRENDING_LIMIT, TRENDING_MARKETS, TRENDING_PERIODS, TrendingMarket, TrendingPeriod } from '../hl-params';
import { EnumParam } from '../../../common/validation/query-fields';

export class TrendingQueryDto extends PageQuery(TRENDING_LIMIT) {
  @EnumParam(TRENDING_PERIODS, '1h', 'Window the activity is measured over.')
  period: TrendingPeriod = '1h';

  @EnumParam(
    TRENDING_MARKETS,
    'all',
    '`all` (default) returns both `spot` and `perp` lists; otherwise only the chosen one. `page` and `limit` apply to each list.',
  )
  market: TrendingMarket = 'all';
}
