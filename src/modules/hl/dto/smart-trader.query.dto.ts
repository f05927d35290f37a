import { PageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { IntegerParam } from '../../../common/validation/integer-param.decorator';
import { AddressParam, EnumParam, OrderParam } from '../../../common/validation/query-fields';
import { SMART_TRADER_LIMIT, SMART_TRADER_SORTS, SmartTraderSort } from '../hl-params';
import { CoinParam } from './hl-query.fields';

const SORT_DESCRIPTION =
  'Column to rank traders by (ties broken by address in the same direction): pnl, pnlPct (default), tradeCount, totalBuyUsd, ' +
  'totalSellUsd, realizedPnl, unrealizedPnl, lastTradeAt.';
const ORDER_DESCRIPTION = '`desc` (default): largest (or latest) first.';
const ADDRESS_DESCRIPTION = 'Only this trader (total is then 0 or 1).';

export class Hip3SmartTraderQueryDto extends PageQuery(SMART_TRADER_LIMIT) {
  @CoinParam('HIP-3 coin, `dex:SYMBOL`.', 'xyz:TSLA')
  coin: string;

  @EnumParam(SMART_TRADER_SORTS, 'pnlPct', SORT_DESCRIPTION)
  sort: SmartTraderSort = 'pnlPct';

  @OrderParam(ORDER_DESCRIPTION)
  order: SortOrder = 'desc';

  @AddressParam(ADDRESS_DESCRIPTION)
  address?: string;
}

export class Hip4SmartTraderQueryDto extends PageQuery(SMART_TRADER_LIMIT) {
  // Outcome 0 exists in the demo's simulator, so "Try it out" answers with data.
  @IntegerParam({
    min: 0,
    required: true,
    example: 0,
    description:
      'Prediction outcome id: an integer >= 0 in decimal digits, listed by the exchange. An unlisted one is 400 VALIDATION_ERROR naming `outcomeId`.',
  })
  outcomeId: number;

  @EnumParam(SMART_TRADER_SORTS, 'pnlPct', SORT_DESCRIPTION)
  sort: SmartTraderSort = 'pnlPct';

  @OrderParam(ORDER_DESCRIPTION)
  order: SortOrder = 'desc';

  @AddressParam(ADDRESS_DESCRIPTION)
  address?: string;
}
