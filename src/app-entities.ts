import { AccountEntity } from './modules/account/entities/account.entity';
import { ApiKeyEntity } from './modules/account/entities/api-key.entity';
import { CreditTransactionEntity, UsageCounterEntity, UsageDailyEntity } from './modules/billing/billing.public';
import { AssetQuoteEntity } from './modules/markets/entities/asset-quote.entity';
import { AssetEntity } from './modules/markets/entities/asset.entity';
import { CohortAddressEntity } from './modules/cohorts/entities/cohort-address.entity';
import { CohortEntity } from './modules/cohorts/entities/cohort.entity';
import { WatchlistEntryEntity, WatchlistGroupEntity } from './modules/watchlist/watchlist.public';

/** Every entity the data source maps; areas add theirs here (outside infra, which must not import modules). */
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  CreditTransactionEntity,
  UsageCounterEntity,
  UsageDailyEntity,
  AssetEntity,
  AssetQuoteEntity,
  WatchlistGroupEntity,
  WatchlistEntryEntity,
  CohortEntity,
  CohortAddressEntity,
];
