import { ApiProperty } from '@nestjs/swagger';
import { PageQuery } from '../../../common/pagination/page-query.dto';
import { SortOrder } from '../../../common/pagination/sort-order';
import { EnumParam, OrderParam } from '../../../common/validation/query-fields';
import { ASSET_TYPES } from '../../markets/asset-types';
import { ASSET_TYPE_FILTERS, AssetTypeFilter } from '../../markets/dto/markets.query.dto';

/** `/rwa` sort keys; `rank` is the vendor's order by token market cap. */
export const RWA_SORTS = ['rank', 'tokenMcap', 'tokenVol', 'changePct', 'avgTokenPrice', 'marketCap', 'volume', 'symbol'] as const;
export type RwaSort = (typeof RWA_SORTS)[number];
/** The contract's integer `assetType` of an RWA's underlying. */
export const RWA_ASSET_TYPE_CODES = { stock: 1, etf: 2, commodity: 3 } as const;

export class RwaQueryDto extends PageQuery({ defaultLimit: 20, maxLimit: 100 }) {
  @EnumParam(ASSET_TYPE_FILTERS, 'ALL', `Class of the underlying: ALL or one of ${ASSET_TYPES.join(', ')} (only stocks, ETFs and commodities have tokens).`)
  type: AssetTypeFilter = 'ALL';

  @EnumParam(RWA_SORTS, 'rank', 'Sort key: rank (token market cap, as the vendor ranks), the token figures, the underlying figures, or symbol.')
  sort: RwaSort = 'rank';

  @OrderParam('Sort direction; rank sorts ascending for `desc` (largest first), as the other keys do.')
  order: SortOrder = 'desc';
}

export class RwaTokenDto {
  @ApiProperty({ example: 'Tesla xStock' }) name: string;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    example: 1042,
    description: 'Our asset id of the token (a crypto asset); null when our catalogue does not list it',
  })
  cryptoId: number | null;
  @ApiProperty({ example: 'tesla-xstock', description: "The crypto vendor's id of the token" }) slug: string;
  @ApiProperty({ example: 'TSLAX' }) symbol: string;
}

/** A row that lacks one of these figures is left out of `/rwa`, so every served item has them all. */
const NUMBER = (example: number, description: string) => ({ type: 'number', example, description }) as const;

export class RwaItemDto {
  @ApiProperty({ example: 'tesla' }) rwaId: string;
  @ApiProperty({ example: 1, description: 'Position by token market cap, 1 = largest' }) rank: number;
  @ApiProperty({ example: 'TSLA', description: 'The underlying' }) symbol: string;
  @ApiProperty({ example: 'Tesla' }) name: string;
  @ApiProperty({ example: 'tesla' }) slug: string;
  @ApiProperty({ enum: Object.values(RWA_ASSET_TYPE_CODES), example: 1, description: '1 stock, 2 ETF, 3 commodity' }) assetType: number;
  @ApiProperty(NUMBER(375.05, "The underlying's price from our catalogue (its listing currency)")) rwaPrice: number;
  @ApiProperty(NUMBER(375.6, "The tokens' price in USD averaged by their 24 h volume, from our crypto catalogue's quotes")) avgTokenPrice: number;
  @ApiProperty(NUMBER(1.2, "Percent change of the tokens' price over 24 h")) changePct: number;
  @ApiProperty(
    NUMBER(
      1206000000000,
      "The underlying's market cap from our catalogue; a commodity's is its price times the metal's stock above ground (gold: the World Gold Council's ~216,265 t)",
    ),
  )
  marketCap: number;
  @ApiProperty(NUMBER(98000000, "The underlying's session volume from our catalogue")) volume: number;
  @ApiProperty(NUMBER(45000000, "The tokens' market cap together, USD")) tokenMcap: number;
  @ApiProperty(NUMBER(3200000, "The tokens' 24 h volume together, USD")) tokenVol: number;

  @ApiProperty({
    enum: ['open', 'closed'],
    example: 'closed',
    description: "open while the underlying's listing trades: its last quote is under 15 minutes old (tokens trade around the clock)",
  })
  marketStatus: string;

  @ApiProperty({ type: [RwaTokenDto] }) tokenList: RwaTokenDto[];
  @ApiProperty({ type: 'integer', example: 412, description: 'Our asset id of the underlying (a stock or ETF the catalogue lacked is added to it)' })
  linkedAssetId: number;
  @ApiProperty({ type: 'string', enum: ['STOCK', 'ETF', 'COMMODITY'], example: 'STOCK' }) linkedAssetType: string;
  @ApiProperty({ type: 'string', example: 'TSLA', description: "The underlying's symbol in our catalogue (gold is GC)" })
  linkedAssetSymbol: string;
  @ApiProperty({ example: '2026-11-24T12:00:00.000Z' }) updatedAt: string;
}
