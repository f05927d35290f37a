import { Module } from '@nestjs/common';
import { AccountCreditsModule } from './account-credits.module';
import { CallSettlements } from './call-settlements';
import { CreditSeeds } from './credit-seeds';
import { LedgerFlusherService } from './ledger-flusher.service';
import { LedgerRepository } from './ledger.repository';
import { UsageSyncService } from './usage-sync.service';
import { UsageRepository } from './usage.repository';

/**
 * What moves billing state from the KV store to PostgreSQL: the ledger drain, the usage sync, the voids
 * and give-ups still to land (CallSettlements) and the seeds of live balances. Not global on purpose:
 * Nest shuts non-global modules down before the global ones, so their last runs come after the HTTP
 * server closed and before the database (TypeOrmCoreModule) and the KV store (KvModule), both global, close.
 */
@Module({
  imports: [AccountCreditsModule],
  providers: [LedgerRepository, LedgerFlusherService, UsageRepository, UsageSyncService, CallSettlements, CreditSeeds],
  exports: [UsageRepository, LedgerFlusherService, CallSettlements, CreditSeeds],
})
export class BillingSyncModule {}
