import { Module } from '@nestjs/common';
import { LedgerFlusherService } from './ledger-flusher.service';
import { LedgerRepository } from './ledger.repository';
import { UsageSyncService } from './usage-sync.service';
import { UsageRepository } from './usage.repository';

/**
 * What moves billing state from the KV store to PostgreSQL: the ledger drain and the usage sync. Not
 * global on purpose: Nest shuts non-global modules down before the global ones, so their last runs come
 * after the HTTP server closed and before the database (TypeOrmCoreModule) and the KV store (KvModule),
 * both global, close.
 */
@Module({
  providers: [LedgerRepository, LedgerFlusherService, UsageRepository, UsageSyncService],
  exports: [UsageRepository],
})
export class BillingSyncModule {}
