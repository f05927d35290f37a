import { AccountEntity } from './modules/account/entities/account.entity';
import { ApiKeyEntity } from './modules/account/entities/api-key.entity';
import { CreditTransactionEntity } from './modules/account/entities/credit-transaction.entity';
import { UsageCounterEntity } from './modules/usage/entities/usage-counter.entity';

/** Every entity the data source maps; areas add theirs here (outside infra, which must not import modules). */
export const ENTITIES = [AccountEntity, ApiKeyEntity, CreditTransactionEntity, UsageCounterEntity];
