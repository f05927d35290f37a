import { CursorPageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { AddressParam, EnumParam, OrderParam } from '../../../common/validation/query-fields';
import { HOLDERS_LIMIT, PERP_HOLDER_SORTS, PerpHolderSort } from '../hl-params';
import { CoinParam } from './hl-query.fields';

const WITH_ADDRESS =
  "With `address`, page and limit do not apply: the response holds that wallet's row (if any), total is the row count and nextCursor is null; `cursor` cannot be combined with it.";

export class SpotHoldersQueryDto extends CursorPageQuery(HOLDERS_LIMIT) {
  @CoinParam('Spot token symbol.', 'HYPE')
  coin: string;

  @OrderParam('By value: `desc` (default) lists the largest holders first. Ties are broken by address (desc order: higher address first).')
  order: SortOrder = 'desc';

  @AddressParam(WITH_ADDRESS)
  address?: string;
}

export class PerpHoldersQueryDto extends CursorPageQuery(HOLDERS_LIMIT) {
  @CoinParam('Perp symbol (`BTC`) or HIP-3 `dex:SYMBOL` (`xyz:TSLA`).', 'BTC')
  coin: string;

  @EnumParam(PERP_HOLDER_SORTS, 'value', '`value` (position value, USD; default) or `pnl` (unrealized PnL).')
  sortBy: PerpHolderSort = 'value';

  @OrderParam('`desc` (default): largest first. Ties are broken by address (desc order: higher address first).')
  order: SortOrder = 'desc';

  @AddressParam(WITH_ADDRESS)
  address?: string;
}
